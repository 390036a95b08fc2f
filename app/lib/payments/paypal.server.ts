// A small client for PayPal's REST API (issue 31, decision 0103): OAuth client-credentials token
// (cached until shortly before it expires), Orders v2 (create with intent CAPTURE, get, capture),
// captures and their refunds (Payments v2), and webhook signature verification through PayPal's
// own endpoint. It only talks to PayPal; the orders model decides what counts. Amounts go out as
// PayPal's decimal strings made from integer minor units and come back parsed to minor units: no
// float ever holds money. Shapes follow PayPal's REST documentation; scripts/paypal-standin speaks them.
import { env } from "../env.server";
import { type Currency, minorToDecimal, parseMinorUnits } from "../money";
import { PROVIDER_CURRENCIES } from "./methods";
import {
  type ProviderRefundResult,
  ProviderUnavailableError,
  type RefundingProvider,
} from "./provider";
import { accessTokenCache, callJsonApi } from "./provider-http";

export type PaypalConfig = {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  webhookId: string;
};

/** PayPal's settings, or null when PayPal is off (client id, secret or webhook id unset). */
export function paypalConfig(): PaypalConfig | null {
  const config = env();
  if (!config.PAYPAL_CLIENT_ID || !config.PAYPAL_CLIENT_SECRET || !config.PAYPAL_WEBHOOK_ID) {
    return null;
  }
  return {
    baseUrl: config.PAYPAL_BASE_URL.replace(/\/$/, ""),
    clientId: config.PAYPAL_CLIENT_ID,
    clientSecret: config.PAYPAL_CLIENT_SECRET,
    webhookId: config.PAYPAL_WEBHOOK_ID,
  };
}

export function paypalOnline() {
  return paypalConfig() !== null;
}

/**
 * Where PayPal's approval page lives for an API base: www.sandbox.paypal.com for the sandbox API,
 * www.paypal.com for the live one, the base itself for a stand-in. The order page's form
 * redirects there, so the Content-Security-Policy's form-action must allow it (no-JS buyers).
 */
export function paypalApprovalOrigin(baseUrl: string) {
  const { hostname, origin } = new URL(baseUrl);
  if (/(^|\.)sandbox\.paypal\.com$/.test(hostname)) return "https://www.sandbox.paypal.com";
  if (/(^|\.)paypal\.com$/.test(hostname)) return "https://www.paypal.com";
  return origin;
}

/** Whether PayPal takes a currency (USD, EUR, GBP: not KES). */
export function paypalTakes(currency: string): currency is Currency {
  return (PROVIDER_CURRENCIES.paypal as readonly string[]).includes(currency);
}

export type PaypalMoney = { currency_code: string; value: string };

/** Minor units → PayPal's amount object: 4950 USD → { currency_code: 'USD', value: '49.50' }. */
export function paypalAmount(minor: number, currency: string): PaypalMoney {
  if (!paypalTakes(currency)) throw new PaypalError(`PayPal does not take ${currency}`, 0);
  if (!Number.isSafeInteger(minor) || minor <= 0) {
    throw new PaypalError(`Not an amount PayPal can take: ${minor}`, 0);
  }
  return { currency_code: currency, value: minorToDecimal(minor, currency) };
}

/** PayPal's amount object → minor units in its currency, or null when it is not one we know. */
export function parsePaypalAmount(amount: unknown): { minor: number; currency: Currency } | null {
  const { currency_code: code, value } = (amount ?? {}) as Partial<PaypalMoney>;
  if (typeof code !== "string" || typeof value !== "string" || !paypalTakes(code)) return null;
  const minor = parseMinorUnits(value, code);
  return minor === null ? null : { minor, currency: code };
}

export class PaypalError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** PayPal's first `details[].issue` (ORDER_ALREADY_CAPTURED, ORDER_NOT_APPROVED…). */
    readonly issue?: string,
  ) {
    super(message);
  }
}

export type PaypalCapture = {
  id: string;
  /** COMPLETED, PENDING, DECLINED, FAILED, REFUNDED, PARTIALLY_REFUNDED. */
  status: string;
  amount: { minor: number; currency: Currency } | null;
  /** The PayPal order it belongs to (supplementary_data.related_ids.order_id), when given. */
  orderId: string | null;
  invoiceId: string | null;
  customId: string | null;
  createTime: Date | null;
};

export type PaypalOrder = {
  id: string;
  /** CREATED, PAYER_ACTION_REQUIRED, APPROVED, COMPLETED, VOIDED. */
  status: string;
  captures: PaypalCapture[];
  /** Where the buyer approves it (the `payer-action` or `approve` link). */
  approveUrl: string | null;
};

