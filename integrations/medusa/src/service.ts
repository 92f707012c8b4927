import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  Logger,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from '@medusajs/framework/types';
import { AbstractPaymentProvider, MathBN, MedusaError, PaymentSessionStatus } from '@medusajs/framework/utils';
import { ServiceApiError, type ServiceClient, serviceClient } from './client';
import { type CryptoPaymentOptions, type ResolvedOptions, resolveOptions } from './options';
import { ReplayGuard } from './replay-guard';
import { sessionStatusOf, webhookActionOf } from './status';
import { verifyWebhook, WebhookVerificationError } from './verify.generated';

type Data = Record<string, unknown>;

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Medusa's amounts are exact decimals (BigNumber); the text keeps every digit, never a float in between. */
export function decimalText(amount: unknown): string {
  return MathBN.convert(amount as Parameters<typeof MathBN.convert>[0]).toFixed();
}

function paymentIdOf(data: Data | undefined): string {
  const id = str(data?.payment_id);
  if (!id) throw new MedusaError(MedusaError.Types.INVALID_DATA, 'This payment session has no crypto payment id');
  return id;
}

/**
 * Medusa v2 payment provider for the crypto payments service. A session is a hosted-checkout payment on the
 * service (POST /payment-links) priced in the cart's currency; the order follows the service's signed
 * `payment.updated` webhooks received on /hooks/payment/crypto_<id>. Only `finished` is ever reported as paid.
 */
export class CryptoPaymentProviderService extends AbstractPaymentProvider<CryptoPaymentOptions> {
  static override identifier = 'crypto';

  protected readonly options_: ResolvedOptions;
  protected readonly client_: ServiceClient;
  protected readonly logger_: Logger | undefined;
  protected readonly replays_: ReplayGuard;

  /** Called by Medusa when it loads the provider: a wrong option stops start-up with a message naming it. */
  static override validateOptions(options: Record<string, unknown>): void {
    resolveOptions(options);
  }

  constructor(container: { logger?: Logger }, options: CryptoPaymentOptions) {
    super(container, options);
    this.options_ = resolveOptions(options);
    this.client_ = serviceClient(this.options_.apiBase, this.options_.secretKey);
    this.logger_ = container.logger;
    this.replays_ = new ReplayGuard(this.options_.toleranceSeconds);
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    return this.createLink(input, input.context?.idempotency_key ?? str(input.data?.session_id));
  }

