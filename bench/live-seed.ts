import type { Kysely } from 'kysely';
import { type KeyChain, setXpub } from '../core/addresses/xpubs.js';
import type { UtxoNet } from '../core/chains/bitcoin/utxo-params.js';
import { systemClock } from '../core/clock.js';
import { newId } from '../core/ids.js';
import { createMerchant } from '../core/merchants/merchants.js';
import type { Payment } from '../core/payments/payment.js';
import { unlockStore } from '../core/secrets/unlock.js';
import { migrate, openStore } from '../core/store/db.js';
import type { Database } from '../core/store/schema.js';

/** The asset of the open payments a live-detection benchmark seeds. */
export interface SeedAsset {
  payCurrency: string;
  network: string;
  decimals: number;
  payAmountUnits: string;
  rate: string;
}

/**
 * A live merchant with an account key for `chain`, and `open` waiting payments of `asset` at addresses from
 * `randomAddress` that nobody pays, inserted as rows (the API would take minutes for 100,000). Set-up happens in
 * the benchmark's process, so the service's memory reflects serving, not bulk loading. Returns the merchant's secret
 * key and the first 100 addresses.
 */
export async function seedLiveStore(
  url: string,
  o: (
    | { chain: KeyChain; xpub: string; net?: UtxoNet }
    /** A chain whose keys are not an extended public key (Monero's address and view key): registers them itself. */
    | { register: (db: Kysely<Database>, merchantId: string) => Promise<void> }
  ) & { asset: SeedAsset; open: number; randomAddress: () => string },
): Promise<{ key: string; addresses: string[] }> {
  const store = openStore(url);
  try {
    await migrate(store);
    // The bench's service finds the same key: no key configured, both use the default key file.
    await unlockStore(store, {}, url);
    const { db } = store;
    const merchant = await createMerchant(db, systemClock, { name: 'Bench live', mode: 'live' });
    if ('register' in o) await o.register(db, merchant.merchant_id);
    else {
      const xp = await setXpub(db, systemClock, merchant.merchant_id, o.chain, o.xpub, o.net);
      if (!xp.ok) throw xp.error;
    }
    const now = Date.now();
    const addresses: string[] = [];
    for (let i = 0; i < o.open; i += 500) {
      const rows: Payment[] = [];
      for (let j = i; j < Math.min(o.open, i + 500); j++) {
        rows.push({
          id: newId('pay'),
          invoice_id: newId('inv'),
          purchase_id: newId('pur'),
          merchant_id: merchant.merchant_id,
          mode: 'live',
          kind: 'direct',
          status: 'waiting',
          status_detail: 'none',
          sequence: 1,
          price_amount: '30.00',
          price_currency: 'USD',
          pay_currency: o.asset.payCurrency,
          network: o.asset.network,
          decimals: o.asset.decimals,
          precision: o.asset.decimals,
          pay_amount_units: o.asset.payAmountUnits,
          actually_paid_units: '0',
          rate: o.asset.rate,
          pay_address: o.randomAddress(),
          extra_id: null,
          address_index: null,
          smart_contract: null,
          customer_name: null,
          customer_email: 'bench@example.com',
          order_id: null,
          order_description: null,
          success_url: null,
          cancel_url: null,
          ipn_callback_url: null,
          origin_ip: null,
          is_fixed_rate: 0,
          is_fee_paid_by_user: 0,
          time_limit: 86_400,
          created_at: now,
          updated_at: now,
          expires_at: now + 86_400_000,
          valid_until: now + 2 * 86_400_000,
          confirmed_at: null,
        });
      }
      await db.insertInto('payments').values(rows).execute();
      if (addresses.length < 100) addresses.push(...rows.slice(0, 100 - addresses.length).map((r) => r.pay_address));
    }
    return { key: merchant.secret_key, addresses };
  } finally {
    await store.close();
  }
}