export type PaypalRefund = {
  id: string;
  /** COMPLETED, PENDING, FAILED, CANCELLED. */
  status: string;
  amount: { minor: number; currency: Currency } | null;
};

type Json = Record<string, unknown>;

function text(value: unknown) {
  return typeof value === "string" && value ? value : null;
}

function date(value: unknown) {
  const parsed = typeof value === "string" ? new Date(value) : null;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : null;
}

/** A capture as PayPal describes it (capture response, GET capture, webhook resource). */
export function parseCapture(body: unknown, orderId: string | null = null): PaypalCapture | null {
  const capture = (body ?? {}) as Json;
  const id = text(capture.id);
  const status = text(capture.status);
  if (!id || !status) return null;
  const related = ((capture.supplementary_data as Json)?.related_ids ?? {}) as Json;
  return {
    id,
    status,
    amount: parsePaypalAmount(capture.amount),
    orderId: text(related.order_id) ?? orderId,
    invoiceId: text(capture.invoice_id),
    customId: text(capture.custom_id),
    createTime: date(capture.create_time),
  };
}

/** An Orders v2 order as PayPal describes it (create, get and capture responses). */
export function parseOrder(body: unknown): PaypalOrder | null {
  const order = (body ?? {}) as Json;
  const id = text(order.id);
  const status = text(order.status);
  if (!id || !status) return null;
  const units = Array.isArray(order.purchase_units) ? (order.purchase_units as Json[]) : [];
  const captures = units.flatMap((unit) => {
    const list = ((unit?.payments as Json)?.captures ?? []) as unknown[];
    return Array.isArray(list)
      ? list.map((c) => parseCapture(c, id)).filter((c): c is PaypalCapture => c !== null)
      : [];
  });
  const links = Array.isArray(order.links) ? (order.links as Json[]) : [];
  const approve = links.find((l) => l?.rel === "payer-action" || l?.rel === "approve");
  return { id, status, captures, approveUrl: text(approve?.href) };
}

function parseRefund(body: unknown): PaypalRefund | null {
  const refund = (body ?? {}) as Json;
  const id = text(refund.id);
  const status = text(refund.status);
  if (!id || !status) return null;
  return { id, status, amount: parsePaypalAmount(refund.amount) };
}

/** The headers PayPal signs a webhook delivery with (lower-case, as Node gives them). */
export const WEBHOOK_HEADERS = {
  authAlgo: "paypal-auth-algo",
  certUrl: "paypal-cert-url",
  transmissionId: "paypal-transmission-id",
  transmissionSig: "paypal-transmission-sig",
  transmissionTime: "paypal-transmission-time",
} as const;

type Fetch = typeof fetch;

export { TOKEN_MARGIN_MS } from "./provider-http";

const tokens = accessTokenCache();

/** Forgets cached tokens (tests). */
export function forgetPaypalTokens() {
  tokens.forget();
}

