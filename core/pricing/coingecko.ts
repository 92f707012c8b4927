import { z } from 'zod';
import type { Asset } from '../catalog/types.js';
import { type Clock, iso } from '../clock.js';
import { AppError, err, ok, type Result, toError } from '../errors.js';
import { type Logger, silentLogger } from '../log.js';
import { numberToDecimalText } from '../money/decimal.js';
import type { FiatCode } from '../money/fiat.js';
import type { FiatRate, RateProvider, UsdRate } from './types.js';

export interface CoinGeckoOptions {
  /** API root without the endpoint, e.g. `https://pro-api.coingecko.com/api/v3`; any compatible service works. */
  baseUrl: string;
  /** Sent in `apiKeyHeader` when given; never logged. */
  apiKey?: string | undefined;
  /**
   * Pro keys go in `x-cg-pro-api-key`, free demo keys in `x-cg-demo-api-key`.
   * @default 'x-cg-pro-api-key'
   */
  apiKeyHeader?: 'x-cg-pro-api-key' | 'x-cg-demo-api-key' | undefined;
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
  const apiKeyHeader = options.apiKeyHeader ?? 'x-cg-pro-api-key';
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
      return ok({ updated });
    } catch (e) {
      return failed(toError(e));
    }
  }

  function failed(error: Error): Result<never> {
    logger.warn('price refresh failed; keeping the last prices until they go stale', {
      source: url.origin + url.pathname,
      error: error.message,
    });
    return err(new AppError('UNAVAILABLE', `Rate source unavailable: ${error.message}`, { cause: error }));
  }

  const refresh = (): Promise<Result<{ updated: number }>> => {
    // Overlapping timer ticks (a slow source) share one request instead of piling up.
    inflight ??= fetchOnce().finally(() => {
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
