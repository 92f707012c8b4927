import type { Kysely } from 'kysely';
import type { Asset } from '../catalog/types.js';
import type { CoreDeps } from '../deps.js';
import { AppError, invalid } from '../errors.js';
import { newId } from '../ids.js';
import type { Merchant } from '../merchants/merchants.js';
import { fromUnits, usdToAssetUnits, usdToCents } from '../money/decimal.js';
import { minimumAmount } from '../pricing/amounts.js';
import { InsertBatcher } from '../store/insert-batcher.js';
import { prepared } from '../store/prepared.js';
import type { Database } from '../store/schema.js';
import type { Payment } from './payment.js';

/** Largest price accepted, in USD: a guard against typos that would quote absurd amounts. */
export const MAX_PRICE_USD = 10_000_000n;

export interface NewPayment {
  /** Chosen by the caller when it must know the id before the payment exists (Idempotency-Key claims). */
  id?: string | undefined;
  kind: 'direct' | 'link';
  /** USD price as exact decimal text (from the JSON number's own digits). */
  priceAmount: string;
  currency: string;
  email: string;
  name?: string | undefined;
  orderId?: string | undefined;
  orderDescription?: string | undefined;
  successUrl?: string | undefined;
  cancelUrl?: string | undefined;
  isFixedRate?: boolean | undefined;
  isFeePaidByUser?: boolean | undefined;
  originIp?: string | undefined;
  /** Payment links: seconds the quote holds; direct payments use PAYMENT_TTL_SECONDS. */
  timeLimitSeconds?: number | undefined;
}

/** Looks up an asset payable by this merchant's mode, or the 422 the spec asks for on `currency`. */
export function payableAsset(deps: CoreDeps, mode: Merchant['mode'], code: string): Asset {
  const asset = deps.catalog.get(code);
  if (!asset) throw invalid('currency', `Unknown currency "${code}"; GET /currencies lists the supported ones`);
  if (!deps.chains.isEnabled(mode, asset.network)) {
    throw invalid(
      'currency',
      `Currency ${asset.code} is not enabled${mode === 'live' ? ': its network is not configured or not reachable' : ''}`,
    );
  }
  return asset;
}

/**
 * Prices and stores a new payment with its own address. Nothing is written unless every check passed.
 * The quote is exact: pay_amount is rounded up (DESIGN.md money rules), so rounding never underpays.
 */
export async function createPayment(deps: CoreDeps, merchant: Merchant, input: NewPayment): Promise<Payment> {
  const asset = payableAsset(deps, merchant.mode, input.currency);
  const cents = usdToCents(input.priceAmount);
  if (cents === null || cents <= 0n) throw invalid('amount', 'Amount must be a positive USD amount');
  if (cents > MAX_PRICE_USD * 100n) throw invalid('amount', `Amount must not exceed ${MAX_PRICE_USD} USD`);

  const { rate } = await deps.rates[merchant.mode].usdRate(asset);
  const payUnits = usdToAssetUnits(cents, rate, asset.decimals);
  const min = minimumAmount(asset, rate);
  if (payUnits < min.minUnits) {
    throw invalid(
      'amount',
      `Amount ${fromUnits(cents, 2)} USD is below the minimum of ${min.minUsd} USD for ${asset.code} (GET /minimum-amount)`,
    );
  }

  const now = deps.clock.now();
  const ttl = input.timeLimitSeconds ?? deps.settings.ttlSeconds;
  const expiresAt = now + ttl * 1000;
  const id = input.id ?? newId('pay');

  const allocator = deps.allocators[merchant.mode];
  // An allocator that writes (an xpub index counter) shares the insert's transaction; one that does not needs none,
  // and a single INSERT is atomic on its own.
  const store = async (db: Kysely<Database>): Promise<Payment> => {
    const allocated = await allocator.allocate(db, merchant, asset);
    const row: Payment = {
      id,
      invoice_id: newId('inv'),
      purchase_id: newId('pur'),
      merchant_id: merchant.id,
      mode: merchant.mode,
      kind: input.kind,
      status: 'waiting',
      status_detail: 'none',
      sequence: 1,
      price_amount: fromUnits(cents, 2),
      price_currency: 'USD',
      pay_currency: asset.code,
      network: asset.network,
      decimals: asset.decimals,
      precision: asset.decimals,
      pay_amount_units: payUnits.toString(),
      actually_paid_units: '0',
      rate,
      pay_address: allocated.address,
      extra_id: allocated.extraId,
      address_index: allocated.index,
      smart_contract: asset.smartContract,
      customer_name: input.name ?? null,
      customer_email: input.email,
      order_id: input.orderId ?? null,
      order_description: input.orderDescription ?? null,
      success_url: input.successUrl ?? null,
      cancel_url: input.cancelUrl ?? null,
      ipn_callback_url: merchant.webhook_url,
      origin_ip: input.originIp ?? null,
      is_fixed_rate: input.isFixedRate ? 1 : 0,
      is_fee_paid_by_user: input.isFeePaidByUser ? 1 : 0,
      time_limit: ttl,
      created_at: now,
      updated_at: now,
      expires_at: expiresAt,
      valid_until: expiresAt + deps.settings.graceSeconds * 1000,
      confirmed_at: null,
    };
    if (db === deps.db) await batcherFor(deps.db).insert(row);
    else
      await insertPayment(
        db,
        paymentColumns.map((c) => row[c]),
      );
    return row;
  };
  return allocator.writes ? deps.db.transaction().execute(store) : store(deps.db);
}