export function paypalClient(
  config: PaypalConfig,
  options: { fetch?: Fetch; now?: () => number } = {},
) {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const cacheKey = `${config.baseUrl}|${config.clientId}`;

  const call = (path: string, init: RequestInit) =>
    callJsonApi<Json>(
      doFetch,
      `${config.baseUrl}${path}`,
      init,
      (message, status) => new PaypalError(message, status),
      "PayPal",
    );

  async function token(): Promise<string> {
    const cached = tokens.get(cacheKey, now());
    if (cached) return cached;
    const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString("base64");
    const { status, body } = await call("/v1/oauth2/token", {
      method: "POST",
      headers: {
        Authorization: `Basic ${basic}`,
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      },
      body: "grant_type=client_credentials",
    });
    const accessToken = text(body.access_token);
    if (status !== 200 || !accessToken) {
      throw new PaypalError(`PayPal refused the credentials (${status})`, status);
    }
    const seconds = Number(body.expires_in ?? 32_400);
    tokens.keep(cacheKey, accessToken, seconds, now());
    return accessToken;
  }

  async function api(
    method: "GET" | "POST",
    path: string,
    payload?: unknown,
    extra: Record<string, string> = {},
  ) {
    const bearer = await token();
    const answer = await call(path, {
      method,
      headers: {
        Authorization: `Bearer ${bearer}`,
        Accept: "application/json",
        ...(payload === undefined ? {} : { "Content-Type": "application/json" }),
        ...extra,
      },
      ...(payload === undefined
        ? {}
        : { body: typeof payload === "string" ? payload : JSON.stringify(payload) }),
    });
    if (answer.status === 401) tokens.forget(cacheKey); // revoked early: the next call asks again
    return answer;
  }

  function refusal(status: number, body: Json) {
    const details = Array.isArray(body.details) ? (body.details as Json[]) : [];
    const issue = text(details[0]?.issue) ?? text(body.name) ?? undefined;
    const message =
      text(details[0]?.description) ?? text(body.message) ?? `PayPal answered ${status}`;
    return new PaypalError(message, status, issue);
  }

  function orderOf(status: number, body: Json) {
    const order = parseOrder(body);
    if (!order) throw refusal(status, body);
    return order;
  }

  return {
    token,

    /**
     * Creates an order for one amount (intent CAPTURE). `requestId` (PayPal-Request-Id) makes a
     * retried request return the first order instead of a second one.
     */
    async createOrder(input: {
      amountMinor: number;
      currency: string;
      invoiceId: string;
      customId: string;
      description: string;
      returnUrl: string;
      cancelUrl: string;
      requestId: string;
    }): Promise<PaypalOrder> {
      const { status, body } = await api(
        "POST",
        "/v2/checkout/orders",
        {
          intent: "CAPTURE",
          purchase_units: [
            {
              reference_id: input.customId,
              invoice_id: input.invoiceId,
              custom_id: input.customId,
              description: input.description.slice(0, 127),
              amount: paypalAmount(input.amountMinor, input.currency),
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                brand_name: "Kongamano",
                shipping_preference: "NO_SHIPPING",
                // The buyer confirms on our page (no money moves on a GET): PayPal says "Continue".
                user_action: "CONTINUE",
                return_url: input.returnUrl,
                cancel_url: input.cancelUrl,
              },
            },
          },
        },
        { "PayPal-Request-Id": input.requestId, Prefer: "return=representation" },
      );
      if (status !== 200 && status !== 201) throw refusal(status, body);
      const order = orderOf(status, body);
      if (!order.approveUrl) throw new PaypalError("PayPal gave no approval link", status);
      return order;
    },

    async getOrder(orderId: string): Promise<PaypalOrder> {
      const { status, body } = await api(
        "GET",
        `/v2/checkout/orders/${encodeURIComponent(orderId)}`,
      );
      if (status !== 200) throw refusal(status, body);
      return orderOf(status, body);
    },

    /**
     * Captures an approved order. PayPal refuses a second capture (422 ORDER_ALREADY_CAPTURED)
     * and an order the buyer has not approved (422 ORDER_NOT_APPROVED): both are PaypalErrors
     * with that issue, for the caller to read the order instead.
     */
    async captureOrder(orderId: string, requestId: string): Promise<PaypalOrder> {
      const { status, body } = await api(
        "POST",
        `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`,
        {},
        { "PayPal-Request-Id": requestId, Prefer: "return=representation" },
      );
      if (status !== 200 && status !== 201) throw refusal(status, body);
      return orderOf(status, body);
    },

    async getCapture(captureId: string): Promise<PaypalCapture> {
      const { status, body } = await api(
        "GET",
        `/v2/payments/captures/${encodeURIComponent(captureId)}`,
      );
      const capture = status === 200 ? parseCapture(body) : null;
      if (!capture) throw refusal(status, body);
      return capture;
    },

    /** Refunds part or all of a capture; `requestId` makes a retry return the first refund. */
    async refundCapture(
      captureId: string,
      input: {
        amountMinor: number;
        currency: string;
        requestId: string;
        invoiceId?: string;
        note?: string;
      },
    ): Promise<PaypalRefund> {
      const { status, body } = await api(
        "POST",
        `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`,
        {
          amount: paypalAmount(input.amountMinor, input.currency),
          ...(input.invoiceId ? { invoice_id: input.invoiceId } : {}),
          ...(input.note ? { note_to_payer: input.note.slice(0, 255) } : {}),
        },
        { "PayPal-Request-Id": input.requestId, Prefer: "return=representation" },
      );
      const refund = status === 200 || status === 201 ? parseRefund(body) : null;
      if (!refund) throw refusal(status, body);
      return refund;
    },

    async getRefund(refundId: string): Promise<PaypalRefund> {
      const { status, body } = await api(
        "GET",
        `/v2/payments/refunds/${encodeURIComponent(refundId)}`,
      );
      const refund = status === 200 ? parseRefund(body) : null;
      if (!refund) throw refusal(status, body);
      return refund;
    },

    /**
     * Asks PayPal whether a webhook delivery is genuine (verify-webhook-signature with our webhook
     * id). The event goes back exactly as it arrived (the raw body spliced in, not re-serialised:
     * PayPal checks the bytes it signed). False for anything but SUCCESS, or without the headers.
     */
    async verifyWebhook(headers: Headers, rawBody: string): Promise<boolean> {
      const field = (name: string) => headers.get(name)?.trim() ?? "";
      const parts = {
        auth_algo: field(WEBHOOK_HEADERS.authAlgo),
        cert_url: field(WEBHOOK_HEADERS.certUrl),
        transmission_id: field(WEBHOOK_HEADERS.transmissionId),
        transmission_sig: field(WEBHOOK_HEADERS.transmissionSig),
        transmission_time: field(WEBHOOK_HEADERS.transmissionTime),
        webhook_id: config.webhookId,
      };
      if (Object.values(parts).some((v) => !v || v.length > 2048)) return false;
      try {
        const event = JSON.parse(rawBody);
        if (!event || typeof event !== "object" || Array.isArray(event)) return false;
      } catch {
        return false;
      }
      const payload = `${JSON.stringify(parts).slice(0, -1)},"webhook_event":${rawBody}}`;
      const { status, body } = await api(
        "POST",
        "/v1/notifications/verify-webhook-signature",
        payload,
      );
      // A request PayPal finds malformed is no proof; its own or our trouble is an error (retried).
      if (status >= 400 && status < 500 && status !== 401 && status !== 429) return false;
      if (status !== 200) throw refusal(status, body);
      return body.verification_status === "SUCCESS";
    },
  };
}

