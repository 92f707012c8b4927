import { z } from 'zod';
import { ok } from '../../api-kit/envelope.js';
import { enabledAssets } from '../../core/catalog/availability.js';
import { iso } from '../../core/clock.js';
import { Decimal } from '../../core/money/decimal.js';
import { currencySchema } from '../openapi/responses.js';
import type { MerchantRoute } from '../route.js';

/** Catalog timestamps: when this catalog version shipped. */
const CATALOG_DATE = Date.UTC(2026, 10, 1);

/** GET /currencies (API §4.2, 2.1): assets payable now: network watched and a fresh price at hand. */
export const listCurrenciesRoute: MerchantRoute = {
  method: 'get',
  path: '/currencies',
  operationId: 'listCurrencies',
  summary: "Assets payable now in the key's mode",
  description:
    'Test keys see the sandbox assets at fixed rates; live keys the assets of configured networks at live rates. ' +
    'TRX, USDTTRC20, SOL and XRP are test-only (sandbox): no live network exists for them. Live networks: btc, ' +
    'ltc, doge, eth, bsc, matic, base and xmr (CHAINS_CONFIG); an asset is listed while its node is reachable and ' +
    'its price fresh.',
  tag: 'Pricing',
  success: { status: 200, description: 'Enabled assets with their USD rate', data: z.array(currencySchema) },
  errors: [],
  handler: (deps) => async (c) => {
    const mode = c.get('merchant').mode;
    const out = [];
    for (const a of enabledAssets(deps.catalog.list(), deps.chains, mode)) {
      const rate = await deps.rates[mode].usdRate(a).then(
        (r) => r.rate,
        () => null,
      );
      if (rate === null) continue;
      out.push({
        code_id: a.codeId,
        code: a.code,
        name: a.name,
        network: a.network,
        icon_url: `/icons/${a.logoFile}`,
        logo_file: a.logoFile,
        wallet_regex: a.walletRegex,
        priority: a.priority,
        extra_id_exists: a.extraIdExists,
        extra_id_regex: a.extraIdRegex,
        track: 1,
        cg_id: a.cgId,
        is_maxlimit: false,
        smart_contract: a.smartContract,
        network_precision: a.decimals,
        usd_rate: new Decimal(rate),
        enabled: true,
        created_at: iso(CATALOG_DATE),
        updated_at: iso(CATALOG_DATE),
      });
    }
    return ok(c, out);
  },
};
