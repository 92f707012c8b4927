import { h } from 'preact';
import { type CreatedSession, DropinApi, sendSession } from './api.js';
import { loadOptionMessages } from './chunks.js';
import { Checkout } from './components/checkout.js';
import { price } from './format.js';
import { loadLocale, locale, pickLocale } from './i18n.js';
import { type Mounted, mountHost } from './mount.js';
import { optionProblemCodes } from './options.js';
import { safeCall, TAG } from './safe.js';
import { CheckoutState } from './state.js';
import type { CheckoutError, CheckoutHandle, CheckoutOptions, CheckoutPayment, CheckoutResult } from './types.js';

let current: { close(): void } | null = null;

/**
 * `ServiceCheckout.open(options)`: opens the popup and returns `{ close(), result }`. It never throws into the
 * merchant's page: bad options and failures go to the console, `onError` and a rejected `result` (which is
 * marked handled, so an ignored result is not an unhandled rejection).
 *
 * @example
 * const { result } = ServiceCheckout.open({ publicKey: 'dk_test_...', amount: 25, customer: { email: 'a@b.c' } });
 * const outcome = await result; // { status: 'finished', payment } or { status: 'closed', payment }
 */
export function createOpen(defaultBase: string) {
  /**
   * With `sessionToken` (a session the service created server-side), `options` carries only callbacks and looks.
   * `sent`: POST /sessions for these options, already on its way (checkout.js sends it when a tap comes before
   * this module); read instead of sending another.
   */
  return function open(options: CheckoutOptions, sessionToken?: string, sent?: Promise<Response>): CheckoutHandle {
    let settle: (r: CheckoutResult) => void = () => {};
    let reject: (e: CheckoutError) => void = () => {};
    const result = new Promise<CheckoutResult>((res, rej) => {
      settle = res;
      reject = rej;
    });
    result.catch(() => {});
    const report = (e: CheckoutError) => {
      console.error(`${TAG} ${e.message}`);
      safeCall('onError', options?.onError, e);
    };
    /** A checkout that never opens: the error goes to the console, `onError` and `result`. */
    const refuse = (code: CheckoutError['code'], message: string) => {
      const e: CheckoutError = { code, message };
      report(e);
      reject(e);
    };
    const none = { close() {}, result };
    try {
      const problems = sessionToken ? [] : optionProblemCodes(options);
      if (problems.length > 0) {
        // The words are a chunk: a working integration never downloads them.
        const invalid = (what: string) => refuse('invalid_options', `Invalid options: ${what}`);
        void loadOptionMessages().then(
          (m) => invalid(m.wordProblems(problems).join('; ')),
          () => invalid(problems.join(', ')),
        );
        return none;
      }
      current?.close();
      return start(options, defaultBase, settle, reject, report, result, sessionToken, sent);
    } catch (e) {
      refuse('server', `Unexpected error: ${e}`);
      return none;
    }
  };
}

function start(
  o: CheckoutOptions,
  defaultBase: string,
  settle: (r: CheckoutResult) => void,
  reject: (e: CheckoutError) => void,
  report: (e: CheckoutError) => void,
  result: Promise<CheckoutResult>,
  token?: string,
  sent?: Promise<Response>,
): CheckoutHandle {
  const api = new DropinApi((o.apiBase ?? defaultBase).replace(/\/+$/, ''));
  // The request first: the popup and the price's formatter are built while it is on its way.
  const created = token
    ? api.call<CreatedSession>(`/sessions/${token}`).then((r) => ({ ...r, session_token: token }))
    : api.read<CreatedSession>(sent ?? sendSession(api.base, o));
  // Read by state.start below, after the locale: not an unhandled rejection meanwhile.
  created.catch(() => {});
  const opener = document.activeElement as HTMLElement | null;
  let finished: CheckoutPayment | null = null;
  let mounted: Mounted | null = null;
  let closed = false;

  const state = new CheckoutState(api, {
    onSuccess: (p) => {
      finished = p;
      safeCall('onSuccess', o.onSuccess, p);
      settle({ status: 'finished', payment: p });
    },
    onExpired: (p) => safeCall('onExpired', o.onExpired, p),
    onStatus: (p) => safeCall('onStatus', o.onStatus, p),
    onError: (e) => {
      report(e);
      if (state.screen.value === 'error') reject(e);
    },
  });

  const close = () => {
    if (closed) return;
    closed = true;
    state.dispose();
    mounted?.unmount();
    if (current === handle) current = null;
    // Focus goes back where it was before the popup opened.
    opener?.focus();
    safeCall('onClose', o.onClose);
    settle(finished ? { status: 'finished', payment: finished } : { status: 'closed', payment: state.payment.value });
  };
  const handle: CheckoutHandle = { close, result };
  current = handle;

  mounted = mountHost(o.theme ?? 'auto', h(Checkout, { state, variant: 'modal', onClose: close }));
  const lang = loadLocale(api.base, pickLocale(o.locale, navigator.languages ?? [navigator.language]));
  // A throwaway price while the request flies, in a task of its own after the loading screen: the page's first
  // formatter is the slow one (format.ts), and the header's price is drawn with the QR.
  setTimeout(() => price('0', o.currency ?? 'USD', locale.value));
  void state.start(async () => {
    await lang;
    return created;
  });
  return handle;
}
