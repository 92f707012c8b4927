/** Any case: EIP-55 mixed case is a checksum, not a different address. */
export const EVM_ADDRESS = '^0x[0-9a-fA-F]{40}$';