  /** One payment per session and price: the Idempotency-Key makes a retried request return the same payment. */
  private async createLink(
    input: InitiatePaymentInput,
    idempotencyKey: string | undefined,
  ): Promise<InitiatePaymentOutput> {
    const data = (input.data ?? {}) as Data;
    const amount = decimalText(input.amount);
    const priceCurrency = String(input.currency_code ?? '').toUpperCase();
    const email = str(data.email) ?? input.context?.customer?.email;
    if (!email) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        'A crypto payment needs the customer e-mail: set the cart e-mail or pass data.email with the payment session',
      );
    }
    const sessionId = str(data.session_id);
    const body: Data = {
      price_currency: priceCurrency,
      currency: str(data.pay_currency) ?? this.options_.payCurrency,
      email,
      // The webhook finds the Medusa session by this reference: it is the only link between the two.
      ...(sessionId ? { order_id: sessionId, order_description: `Medusa payment session ${sessionId}` } : {}),
      ...(this.options_.successUrl ? { success_url: this.options_.successUrl } : {}),
      ...(this.options_.cancelUrl ? { cancel_url: this.options_.cancelUrl } : {}),
    };
    // `amount` is a JSON number in the API: written from the exact decimal text so no float rounds it on the way.
    const json = `{"amount":${amount},${JSON.stringify(body).slice(1)}`;
    let created: Data;
    try {
      created = await this.client_.call('POST', '/payment-links', json, idempotencyKey);
    } catch (e) {
      throw this.checkoutError(e, priceCurrency);
    }
    const payment = (created.payment ?? {}) as Data;
    const pricing = (created.pricing ?? {}) as Data;
    return {
      id: String(payment.payment_id),
      status: PaymentSessionStatus.PENDING,
      data: {
        session_id: sessionId,
        email,
        payment_id: payment.payment_id,
        hosted_payment_url: payment.hosted_payment_url,
        price_amount: amount,
        price_currency: priceCurrency,
        pay_currency: pricing.pay_currency,
        payment_status: payment.payment_status,
      },
    };
  }

  /** A 422 on `price_currency` (or `amount`) becomes the API's own words; no amount is ever converted here. */
  private checkoutError(e: unknown, priceCurrency: string): Error {
    if (!(e instanceof ServiceApiError)) return e as Error;
    const fields = Object.entries(e.fieldErrors)
      .map(([k, v]) => `${k}: ${v.join(', ')}`)
      .join('; ');
    if (e.fieldErrors.price_currency) {
      return new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `Crypto payments cannot be priced in ${priceCurrency}: the service does not quote it (${fields}). ` +
          'Use a region currency the service lists; amounts are never converted by the provider.',
      );
    }
    if (e.status === 422) return new MedusaError(MedusaError.Types.INVALID_DATA, `Crypto payment refused: ${fields}`);
    if (e.status === 401) return new MedusaError(MedusaError.Types.UNAUTHORIZED, 'Crypto payment service: bad API key');
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Crypto payment service: ${e.message}`);
  }

  private async readPayment(data: Data | undefined): Promise<Data> {
    return this.client_.call('GET', `/payments/${encodeURIComponent(paymentIdOf(data))}`);
  }

  /**
   * Called when the cart completes, by the storefront or by our webhook. A server-side read with the sk_ key (never
   * the customer's redirect) says whether the money arrived; `finished` is paid and captured in one step.
   */
  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const read = await this.readPayment(input.data);
    const status = String(read.payment_status);
    const mapped = sessionStatusOf(status);
    return {
      status: mapped === 'authorized' ? PaymentSessionStatus.CAPTURED : (mapped as PaymentSessionStatus),
      data: { ...input.data, payment_status: status },
    };
  }

  /** The money is on chain once `finished`: there is nothing left to capture at the service. */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    return { data: input.data ?? {} };
  }

  /** An unpaid payment expires by itself on the service (its payment window); there is no call to make. */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    return { data: input.data ?? {} };
  }

  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return { data: input.data ?? {} };
  }

  /** Reconciliation only: the order itself follows the webhooks. */
  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const read = await this.readPayment(input.data);
    return {
      status: sessionStatusOf(String(read.payment_status)) as PaymentSessionStatus,
      data: { ...input.data, payment_status: read.payment_status },
    };
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    return { data: { ...input.data, ...(await this.readPayment(input.data)) } };
  }

  /** A payment's price cannot change on the service: a new amount or currency makes a new payment. */
  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const data = (input.data ?? {}) as Data;
    const same =
      str(data.payment_id) &&
      str(data.price_amount) === decimalText(input.amount) &&
      str(data.price_currency) === String(input.currency_code).toUpperCase();
    if (same) return { data, status: PaymentSessionStatus.PENDING };
    const key = `${str(data.session_id) ?? 'session'}:${decimalText(input.amount)}:${input.currency_code}`;
    const fresh = await this.createLink(input, key);
    return { data: fresh.data ?? {}, ...(fresh.status ? { status: fresh.status } : {}) };
  }

  /**
   * A refund of the whole captured price is a refund on the service (POST /payments/{id}/refunds) of all the
   * payment received; the customer's address is then asked for in the service's dashboard. Refunds are made in the
   * paid asset's base units, so a partial refund (a share of a price in fiat) is made from the service's dashboard.
   */
  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const data = (input.data ?? {}) as Data;
    const paymentId = paymentIdOf(data);
    const price = str(data.price_amount);
    const amount = decimalText(input.amount);
    if (!price || MathBN.convert(amount).comparedTo(MathBN.convert(price)) !== 0) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Only a full refund (${price ?? '?'} ${str(data.price_currency) ?? ''}) is made from Medusa: crypto refunds are in the paid asset, so make a partial refund from the service's dashboard`,
      );
    }
    const read = await this.readPayment(data);
    if (read.status_detail === 'overpaid') {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "This payment was overpaid: refund it from the service's dashboard, where the exact amount in the paid asset is chosen",
      );
    }
    let refund: Data;
    try {
      refund = await this.client_.call(
        'POST',
        `/payments/${encodeURIComponent(paymentId)}/refunds`,
        JSON.stringify({ reason: `Medusa refund of ${amount} ${str(data.price_currency) ?? ''}`.trim() }),
      );
    } catch (e) {
      if (e instanceof ServiceApiError)
        throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Crypto refund refused by the service: ${e.message}`);
      throw e;
    }
    const refunds = Array.isArray(data.refunds) ? data.refunds : [];
    return { data: { ...data, refunds: [...refunds, refund.refund_id ?? refund.id] } };
  }

  /**
   * Medusa's /hooks/payment/crypto_<id> hands every POST here. Only a delivery signed with the webhook secret,
   * inside the timestamp tolerance, not seen before and newer than the last applied for its payment, counts.
   * Everything else is `not_supported`, which Medusa ignores (and the attempt is logged without its body).
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload['payload']): Promise<WebhookActionResult> {
    const headers = payload.headers as Record<string, string | string[] | undefined>;
    const raw = payload.rawData;
    let event: ReturnType<typeof verifyWebhook>;
    try {
      event = verifyWebhook(typeof raw === 'string' ? raw : new Uint8Array(raw), headers, this.options_.webhookSecret, {
        toleranceSeconds: this.options_.toleranceSeconds,
      });
    } catch (e) {
      const code = e instanceof WebhookVerificationError ? e.code : 'unreadable';
      this.logger_?.warn(`crypto payment webhook refused: ${code}`);
      return { action: 'not_supported' };
    }
    const p = event.payment;
    const delivery = String(headers['x-service-delivery'] ?? event.id);
    const verdict = this.replays_.admit(delivery, p.payment_id, p.sequence, Date.now());
    if (verdict !== 'new' || event.test) {
      this.logger_?.info(`crypto payment webhook ignored: ${event.test ? 'test event' : verdict} ${delivery}`);
      return { action: 'not_supported' };
    }
    const sessionId = p.order_id ?? '';
    const action = webhookActionOf(p.payment_status);
    this.logger_?.info(`crypto payment ${p.payment_id} is ${p.payment_status}: ${action}`);
    if (!sessionId.startsWith('payses_')) return { action: 'not_supported' };
    // The amount Medusa records is the price the service charged, in the cart's currency, digit for digit.
    return { action, data: { session_id: sessionId, amount: MathBN.convert(String(p.price_amount)) } };
  }
}
