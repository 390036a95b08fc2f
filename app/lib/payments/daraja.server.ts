// A small client for Safaricom's Daraja API (issue 34, decision 0096): OAuth token (cached until
// shortly before it expires), M-Pesa Express (STK push and its query), C2B URL registration and
// the Transaction Status query. It only talks to Daraja; the orders model decides what counts.
// Shapes follow Daraja's documentation; the project's stand-in (scripts/daraja-standin) speaks them.
import { createHmac } from "node:crypto";
import { env } from "../env.server";
import { DEMO_PAYBILL } from "./offline.server";
import { accessTokenCache, callJsonApi } from "./provider-http";

export type DarajaConfig = {
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  passkey: string;
  /** The Paybill (BusinessShortCode, PartyB, C2B ShortCode). */
  shortcode: string;
  /** Transaction Status initiator; null: Paybill confirmations wait for the statement or staff. */
  initiator: { name: string; securityCredential: string } | null;
};

/** M-Pesa online's settings, or null when it is off (the consumer key, secret or passkey unset). */
export function darajaConfig(): DarajaConfig | null {
  const config = env();
  if (!config.MPESA_CONSUMER_KEY || !config.MPESA_CONSUMER_SECRET || !config.MPESA_PASSKEY) {
    return null;
  }
  return {
    baseUrl: config.MPESA_BASE_URL.replace(/\/$/, ""),
    consumerKey: config.MPESA_CONSUMER_KEY,
    consumerSecret: config.MPESA_CONSUMER_SECRET,
    passkey: config.MPESA_PASSKEY,
    shortcode: config.MPESA_PAYBILL ?? DEMO_PAYBILL,
    initiator:
      config.MPESA_INITIATOR_NAME && config.MPESA_SECURITY_CREDENTIAL
        ? {
            name: config.MPESA_INITIATOR_NAME,
            securityCredential: config.MPESA_SECURITY_CREDENTIAL,
          }
        : null,
  };
}

export function mpesaOnline() {
  return darajaConfig() !== null;
}

/**
 * The unguessable path segment of our Daraja hooks: derived from the session secret (an HMAC),
 * so it survives restarts, differs per installation and reveals nothing. Hex has none of the
 * words Daraja refuses in URLs.
 */
export function hookSegment(secret = env().SESSION_SECRET) {
  return createHmac("sha256", secret)
    .update("kongamano:daraja-hooks:v1")
    .digest("hex")
    .slice(0, 32);
}

export const HOOKS = ["stk", "confirmation", "validation", "result", "timeout"] as const;
export type Hook = (typeof HOOKS)[number];

/** Where Daraja calls us back: BASE_URL/api/payments/hooks/<segment>/<hook>. */
export function hookUrl(hook: Hook) {
  return `${env().BASE_URL}/api/payments/hooks/${hookSegment()}/${hook}`;
}

