import { z } from 'zod';
import type { Asset } from '../catalog/types.js';
import { type Clock, iso } from '../clock.js';
import { AppError, err, ok, type Result, toError } from '../errors.js';
import { type Logger, silentLogger } from '../log.js';
import { numberToDecimalText } from '../money/decimal.js';
import type { FiatCode } from '../money/fiat.js';
import type { FiatRate, RateProvider, RatesStatus, UsdRate } from './types.js';

export type ApiKeyHeader = 'x-cg-pro-api-key' | 'x-cg-demo-api-key';

/**
 * The header CoinGecko reads a key from, by the host the key is sent to: pro keys work only on
 * `pro-api.coingecko.com`, demo keys only on `api.coingecko.com` (a key in the other header is refused as invalid).
 * A compatible service elsewhere is taken as demo-keyed; RATES_API_KEY_HEADER overrides.
 *
 * @example
 * keyHeaderFor('https://pro-api.coingecko.com/api/v3') // 'x-cg-pro-api-key'
 */
export function keyHeaderFor(baseUrl: string): ApiKeyHeader {
  return new URL(baseUrl).hostname.startsWith('pro-api.') ? 'x-cg-pro-api-key' : 'x-cg-demo-api-key';
}

export interface CoinGeckoOptions {
  /** API root without the endpoint, e.g. `https://pro-api.coingecko.com/api/v3`; any compatible service works. */
  baseUrl: string;
  /** Sent in `apiKeyHeader` when given; never logged. */
  apiKey?: string | undefined;
  /**
   * Pro keys go in `x-cg-pro-api-key`, free demo keys in `x-cg-demo-api-key`.
   * @default keyHeaderFor(baseUrl): pro for pro-api.coingecko.com, demo otherwise
   */
  apiKeyHeader?: ApiKeyHeader | undefined;
  /** @default globalThis.fetch */
  fetch?: typeof globalThis.fetch | undefined;
  clock: Clock;
  /** @default 60_000 */
  refreshMs?: number | undefined;
  /** A cached price older than this is refused rather than quoted. @default 600_000 */
  staleAfterMs?: number | undefined;
  /** Per request. @default 10_000 */
  timeoutMs?: number | undefined;
  /** CoinGecko ids to keep prices for (the catalog's `cgId`s). */
  cgIds: readonly string[];
  /**
   * The fiat currencies to keep prices in, fetched in the same request (`vs_currencies`); the service asks for every
   * currency in core/money/fiat.ts, since any of them may price the next payment.
   * @default ['USD']
   */
  vsCurrencies?: readonly FiatCode[] | undefined;
  /** @default silentLogger */
  logger?: Logger | undefined;
}

export interface CoinGeckoRates extends RateProvider {
  /** Refreshes now and then every `refreshMs` in the background; the timer never keeps the process alive. */
  start(): void;
  stop(): void;
  /** Fetches once. Never throws: a failure is returned (and logged) and the cache keeps its last prices. */
  refresh(): Promise<Result<{ updated: number }>>;
}

/** Unknown ids are simply absent from the answer; other currencies or fields (`usd_24h_change`) are ignored. */
const simplePriceSchema = (fields: readonly string[]) =>
  z.record(z.string(), z.object(Object.fromEntries(fields.map((f) => [f, z.number().optional()]))));

/**
 * Live USD prices from a CoinGecko-compatible `GET /simple/price`. Payment creation reads only the in-memory
 * cache, so a slow or failing rate source never slows it down; it only stops quoting once prices go stale,
 * because a quote at an old price would let customers underpay or overpay.
 *
 * @example
 * const rates = createCoinGeckoRates({ baseUrl: 'https://api.coingecko.com/api/v3', apiKey, apiKeyHeader: 'x-cg-demo-api-key',
 *   clock: systemClock, cgIds: catalog.list().map((a) => a.cgId), logger });
 * rates.start();
 * const { rate } = await rates.usdRate(catalog.get('BTC')!); // '67187.33'
 */