// One group-commit batcher per store (see InsertBatcher): payments created concurrently share a commit.
const batchers = new WeakMap<Kysely<Database>, InsertBatcher<Payment>>();
function batcherFor(db: Kysely<Database>): InsertBatcher<Payment> {
  let b = batchers.get(db);
  if (!b) {
    b = new InsertBatcher<Payment>(async (rows) => {
      if (rows.length === 1)
        await insertPayment(
          db,
          paymentColumns.map((c) => (rows[0] as Payment)[c]),
        );
      else await db.insertInto('payments').values(rows).execute();
    });
    batchers.set(db, b);
  }
  return b;
}

const paymentColumns = [
  'id',
  'invoice_id',
  'purchase_id',
  'merchant_id',
  'mode',
  'kind',
  'status',
  'status_detail',
  'sequence',
  'price_amount',
  'price_currency',
  'pay_currency',
  'network',
  'decimals',
  'precision',
  'pay_amount_units',
  'actually_paid_units',
  'rate',
  'pay_address',
  'extra_id',
  'address_index',
  'smart_contract',
  'customer_name',
  'customer_email',
  'order_id',
  'order_description',
  'success_url',
  'cancel_url',
  'ipn_callback_url',
  'origin_ip',
  'is_fixed_rate',
  'is_fee_paid_by_user',
  'time_limit',
  'created_at',
  'updated_at',
  'expires_at',
  'valid_until',
  'confirmed_at',
] as const satisfies readonly (keyof Payment)[];

// Payment creation is the hottest write: its INSERT is compiled once (placeholders in `paymentColumns` order).
const insertPayment = prepared((db) =>
  db.insertInto('payments').values(Object.fromEntries(paymentColumns.map((c) => [c, `$${c}`])) as unknown as Payment),
);

const paymentById = prepared((db) => db.selectFrom('payments').selectAll().where('id', '=', '$id'));

/**
 * A merchant's payment, from the read cache when it holds it (exact: emptied by any change to payments); another
 * merchant's payment is answered exactly like a missing one. `synced`: see ReadCache.get.
 */
export async function findPayment(
  deps: Pick<CoreDeps, 'db' | 'caches'>,
  merchantId: string,
  paymentId: string,
  synced = false,
): Promise<Payment | undefined> {
  const p = await deps.caches.payments.get(paymentId, async () => (await paymentById(deps.db, [paymentId]))[0], synced);
  return p?.merchant_id === merchantId ? p : undefined;
}

/** findPayment, or the 404 a missing payment gets (ids of other merchants' payments leak nothing). */
export async function getPayment(
  deps: Pick<CoreDeps, 'db' | 'caches'>,
  merchantId: string,
  paymentId: string,
  synced = false,
): Promise<Payment> {
  const p = await findPayment(deps, merchantId, paymentId, synced);
  if (!p) throw new AppError('NOT_FOUND', 'Payment not found');
  return p;
}