export class DarajaError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Daraja's timestamp: YYYYMMDDHHmmss in Nairobi time (UTC+3, no daylight saving). */
export function darajaTimestamp(now = new Date()) {
  const eat = new Date(now.getTime() + 3 * 3_600_000);
  return eat.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

/** The STK password: base64(shortcode + passkey + timestamp). */
export function stkPassword(shortcode: string, passkey: string, timestamp: string) {
  return Buffer.from(`${shortcode}${passkey}${timestamp}`).toString("base64");
}

/** "Still processing": Daraja's answer to an STK query before the customer has finished. */
export const STILL_PROCESSING_CODE = "500.001.1001";

export type StkPushAnswer = { merchantRequestId: string; checkoutRequestId: string };
export type StkQueryAnswer =
  | { state: "pending" }
  | { state: "final"; resultCode: number; resultDesc: string };

type Fetch = typeof fetch;

export { TOKEN_MARGIN_MS } from "./provider-http";

const tokens = accessTokenCache();

/** Forgets cached tokens (tests). */
export function forgetDarajaTokens() {
  tokens.forget();
}

export function darajaClient(
  config: DarajaConfig,
  options: { fetch?: Fetch; now?: () => number } = {},
) {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const cacheKey = `${config.baseUrl}|${config.consumerKey}`;

  const call = (path: string, init: RequestInit) =>
    callJsonApi<Record<string, unknown>>(
      doFetch,
      `${config.baseUrl}${path}`,
      init,
      (message, status) => new DarajaError(message, status),
      "Daraja",
    );

  async function token(): Promise<string> {
    const cached = tokens.get(cacheKey, now());
    if (cached) return cached;
    const basic = Buffer.from(`${config.consumerKey}:${config.consumerSecret}`).toString("base64");
    const { status, body } = await call("/oauth/v1/generate?grant_type=client_credentials", {
      method: "GET",
      headers: { Authorization: `Basic ${basic}` },
    });
    const accessToken = typeof body.access_token === "string" ? body.access_token : null;
    if (status !== 200 || !accessToken) {
      throw new DarajaError(`Daraja refused the credentials (${status})`, status);
    }
    const seconds = Number(body.expires_in ?? 3599);
    tokens.keep(cacheKey, accessToken, seconds, now());
    return accessToken;
  }

  async function post(path: string, payload: Record<string, unknown>) {
    const bearer = await token();
    const answer = await call(path, {
      method: "POST",
      headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" },
      body: JSON.stringify(payload),
    });
    if (answer.status === 401) tokens.forget(cacheKey); // revoked early: the next call asks again
    return answer;
  }

  function refusal(status: number, body: Record<string, unknown>) {
    const code = typeof body.errorCode === "string" ? body.errorCode : undefined;
    const message =
      (typeof body.errorMessage === "string" && body.errorMessage) ||
      (typeof body.ResponseDescription === "string" && body.ResponseDescription) ||
      `Daraja answered ${status}`;
    return new DarajaError(message, status, code);
  }

  return {
    token,

    /** M-Pesa Express: asks the phone for the PIN. */
    async stkPush(input: {
      phone: string;
      amountKes: number;
      accountReference: string;
      transactionDesc: string;
      callbackUrl: string;
      at?: Date;
    }): Promise<StkPushAnswer> {
      const timestamp = darajaTimestamp(input.at);
      const { status, body } = await post("/mpesa/stkpush/v1/processrequest", {
        BusinessShortCode: config.shortcode,
        Password: stkPassword(config.shortcode, config.passkey, timestamp),
        Timestamp: timestamp,
        TransactionType: "CustomerPayBillOnline",
        Amount: input.amountKes,
        PartyA: input.phone,
        PartyB: config.shortcode,
        PhoneNumber: input.phone,
        CallBackURL: input.callbackUrl,
        AccountReference: input.accountReference.slice(0, 12),
        TransactionDesc: input.transactionDesc.slice(0, 13),
      });
      if (
        status !== 200 ||
        String(body.ResponseCode) !== "0" ||
        typeof body.CheckoutRequestID !== "string"
      ) {
        throw refusal(status, body);
      }
      return {
        merchantRequestId: String(body.MerchantRequestID ?? ""),
        checkoutRequestId: body.CheckoutRequestID,
      };
    },

    /** The outcome of a push: final (ResultCode) or still processing (not an error). */
    async stkQuery(checkoutRequestId: string, at?: Date): Promise<StkQueryAnswer> {
      const timestamp = darajaTimestamp(at);
      const { status, body } = await post("/mpesa/stkpushquery/v1/query", {
        BusinessShortCode: config.shortcode,
        Password: stkPassword(config.shortcode, config.passkey, timestamp),
        Timestamp: timestamp,
        CheckoutRequestID: checkoutRequestId,
      });
      if (body.errorCode === STILL_PROCESSING_CODE) return { state: "pending" };
      if (status === 200 && body.ResultCode !== undefined && body.ResultCode !== null) {
        const resultCode = Number(body.ResultCode);
        if (!Number.isInteger(resultCode)) throw refusal(status, body);
        return { state: "final", resultCode, resultDesc: String(body.ResultDesc ?? "") };
      }
      throw refusal(status, body);
    },

    /** C2B: where Daraja sends Paybill confirmations and validations for our shortcode. */
    async registerUrls(input: { confirmationUrl: string; validationUrl: string }) {
      const { status, body } = await post("/mpesa/c2b/v1/registerurl", {
        ShortCode: config.shortcode,
        ResponseType: "Completed",
        ConfirmationURL: input.confirmationUrl,
        ValidationURL: input.validationUrl,
      });
      if (status !== 200 || !["0", "00000000"].includes(String(body.ResponseCode ?? ""))) {
        throw refusal(status, body);
      }
      return { description: String(body.ResponseDescription ?? "") };
    },

    /** Transaction Status: the answer arrives later at resultUrl. Needs the initiator. */
    async transactionStatus(input: {
      transactionId: string;
      resultUrl: string;
      timeoutUrl: string;
    }) {
      if (!config.initiator) throw new DarajaError("No Transaction Status initiator configured", 0);
      const { status, body } = await post("/mpesa/transactionstatus/v1/query", {
        Initiator: config.initiator.name,
        SecurityCredential: config.initiator.securityCredential,
        CommandID: "TransactionStatusQuery",
        TransactionID: input.transactionId,
        PartyA: config.shortcode,
        IdentifierType: "4",
        ResultURL: input.resultUrl,
        QueueTimeOutURL: input.timeoutUrl,
        Remarks: "Confirm payment",
        Occasion: input.transactionId,
      });
      if (status !== 200 || String(body.ResponseCode ?? "") !== "0") throw refusal(status, body);
      return {
        conversationId: String(body.ConversationID ?? ""),
        originatorConversationId: String(body.OriginatorConversationID ?? ""),
      };
    },
  };
}

export type DarajaClient = ReturnType<typeof darajaClient>;

let override: DarajaClient | null = null;

/** The process's client (tests may swap in one with its own fetch). Null when M-Pesa online is off. */
export function daraja(): DarajaClient | null {
  if (override) return override;
  const config = darajaConfig();
  return config ? darajaClient(config) : null;
}

export function setDarajaClient(client: DarajaClient | null) {
  override = client;
}
