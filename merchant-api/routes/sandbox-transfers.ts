import type { Context } from 'hono';
import { z } from 'zod';
import { readJson } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { currencyCodeSchema } from '../../api-kit/schemas.js';
import { isValidAddress } from '../../core/catalog/catalog.js';
import { simulated } from '../../core/chains/families.js';
import { chainKey } from '../../core/chains/types.js';
import { AppError, invalid } from '../../core/errors.js';
import { numberToDecimalText, toUnits } from '../../core/money/decimal.js';
import type { MerchantEnv } from '../auth.js';
import { bodyErrors } from '../openapi/operation.js';
import { sandboxTransferResultSchema } from '../openapi/responses.js';
import type { MerchantRoute } from '../route.js';

/** XRP destination tags are uint32: the catalog regex bounds the digits, this bounds the value. */
function validExtraId(asset: { extraIdRegex: string | null; family: string }, extraId: string): boolean {
  if (asset.extraIdRegex && !new RegExp(asset.extraIdRegex).test(extraId)) return false;
  return asset.family !== 'xrp' || BigInt(extraId) <= 0xffffffffn;
}

/** The sandbox routes are test mode's chain: a live key gets 400, as live payments are paid on the real chain. */
export function requireTestMode(c: Context<MerchantEnv>): void {
  if (c.get('merchant').mode !== 'test') {
    throw new AppError(
      'BAD_REQUEST',
      'Sandbox routes work with test-mode keys only (sk_test_...); live payments are paid on the real chain',
    );
  }
}

export const sandboxTransferSchema = z.strictObject({
  currency: currencyCodeSchema,
  address: z.string().min(1).max(200),
  amount: z.union([
    z.number().positive().finite(),
    z.string().regex(/^\d+(\.\d+)?$/, 'Must be a positive decimal amount'),
  ]),
  extra_id: z.string().max(64).optional(),
});

/** POST /sandbox/transfers: a transfer enters the sandbox mempool (0 confirmations); the watcher sees it at once. */
export const sandboxTransfersRoute: MerchantRoute = {
  method: 'post',
  path: '/sandbox/transfers',
  operationId: 'sendSandboxTransfer',
  summary: 'Send a sandbox transfer (test mode)',
  description: 'The transfer enters the sandbox mempool with 0 confirmations. Live keys get 400.',
  tag: 'Sandbox',
  body: {
    schema: sandboxTransferSchema,
    required: true,
    example: { currency: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', amount: '0.00153847' },
  },
  success: { status: 201, description: 'Transfer broadcast', data: sandboxTransferResultSchema },
  errors: bodyErrors,
  handler: (deps) => async (c) => {
    requireTestMode(c);
    const { data } = await readJson(c, sandboxTransferSchema, deps.limits.bodyBytes);
    const asset = deps.catalog.get(data.currency);
    if (!asset) throw invalid('currency', `Unknown currency "${data.currency}"`);
    if (!isValidAddress(asset, data.address))
      throw invalid('address', `Not a valid ${asset.network} address for ${asset.code}`);
    if (data.extra_id !== undefined && !validExtraId(asset, data.extra_id))
      throw invalid('extra_id', 'Invalid destination tag / memo for this network');
    const text = typeof data.amount === 'number' ? numberToDecimalText(data.amount) : data.amount;
    const units = text === null ? null : toUnits(text, asset.decimals);
    if (units === null || units <= 0n)
      throw invalid('amount', `Must be a positive amount with at most ${asset.decimals} decimals`);
    const txid = await simulated.send(deps.db, deps.clock, {
      asset,
      address: data.address,
      extraId: data.extra_id ?? null,
      units,
    });
    await deps.watchers.sync(chainKey('test', asset.network));
    return ok(
      c,
      {
        txid,
        network: asset.network,
        currency: asset.code,
        address: data.address,
        extra_id: data.extra_id ?? null,
        amount: text,
        confirmations: 0,
      },
      'Transfer broadcast to the sandbox mempool',
      201,
    );
  },
};
