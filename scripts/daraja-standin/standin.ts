// A Daraja stand-in for the project's own tests and for trying M-Pesa locally (issue 34, decision
// 0097). Written from Daraja's documentation: OAuth token, M-Pesa Express (STK push, its query and
// the callback), C2B URL registration, simulated Paybill payments (validation, confirmation) and
// the Transaction Status query with its asynchronous result. A development tool: never started by
// `npm start`; tests start it in-process, people run it with `npx tsx scripts/daraja-standin/cli.ts`.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type StkOutcome = "success" | "cancel" | "timeout" | "insufficient";
/** How the callback travels: once, twice (a duplicate), or never (lost). */
export type Delivery = "once" | "twice" | "lost";

const RESULTS: Record<StkOutcome, { code: number; desc: string }> = {
  success: { code: 0, desc: "The service request is processed successfully." },
  cancel: { code: 1032, desc: "Request cancelled by user" },
  timeout: { code: 1037, desc: "DS timeout user cannot be reached" },
  insufficient: { code: 1, desc: "The balance is insufficient for the transaction" },
};

export type StandinPush = {
  merchantRequestId: string;
  checkoutRequestId: string;
  amount: number;
  phone: string;
  accountReference: string;
  transactionDesc: string;
  callbackUrl: string;
  state: "pending" | StkOutcome;
  receipt: string | null;
  createdAt: Date;
};

export type StandinTransaction = {
  transId: string;
  amount: number;
  msisdn: string;
  billRefNumber: string;
  time: Date;
  kind: "stk" | "c2b";
};

export type StandinOptions = {
  port?: number;
  host?: string;
  consumerKey?: string;
  consumerSecret?: string;
  passkey?: string;
  shortcode?: string;
  initiatorName?: string;
  securityCredential?: string;
  /** Seconds a token lives (Daraja: 3599). */
  tokenSeconds?: number;
  /**
   * When set, a push completes by itself after this many ms, its outcome chosen by the phone's
   * last four digits: …1032 cancel, …1037 timeout, …0001 insufficient, …0404 success with the
   * callback lost, …0202 success delivered twice, anything else success.
   */
  autoCompleteMs?: number;
  /** Transaction Status results are posted after this many ms (default 50); null: only by hand. */
  resultDelayMs?: number | null;
  /** How callbacks are delivered (default: HTTP POST). Tests may hand them to a route in-process. */
  deliver?: (url: string, body: unknown) => Promise<void>;
  log?: (line: string) => void;
};

const FORBIDDEN = /m-?pesa|safaricom|exec|cmd|sql|query/i;

