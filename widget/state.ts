import { signal } from '@preact/signals';
import type { VNode } from 'preact';
import type { DropinApi, PickerCurrency, SessionView } from './api.js';
import * as chunks from './chunks.js';
import type { CheckoutError, CheckoutPayment } from './types.js';

export type Screen = 'loading' | 'picker' | 'pay' | 'success' | 'expired' | 'error';

export interface StateHooks {
  onSuccess(p: CheckoutPayment): void;
  onExpired(p: CheckoutPayment): void;
  onStatus(p: CheckoutPayment): void;
  onError(e: CheckoutError): void;
  /** A hosted page moved to a new payment (retry): its address changes with it. */
  onToken?(token: string, paymentId: string): void;
}

/**
 * The checkout's state, one signal per fact; components read them and re-render only where used. All API work
 * goes through here, and every failure ends as a screen and an `onError`, never as an exception.
 */
export class CheckoutState {
  readonly screen = signal<Screen>('loading');
  readonly session = signal<SessionView | null>(null);
  readonly payment = signal<CheckoutPayment | null>(null);
  readonly currencies = signal<PickerCurrency[] | null>(null);
  readonly error = signal('');
  readonly busy = signal(false);
  readonly now = signal(Date.now());
  /** Hosted page: finished, about to go to success_url. */
  readonly redirecting = signal(false);
  /**
   * Wallet pay under the QR: drawn here by its chunk (wallet/wallet-pay.tsx), which loads after the QR and only
   * when the browser has a wallet; the module itself only shows it.
   */
  readonly wallet = signal<VNode>();
  // Private members are `#` fields: the minifier shortens their names, as nothing outside can use them.
  readonly #hooks: StateHooks;
  #token = '';
  #stopLive: (() => void) | null = null;
  /** Bumped by every stop, so a live-status module that arrives late does not follow a payment no longer shown. */
  #liveRun = 0;
  #ticker: ReturnType<typeof setInterval> | null = null;
  #lastStatus = '';
  #succeeded = false;
  #expiredFor = '';
  #disposed = false;

  readonly #chunks: Pick<typeof chunks, 'loadLive' | 'loadSimulate'>;

  /** @param load where the chunks come from (chunks.ts; a test may make one fail, as a network would). */
  constructor(
    readonly api: DropinApi,
    hooks: StateHooks,
    load: Pick<typeof chunks, 'loadLive' | 'loadSimulate'> = chunks,
  ) {
    this.#hooks = hooks;
    this.#chunks = load;
  }

  /** Shows what `load` returns: a payment (QR at once) or the picker. */
  async start(
    load: () => Promise<{
      session_token: string;
      session: SessionView;
      payment?: CheckoutPayment | null;
      currencies?: PickerCurrency[] | null;
    }>,
  ): Promise<void> {
    try {
      const r = await load();
      this.#token = r.session_token;
      // No batch() needed here or below: Preact renders signal changes together, after this task.
      this.session.value = r.session;
      if (r.currencies) this.currencies.value = r.currencies;
      if (r.payment) this.#showPayment(r.payment);
      else await this.openPicker();
    } catch (e) {
      this.#fail(e);
    }
  }

  async openPicker(): Promise<void> {
    this.#stopFollowing();
    if (!this.currencies.value)
      this.currencies.value = await this.api.call<PickerCurrency[]>(`/sessions/${this.#token}/currencies`);
    this.screen.value = 'picker';
  }

  /** The customer picked an asset, or retries after expiry (same asset): the service creates the payment. */
  async choose(code: string): Promise<void> {
    if (this.busy.value) return;
    this.busy.value = true;
    try {
      // A new token only when the hosted page moves to a new payment.
      const r = await this.api.call<{ session_token?: string; payment: CheckoutPayment }>(
        `/sessions/${this.#token}/payment`,
        { currency: code },
      );
      if (r.session_token && r.session_token !== this.#token) {
        this.#token = r.session_token;
        this.#hooks.onToken?.(r.session_token, r.payment.payment_id);
      }
      this.#showPayment(r.payment);
    } catch (e) {
      this.#fail(e);
    } finally {
      this.busy.value = false;
    }
  }