export type PaypalClient = ReturnType<typeof paypalClient>;

let override: PaypalClient | null = null;

/** The process's client (tests may swap in one with its own fetch). Null when PayPal is off. */
export function paypal(): PaypalClient | null {
  if (override) return override;
  const config = paypalConfig();
  return config ? paypalClient(config) : null;
}

export function setPaypalClient(client: PaypalClient | null) {
  override = client;
}

/** PayPal's refund status in the seam's words (decision 0100): only COMPLETED is money returned. */
function refundResult(refund: PaypalRefund, asked?: { amountMinor: number; currency: string }) {
  if (refund.status === "COMPLETED") {
    const amount =
      refund.amount ?? (asked ? { minor: asked.amountMinor, currency: asked.currency } : null);
    if (!amount) return { status: "pending", providerRefundId: refund.id } as const;
    return {
      status: "completed",
      providerRefundId: refund.id,
      amountMinor: amount.minor,
      currency: amount.currency,
    } as const;
  }
  if (refund.status === "PENDING")
    return { status: "pending", providerRefundId: refund.id } as const;
  return {
    status: "failed",
    providerRefundId: refund.id,
    reason: `PayPal ${refund.status === "CANCELLED" ? "cancelled" : "could not make"} the refund`,
  } as const;
}

/** A PayPal answer we cannot read as yes or no (network, 5xx, our token refused): ask again later. */
function unknownOutcome(error: PaypalError) {
  return error.status === 0 || error.status >= 500 || error.status === 401 || error.status === 429;
}

/**
 * Refunds through PayPal's capture refund API (the seam's RefundingProvider, decision 0100): the
 * payment's reference is its capture id; our provider_refunds row id is the PayPal-Request-Id, so
 * a retried call returns the first refund instead of making a second one.
 */
export function paypalRefunder(client: PaypalClient | null = paypal()): RefundingProvider | null {
  if (!client) return null;
  return {
    id: "paypal",
    async refund(request): Promise<ProviderRefundResult> {
      try {
        const refund = await client.refundCapture(request.paymentReference, {
          amountMinor: request.amountMinor,
          currency: request.currency,
          requestId: request.requestId,
          note: request.note,
        });
        return refundResult(refund, request);
      } catch (error) {
        if (!(error instanceof PaypalError)) throw error;
        if (unknownOutcome(error)) throw new ProviderUnavailableError(error.message);
        return {
          status: "failed",
          providerRefundId: null,
          reason: `PayPal refused the refund: ${error.message}`,
        };
      }
    },
    async queryRefund(providerRefundId): Promise<ProviderRefundResult> {
      try {
        return refundResult(await client.getRefund(providerRefundId));
      } catch (error) {
        if (!(error instanceof PaypalError)) throw error;
        if (unknownOutcome(error) || error.status === 404)
          throw new ProviderUnavailableError(error.message);
        return { status: "failed", providerRefundId, reason: `PayPal: ${error.message}` };
      }
    },
  };
}