function eatTimestamp(date: Date) {
  return new Date(date.getTime() + 3 * 3_600_000).toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

function receiptCode() {
  const letters = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
  const bytes = randomBytes(9);
  return `T${Array.from(bytes, (b) => letters[b % letters.length]).join("")}`.slice(0, 10);
}

async function httpDeliver(url: string, body: unknown) {
  await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
}

export async function startDarajaStandin(options: StandinOptions = {}) {
  const config = {
    consumerKey: options.consumerKey ?? "standin-key",
    consumerSecret: options.consumerSecret ?? "standin-secret",
    passkey: options.passkey ?? "standin-passkey",
    shortcode: options.shortcode ?? "174379",
    initiatorName: options.initiatorName ?? "standin-initiator",
    securityCredential: options.securityCredential ?? "standin-credential",
    tokenSeconds: options.tokenSeconds ?? 3599,
  };
  const log = options.log ?? (() => {});
  const deliver = options.deliver ?? httpDeliver;
  const tokens = new Map<string, number>();
  const pushes = new Map<string, StandinPush>();
  const transactions = new Map<string, StandinTransaction>();
  const registered: { confirmationUrl?: string; validationUrl?: string } = {};
  const pendingResults: Array<() => Promise<void>> = [];
  const counts = { tokens: 0, pushes: 0, queries: 0, statusQueries: 0, callbacks: 0 };
  const timers = new Set<NodeJS.Timeout>();

  function later(ms: number, run: () => Promise<void>) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run().catch((error) => log(`delivery failed: ${(error as Error).message}`));
    }, ms);
    timers.add(timer);
  }

  function stkCallbackBody(push: StandinPush) {
    const outcome = push.state === "pending" ? "success" : push.state;
    const result = RESULTS[outcome];
    return {
      Body: {
        stkCallback: {
          MerchantRequestID: push.merchantRequestId,
          CheckoutRequestID: push.checkoutRequestId,
          ResultCode: result.code,
          ResultDesc: result.desc,
          ...(outcome === "success"
            ? {
                CallbackMetadata: {
                  Item: [
                    { Name: "Amount", Value: push.amount },
                    { Name: "MpesaReceiptNumber", Value: push.receipt },
                    { Name: "Balance" },
                    { Name: "TransactionDate", Value: Number(eatTimestamp(new Date())) },
                    { Name: "PhoneNumber", Value: Number(push.phone) },
                  ],
                },
              }
            : {}),
        },
      },
    };
  }

  /** Ends a push as the customer's phone would; the callback goes out as asked. */
  async function complete(
    checkoutRequestId: string,
    outcome: StkOutcome,
    delivery: Delivery = "once",
  ) {
    const push = pushes.get(checkoutRequestId);
    if (!push) throw new Error(`No push ${checkoutRequestId}`);
    if (push.state === "pending") {
      push.state = outcome;
      if (outcome === "success") {
        push.receipt = receiptCode();
        transactions.set(push.receipt, {
          transId: push.receipt,
          amount: push.amount,
          msisdn: push.phone,
          billRefNumber: push.accountReference,
          time: new Date(),
          kind: "stk",
        });
      }
    }
    const times = delivery === "lost" ? 0 : delivery === "twice" ? 2 : 1;
    const body = stkCallbackBody(push);
    for (let i = 0; i < times; i++) {
      counts.callbacks += 1;
      await deliver(push.callbackUrl, body);
    }
    return push;
  }

  function autoOutcome(phone: string): [StkOutcome, Delivery] {
    if (phone.endsWith("1032")) return ["cancel", "once"];
    if (phone.endsWith("1037")) return ["timeout", "once"];
    if (phone.endsWith("0001")) return ["insufficient", "once"];
    if (phone.endsWith("0404")) return ["success", "lost"];
    if (phone.endsWith("0202")) return ["success", "twice"];
    return ["success", "once"];
  }

  /** A customer pays the Paybill from the menu: validation, then confirmation (as registered). */
  async function payBill(
    input: { amount: number; msisdn: string; billRefNumber: string },
    delivery: Delivery = "once",
  ) {
    const transId = receiptCode();
    const time = new Date();
    transactions.set(transId, { transId, ...input, time, kind: "c2b" });
    const body = {
      TransactionType: "Pay Bill",
      TransID: transId,
      TransTime: eatTimestamp(time),
      TransAmount: input.amount.toFixed(2),
      BusinessShortCode: config.shortcode,
      BillRefNumber: input.billRefNumber,
      InvoiceNumber: "",
      OrgAccountBalance: "",
      ThirdPartyTransID: "",
      MSISDN: input.msisdn,
      FirstName: "John",
      MiddleName: "",
      LastName: "",
    };
    if (registered.validationUrl) await deliver(registered.validationUrl, body);
    if (registered.confirmationUrl) {
      const times = delivery === "lost" ? 0 : delivery === "twice" ? 2 : 1;
      for (let i = 0; i < times; i++) await deliver(registered.confirmationUrl, body);
    }
    return { transId, body };
  }

  function statusResult(transactionId: string, conversationId: string, originatorId: string) {
    const found = transactions.get(transactionId);
    if (!found) {
      return {
        Result: {
          ResultType: 0,
          ResultCode: 2001,
          ResultDesc: "The transaction receipt number does not exist.",
          OriginatorConversationID: originatorId,
          ConversationID: conversationId,
          TransactionID: transactionId,
        },
      };
    }
    const finalised = Number(eatTimestamp(found.time));
    return {
      Result: {
        ResultType: 0,
        ResultCode: 0,
        ResultDesc: "The service request is processed successfully.",
        OriginatorConversationID: originatorId,
        ConversationID: conversationId,
        TransactionID: transactionId,
        ResultParameters: {
          ResultParameter: [
            {
              Key: "DebitPartyName",
              Value: `${found.msisdn.slice(0, 4)}****${found.msisdn.slice(-3)} - John`,
            },
            { Key: "CreditPartyName", Value: `${config.shortcode} - Kongamano` },
            { Key: "OriginatorConversationID", Value: originatorId },
            { Key: "InitiatedTime", Value: finalised },
            { Key: "DebitAccountType", Value: "MMF Account For Customer" },
            { Key: "DebitPartyCharges" },
            { Key: "TransactionReason" },
            { Key: "ReasonType", Value: found.kind === "stk" ? "Pay Bill Online" : "Pay Bill" },
            { Key: "TransactionStatus", Value: "Completed" },
            { Key: "FinalisedTime", Value: finalised },
            { Key: "Amount", Value: found.amount },
            { Key: "ConversationID", Value: conversationId },
            { Key: "ReceiptNo", Value: found.transId },
          ],
        },
        ReferenceData: { ReferenceItem: { Key: "Occasion", Value: transactionId } },
      },
    };
  }

  function send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  }

  function error(res: ServerResponse, status: number, code: string, message: string) {
    send(res, status, {
      requestId: randomBytes(6).toString("hex"),
      errorCode: code,
      errorMessage: message,
    });
  }

  async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      return parsed && typeof parsed === "object" ? parsed : null;
    } catch {
      return null;
    }
  }

  function authorised(req: IncomingMessage) {
    const header = req.headers.authorization ?? "";
    const token = header.startsWith("Bearer ") ? header.slice(7) : "";
    const expires = tokens.get(token);
    return expires !== undefined && expires > Date.now();
  }

  function passwordOk(body: Record<string, unknown>) {
    const timestamp = String(body.Timestamp ?? "");
    const expected = Buffer.from(`${config.shortcode}${config.passkey}${timestamp}`).toString(
      "base64",
    );
    return (
      /^\d{14}$/.test(timestamp) &&
      body.Password === expected &&
      String(body.BusinessShortCode) === config.shortcode
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://standin");
    if (req.method === "GET" && url.pathname === "/oauth/v1/generate") {
      const basic = Buffer.from(`${config.consumerKey}:${config.consumerSecret}`).toString(
        "base64",
      );
      if (
        req.headers.authorization !== `Basic ${basic}` ||
        url.searchParams.get("grant_type") !== "client_credentials"
      ) {
        return error(res, 400, "400.008.01", "Invalid Authentication passed");
      }
      counts.tokens += 1;
      const token = randomBytes(18).toString("base64url");
      tokens.set(token, Date.now() + config.tokenSeconds * 1000);
      return send(res, 200, { access_token: token, expires_in: String(config.tokenSeconds) });
    }
    if (req.method === "POST" && url.pathname === "/__paybill") {
      // The stand-in's own control (no Daraja endpoint): a customer pays from the Paybill menu.
      const input = await readJson(req);
      const amount = Number(input?.amount);
      if (!input || !Number.isInteger(amount) || amount < 1) {
        return error(res, 400, "400.002.02", "amount (whole shillings) is required");
      }
      const paid = await payBill({
        amount,
        msisdn: String(input.msisdn ?? "254708374149"),
        billRefNumber: String(input.billRefNumber ?? ""),
      });
      return send(res, 200, { TransID: paid.transId });
    }
    if (req.method !== "POST") return error(res, 404, "404.001.03", "Invalid Access Token");
    if (!authorised(req)) return error(res, 401, "404.001.03", "Invalid Access Token");
    const body = await readJson(req);
    if (!body) return error(res, 400, "400.002.02", "Bad Request - Invalid JSON");

    if (url.pathname === "/mpesa/stkpush/v1/processrequest") {
      if (!passwordOk(body)) return error(res, 400, "400.002.02", "Bad Request - Invalid Password");
      const amount = Number(body.Amount);
      const phone = String(body.PhoneNumber ?? "");
      const callbackUrl = String(body.CallBackURL ?? "");
      const accountReference = String(body.AccountReference ?? "");
      const transactionDesc = String(body.TransactionDesc ?? "");
      if (!Number.isInteger(amount) || amount < 1)
        return error(res, 400, "400.002.02", "Bad Request - Invalid Amount");
      if (!/^254[17]\d{8}$/.test(phone) || String(body.PartyA) !== phone) {
        return error(res, 400, "400.002.02", "Bad Request - Invalid PhoneNumber");
      }
      if (!/^https?:\/\//.test(callbackUrl) || FORBIDDEN.test(callbackUrl)) {
        return error(res, 400, "400.002.02", "Bad Request - Invalid CallBackURL");
      }
      if (!accountReference || accountReference.length > 12) {
        return error(res, 400, "400.002.02", "Bad Request - Invalid AccountReference");
      }
      if (transactionDesc.length > 13)
        return error(res, 400, "400.002.02", "Bad Request - Invalid TransactionDesc");
      counts.pushes += 1;
      const push: StandinPush = {
        merchantRequestId: `${randomBytes(4).toString("hex")}-${Date.now()}`,
        checkoutRequestId: `ws_CO_${eatTimestamp(new Date())}${randomBytes(6).toString("hex")}`,
        amount,
        phone,
        accountReference,
        transactionDesc,
        callbackUrl,
        state: "pending",
        receipt: null,
        createdAt: new Date(),
      };
      pushes.set(push.checkoutRequestId, push);
      log(
        `STK push ${push.checkoutRequestId}: KES ${amount} from ${phone} for ${accountReference}`,
      );
      if (options.autoCompleteMs !== undefined) {
        const [outcome, delivery] = autoOutcome(phone);
        later(options.autoCompleteMs, async () => {
          await complete(push.checkoutRequestId, outcome, delivery);
        });
      }
      return send(res, 200, {
        MerchantRequestID: push.merchantRequestId,
        CheckoutRequestID: push.checkoutRequestId,
        ResponseCode: "0",
        ResponseDescription: "Success. Request accepted for processing",
        CustomerMessage: "Success. Request accepted for processing",
      });
    }

    if (url.pathname === "/mpesa/stkpushquery/v1/query") {
      counts.queries += 1;
      if (!passwordOk(body)) return error(res, 400, "400.002.02", "Bad Request - Invalid Password");
      const push = pushes.get(String(body.CheckoutRequestID ?? ""));
      if (!push) return error(res, 500, "500.001.1001", "Unable to find the CheckoutRequestID");
      if (push.state === "pending")
        return error(res, 500, "500.001.1001", "The transaction is being processed");
      const result = RESULTS[push.state];
      return send(res, 200, {
        ResponseCode: "0",
        ResponseDescription: "The service request has been accepted successsfully",
        MerchantRequestID: push.merchantRequestId,
        CheckoutRequestID: push.checkoutRequestId,
        ResultCode: String(result.code),
        ResultDesc: result.desc,
      });
    }

    if (
      url.pathname === "/mpesa/c2b/v1/registerurl" ||
      url.pathname === "/mpesa/c2b/v2/registerurl"
    ) {
      const confirmationUrl = String(body.ConfirmationURL ?? "");
      const validationUrl = String(body.ValidationURL ?? "");
      if (String(body.ShortCode) !== config.shortcode)
        return error(res, 400, "400.003.02", "Bad Request - Invalid ShortCode");
      if (FORBIDDEN.test(confirmationUrl) || FORBIDDEN.test(validationUrl)) {
        return error(res, 400, "400.003.02", "Bad Request - Invalid URL");
      }
      registered.confirmationUrl = confirmationUrl;
      registered.validationUrl = validationUrl;
      return send(res, 200, {
        OriginatorCoversationID: randomBytes(6).toString("hex"),
        ResponseCode: "0",
        ResponseDescription: "Success",
      });
    }

    if (url.pathname === "/mpesa/c2b/v1/simulate") {
      const amount = Number(body.Amount);
      if (!Number.isInteger(amount) || amount < 1)
        return error(res, 400, "400.002.02", "Bad Request - Invalid Amount");
      const { transId } = await payBill({
        amount,
        msisdn: String(body.Msisdn ?? "254708374149"),
        billRefNumber: String(body.BillRefNumber ?? ""),
      });
      return send(res, 200, {
        OriginatorCoversationID: transId,
        ResponseCode: "0",
        ResponseDescription: "Accept the service request successfully.",
      });
    }

    if (url.pathname === "/mpesa/transactionstatus/v1/query") {
      counts.statusQueries += 1;
      if (
        body.Initiator !== config.initiatorName ||
        body.SecurityCredential !== config.securityCredential
      ) {
        return error(res, 400, "400.002.02", "Bad Request - Invalid Initiator");
      }
      const resultUrl = String(body.ResultURL ?? "");
      if (FORBIDDEN.test(resultUrl) || FORBIDDEN.test(String(body.QueueTimeOutURL ?? ""))) {
        return error(res, 400, "400.002.02", "Bad Request - Invalid ResultURL");
      }
      const conversationId = `AG_${eatTimestamp(new Date())}_${randomBytes(8).toString("hex")}`;
      const originatorId = randomBytes(8).toString("hex");
      const transactionId = String(body.TransactionID ?? "");
      const post = () =>
        deliver(resultUrl, statusResult(transactionId, conversationId, originatorId));
      if (options.resultDelayMs === null) pendingResults.push(post);
      else later(options.resultDelayMs ?? 50, post);
      return send(res, 200, {
        OriginatorConversationID: originatorId,
        ConversationID: conversationId,
        ResponseCode: "0",
        ResponseDescription: "Accept the service request successfully.",
      });
    }
    return error(res, 404, "404.001.01", "Resource not found");
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      log(`stand-in error: ${(e as Error).message}`);
      if (!res.headersSent) error(res, 500, "500.003.1001", "Internal Server Error");
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve),
  );
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    config,
    pushes,
    transactions,
    registered,
    counts,
    complete,
    payBill,
    /** Posts the Transaction Status results held back (resultDelayMs: null). */
    async deliverResults() {
      const due = pendingResults.splice(0);
      for (const post of due) await post();
      return due.length;
    },
    /** Builds a callback body for a push as Daraja would send it (for forging in tests). */
    stkCallbackBody,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type DarajaStandin = Awaited<ReturnType<typeof startDarajaStandin>>;