  retry(): Promise<void> {
    const p = this.payment.value;
    return p ? this.choose(p.pay_currency) : this.openPicker();
  }

  /** Test mode: pay on the sandbox chain (simulate.ts, a chunk: live checkouts never load it). */
  async simulate(): Promise<void> {
    if (this.busy.value) return;
    this.busy.value = true;
    try {
      const { simulate } = await this.#chunks.loadSimulate();
      await simulate(this.api, this.#token, (p) => this.update(p));
    } catch (e) {
      this.#fail(e);
    } finally {
      this.busy.value = false;
    }
  }

  #showPayment(p: CheckoutPayment): void {
    this.#stopFollowing();
    this.#lastStatus = '';
    this.update(p);
    if (this.screen.value === 'pay') this.#ticker ??= setInterval(() => this.#tick(), 1000);
  }

  /**
   * The QR is on screen (its image loaded, or failed to): now follow the payment live, and look for a browser
   * wallet (live.ts). The live-status code is a chunk fetched at this point, so it is not part of what the
   * customer waits for to see the QR. The mark `service-checkout:qr` lets a page (and bench/dropin.ts) time the QR and tell what loaded before it.
   */
  qrShown(): void {
    if (this.#stopLive || this.#disposed || this.screen.value !== 'pay') return;
    performance.mark('service-checkout:qr');
    const run = ++this.#liveRun;
    this.#stopLive = () => {
      this.#liveRun++;
    };
    this.#chunks.loadLive().then(
      ({ followPayment }) => {
        if (run === this.#liveRun) this.#stopLive = followPayment(this, this.#token);
      },
      () => {
        // Offline for a moment: try again shortly (the countdown keeps running meanwhile).
        if (run !== this.#liveRun) return;
        this.#stopLive = null;
        setTimeout(() => this.qrShown(), 3000);
      },
    );
  }

  /** Applies a payment state from any source (create, stream, poll, simulate); stale sequences are ignored. */
  update(p: CheckoutPayment): void {
    const cur = this.payment.value;
    if (cur && cur.payment_id === p.payment_id && p.sequence < cur.sequence) return;
    this.payment.value = p;
    if (p.payment_status !== this.#lastStatus) {
      this.#lastStatus = p.payment_status;
      this.#hooks.onStatus(p);
    }
    if (p.payment_status === 'finished') {
      this.#stopFollowing();
      this.screen.value = 'success';
      if (!this.#succeeded) {
        this.#succeeded = true;
        this.#hooks.onSuccess(p);
      }
    } else if (p.payment_status === 'expired' || p.payment_status === 'failed') {
      this.#expire(p);
    } else {
      this.screen.value = 'pay';
      this.#tick();
    }
  }

  /** The countdown: an unpaid quote past `expires_at` shows the expiry screen even before the server's sweep. */
  #tick(): void {
    this.now.value = Date.now();
    const p = this.payment.value;
    if (
      p &&
      this.screen.value === 'pay' &&
      p.payment_status === 'waiting' &&
      p.actually_paid === '0' &&
      Date.parse(p.expires_at) <= this.now.value
    ) {
      this.#expire(p);
    }
  }

  #expire(p: CheckoutPayment): void {
    this.#stopFollowing();
    this.screen.value = 'expired';
    if (this.#expiredFor !== p.payment_id) {
      this.#expiredFor = p.payment_id;
      this.#hooks.onExpired(p);
    }
  }

  #fail(e: unknown): void {
    // The API throws CheckoutErrors (plain objects); anything else is a bug of ours, reported as `server`.
    const err: CheckoutError =
      e instanceof Error || typeof e !== 'object' || !e ? { code: 'server', message: String(e) } : (e as CheckoutError);
    this.error.value = err.message;
    // A failed choice keeps the screen the customer was on; a checkout that never loaded shows the error.
    if (this.screen.value === 'loading') this.screen.value = 'error';
    this.#hooks.onError(err);
  }

  #stopFollowing(): void {
    this.#stopLive?.();
    this.#stopLive = null;
  }

  dispose(): void {
    this.#disposed = true;
    this.#stopFollowing();
    if (this.#ticker) clearInterval(this.#ticker);
    this.#ticker = null;
  }
}
