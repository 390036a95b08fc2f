// A small client for Paystack's API (issue 31, decision 0101): initialize a transaction, verify it,
// check a webhook's signature, and refunds (create, fetch). It only talks to Paystack; the orders
// model decides what counts (app/models/orders/paystack.server.ts). Shapes follow Paystack's
// public documentation; the project's stand-in (scripts/paystack-standin) speaks them.
import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "../env.server";
import {
  type ProviderRefundRequest,
  type ProviderRefundResult,
  ProviderUnavailableError,
  type RefundingProvider,
} from "./provider";
import { REQUEST_TIMEOUT_MS } from "./provider-http";

export type PaystackConfig = { baseUrl: string; secretKey: string };

/** Cards through Paystack, or null when off (no PAYSTACK_SECRET_KEY). */
export function paystackConfig(): PaystackConfig | null {
  const config = env();
  if (!config.PAYSTACK_SECRET_KEY) return null;
  return {
    baseUrl: config.PAYSTACK_BASE_URL.replace(/\/$/, ""),
    secretKey: config.PAYSTACK_SECRET_KEY,
  };
}

/**
 * Where Paystack's checkout page lives for an API base: checkout.paystack.com for Paystack's API,
 * the base itself for a stand-in. "Pay by card" posts to our action, which redirects there, so the
 * Content-Security-Policy's form-action must allow it (buyers without JavaScript).
 */
export function paystackCheckoutOrigin(baseUrl: string) {
  const { hostname, origin } = new URL(baseUrl);
  return /(^|\.)paystack\.co$/.test(hostname) ? "https://checkout.paystack.com" : origin;
}

/** Paystack refused the request (it answered, 4xx or `status: false`). */
export class PaystackError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * Whether `signature` (the `x-paystack-signature` header) is the HMAC-SHA512 of the raw body
 * under the secret key, compared in constant time. Anything else (absent, not hex, another
 * length) is false.
 */
export function validPaystackSignature(rawBody: string, signature: string | null, secret: string) {
  if (!signature || !/^[0-9a-f]{128}$/i.test(signature)) return false;
  const expected = createHmac("sha512", secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(signature, "hex"));
}

/** What a verify call says about a transaction. */
export type PaystackTransaction = {
  id: number | null;
  reference: string;
  /** success, failed, abandoned, ongoing, pending, processing, queued, reversed. */
  status: string;
  amountMinor: number;
  currency: string;
  paidAt: Date | null;
  email: string | null;
  gatewayResponse: string | null;
};

type Fetch = typeof fetch;

function refundResult(data: Record<string, unknown>): ProviderRefundResult {
  const id = data.id === undefined || data.id === null ? null : String(data.id);
  const status = String(data.status ?? "");
  if (status === "processed" && id) {
    return {
      status: "completed",
      providerRefundId: id,
      amountMinor: Number(data.amount),
      currency: String(data.currency ?? ""),
    };
  }
  if ((status === "pending" || status === "processing" || status === "queued") && id) {
    return { status: "pending", providerRefundId: id };
  }
  return {
    status: "failed",
    providerRefundId: id,
    reason: `Paystack says the refund is ${status || "unknown"}.`,
  };
}

export function paystackClient(config: PaystackConfig, options: { fetch?: Fetch } = {}) {
  const doFetch = options.fetch ?? fetch;

  async function call(path: string, init: RequestInit = {}) {
    let response: Response;
    try {
      response = await doFetch(`${config.baseUrl}${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${config.secretKey}`,
          "content-type": "application/json",
          accept: "application/json",
        },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new ProviderUnavailableError(
        `Paystack could not be reached (${(error as Error).message})`,
      );
    }
    if (response.status >= 500) {
      throw new ProviderUnavailableError(`Paystack answered ${response.status}`);
    }
    const body = (await response.json().catch(() => null)) as {
      status?: boolean;
      message?: string;
      data?: Record<string, unknown>;
    } | null;
    if (!response.ok || !body || body.status !== true || !body.data) {
      throw new PaystackError(
        String(body?.message ?? `Paystack answered ${response.status}`).slice(0, 300),
        response.status,
      );
    }
    return body.data;
  }

  return {
    /** POST /transaction/initialize: the hosted page for one attempt (amount in subunits). */
    async initialize(input: {
      email: string;
      amountMinor: number;
      currency: string;
      reference: string;
      callbackUrl: string;
      metadata?: Record<string, string>;
    }) {
      const data = await call("/transaction/initialize", {
        method: "POST",
        body: JSON.stringify({
          email: input.email,
          amount: String(input.amountMinor),
          currency: input.currency,
          reference: input.reference,
          callback_url: input.callbackUrl,
          channels: ["card"],
          ...(input.metadata ? { metadata: JSON.stringify(input.metadata) } : {}),
        }),
      });
      const url = data.authorization_url;
      if (typeof url !== "string" || !/^https?:\/\//.test(url)) {
        throw new PaystackError("Paystack gave no checkout page.", 502);
      }
      return { authorizationUrl: url, accessCode: String(data.access_code ?? "") };
    },

    /** GET /transaction/verify/:reference — the only word on whether money arrived. */
    async verify(reference: string): Promise<PaystackTransaction> {
      const data = await call(`/transaction/verify/${encodeURIComponent(reference)}`);
      const paidAt = typeof data.paid_at === "string" ? new Date(data.paid_at) : null;
      const customer = data.customer as { email?: unknown } | undefined;
      return {
        id: typeof data.id === "number" ? data.id : null,
        reference: String(data.reference ?? ""),
        status: String(data.status ?? ""),
        amountMinor: Number(data.amount),
        currency: String(data.currency ?? ""),
        paidAt: paidAt && !Number.isNaN(paidAt.getTime()) ? paidAt : null,
        email: typeof customer?.email === "string" ? customer.email : null,
        gatewayResponse: typeof data.gateway_response === "string" ? data.gateway_response : null,
      };
    },

    /** POST /refund: part (amount in subunits) or the rest of a transaction. */
    async refund(request: ProviderRefundRequest): Promise<ProviderRefundResult> {
      try {
        const data = await call("/refund", {
          method: "POST",
          body: JSON.stringify({
            transaction: request.paymentReference,
            amount: request.amountMinor,
            currency: request.currency,
            merchant_note:
              `Kongamano refund ${request.requestId}${request.note ? `: ${request.note}` : ""}`.slice(
                0,
                300,
              ),
          }),
        });
        return refundResult(data);
      } catch (error) {
        if (error instanceof PaystackError) {
          return { status: "failed", providerRefundId: null, reason: error.message };
        }
        throw error;
      }
    },

    /** GET /refund/:id. */
    async queryRefund(providerRefundId: string): Promise<ProviderRefundResult> {
      return refundResult(await call(`/refund/${encodeURIComponent(providerRefundId)}`));
    },
  };
}

export type PaystackClient = ReturnType<typeof paystackClient>;

/** The configured client, or null when cards are off. */
export function paystack(options: { fetch?: Fetch } = {}): PaystackClient | null {
  const config = paystackConfig();
  return config ? paystackClient(config, options) : null;
}

/** Paystack as a refunding provider (the contract in provider.ts). */
export function paystackRefunder(): RefundingProvider | null {
  const client = paystack();
  if (!client) return null;
  return { id: "paystack", refund: client.refund, queryRefund: client.queryRefund };
}
