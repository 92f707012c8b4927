import { BASE58 } from '../../catalog/address-shapes.js';

/**
 * Monero standard (4..., network byte 18) and subaddress (8..., 42) forms: 95 characters. Integrated addresses (106)
 * are left out: each payment has its own subaddress, so no payment id is ever needed.
 */
export const XMR_ADDRESS = `^[48]${BASE58}{94}$`;