export function createCoinGeckoRates(options: CoinGeckoOptions): CoinGeckoRates {
  const { apiKey, clock } = options;
  const apiKeyHeader = options.apiKeyHeader ?? keyHeaderFor(options.baseUrl);
  const doFetch = options.fetch ?? globalThis.fetch;
  const refreshMs = options.refreshMs ?? 60_000;
  const staleAfterMs = options.staleAfterMs ?? 600_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const logger = options.logger ?? silentLogger;
  const ids = [...new Set(options.cgIds)];
  const url = new URL(`${options.baseUrl.replace(/\/+$/, '')}/simple/price`);
  url.searchParams.set('ids', ids.join(','));
  const currencies = [...new Set(options.vsCurrencies ?? ['USD'])];
  url.searchParams.set('vs_currencies', currencies.map((c) => c.toLowerCase()).join(','));
  const answerSchema = simplePriceSchema(currencies.map((c) => c.toLowerCase()));
  // Keyed `${cgId} ${currency}`.
  const cache = new Map<string, UsdRate>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let inflight: Promise<Result<{ updated: number }>> | undefined;
  /** When the first refresh began (null: never, the provider is off); a price never fetched is stale from then. */
  let startedAt: number | null = null;
  let lastError: { message: string; at: number } | null = null;
  /** Whether a refresh has finished: before, a price never fetched is still coming (starting), not stale. */
  let answered = false;

  async function fetchOnce(): Promise<Result<{ updated: number }>> {
    try {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (apiKey) headers[apiKeyHeader] = apiKey;
      const res = await doFetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) {
        const body = (await res.text().catch(() => '')).slice(0, 200);
        return failed(new Error(`rate source answered HTTP ${res.status}: ${body}`));
      }
      const parsed = answerSchema.safeParse(await res.json());
      if (!parsed.success) return failed(new Error(`rate source sent an unexpected body: ${parsed.error.message}`));
      const fetchedAt = clock.now();
      let updated = 0;
      for (const id of ids) {
        for (const currency of currencies) {
          const field = currency.toLowerCase();
          const quoted = parsed.data[id]?.[field];
          // String(n) of the JSON number is the exact digits the source sent; no arithmetic on the float.
          const rate = typeof quoted === 'number' ? numberToDecimalText(quoted) : null;
          if (rate === null || !/[1-9]/.test(rate)) {
            logger.warn(`rate source has no usable ${currency} price`, { cgId: id, [field]: quoted });
            continue;
          }
          cache.set(`${id} ${currency}`, { rate, fetchedAt });
          updated += 1;
        }
      }
      lastError = null;
      return ok({ updated });
    } catch (e) {
      return failed(toError(e));
    }
  }

  function failed(error: Error): Result<never> {
    lastError = { message: error.message, at: clock.now() };
    logger.warn('price refresh failed; keeping the last prices until they go stale', {
      source: url.origin + url.pathname,
      error: error.message,
    });
    return err(new AppError('UNAVAILABLE', `Rate source unavailable: ${error.message}`, { cause: error }));
  }

  const refresh = (): Promise<Result<{ updated: number }>> => {
    // Overlapping timer ticks (a slow source) share one request instead of piling up.
    startedAt ??= clock.now();
    inflight ??= fetchOnce().finally(() => {
      answered = true;
      inflight = undefined;
    });
    return inflight;
  };

  return {
    refresh,
    start() {
      if (timer) return;
      void refresh();
      timer = setInterval(() => void refresh(), refreshMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
    status(): RatesStatus {
      const now = clock.now();
      const staleIds: string[] = [];
      let oldest: number | null = null;
      let staleSince: number | null = null;
      // Prices in every currency come in one answer, and a source may quote only some currencies: freshness is read
      // off the USD quote every payment needs (its minimum and the balances are in USD).
      let quoted = 0;
      for (const id of ids) {
        const hit = cache.get(`${id} USD`);
        if (hit) quoted += 1;
        if (hit) oldest = Math.min(oldest ?? hit.fetchedAt, hit.fetchedAt);
        // A price is quoted up to staleAfterMs after its fetch (usdRate), stale from the next millisecond on.
        const since = hit ? hit.fetchedAt + staleAfterMs + 1 : answered ? startedAt : null;
        if (since === null || now < since) continue;
        staleIds.push(id);
        staleSince = Math.min(staleSince ?? since, since);
      }
      const state =
        startedAt === null ? 'off' : staleIds.length > 0 ? 'stale' : quoted < ids.length ? 'starting' : 'fresh';
      return {
        state,
        updated_at: oldest === null ? null : iso(oldest),
        stale_since: state === 'stale' && staleSince !== null ? iso(staleSince) : null,
        stale_ids: staleIds,
        last_error: lastError?.message ?? null,
        last_error_at: lastError ? iso(lastError.at) : null,
      };
    },
    usdRate: (asset: Asset): Promise<UsdRate> => cachedRate(asset, 'USD'),
    rate: cachedRate,
  };

  async function cachedRate(asset: Asset, currency: FiatCode): Promise<FiatRate> {
    const hit = cache.get(`${asset.cgId} ${currency}`);
    if (!hit || clock.now() - hit.fetchedAt > staleAfterMs) {
      const last = hit ? iso(hit.fetchedAt) : 'never';
      const what = currency === 'USD' ? asset.code : `${asset.code} in ${currency}`;
      throw new AppError(
        'UNAVAILABLE',
        `Price for ${what} is stale (last update ${last}); pricing is paused until the rate source answers`,
        { retryAfter: Math.max(1, Math.ceil(refreshMs / 1000)) },
      );
    }
    return { ...hit };
  }
}
