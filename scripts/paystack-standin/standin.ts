// A Paystack stand-in for the project's own tests and for trying cards locally (issue 31, decision
// 0102). Written from Paystack's public API documentation: Bearer secret-key auth, POST
// /transaction/initialize, GET /transaction/verify/:reference, POST /refund, GET /refund/:id, the
// hosted checkout page (authorization_url) that redirects back to the callback URL with
// ?trxref=…&reference=…, and the webhook `charge.success` signed with x-paystack-signature
// (HMAC-SHA512 of the raw body with the secret key). A development tool: never started by
// `npm start`; tests start it in-process, people run it with `npx tsx scripts/paystack-standin/cli.ts`.
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Test cards (as on Paystack's test page): this one succeeds, the declined one fails. */
export const SUCCESS_CARD = "4084084084084081";
export const DECLINED_CARD = "4084080000005408";

export type StandinTransaction = {
  id: number;
  reference: string;
  accessCode: string;
  amount: number;
  currency: string;
  email: string;
  callbackUrl: string | null;
  metadata: unknown;
  /** abandoned until the page is used; success or failed after. */
  status: "abandoned" | "success" | "failed";
  paidAt: Date | null;
  createdAt: Date;
  refunded: number;
};

export type StandinRefund = {
  id: number;
  transactionId: number;
  reference: string;
  amount: number;
  currency: string;
  status: "pending" | "processed" | "failed";
  merchantNote: string | null;
  createdAt: Date;
};

/** How the webhook travels after a payment: once, twice (a duplicate), or never (lost). */
export type Delivery = "once" | "twice" | "lost";

export type PaystackStandinOptions = {
  port?: number;
  host?: string;
  secretKey?: string;
  /** Where `charge.success` (and refund events) are posted; null: none are sent. */
  webhookUrl?: string | null;
  delivery?: Delivery;
  /** Refunds answer `processed` at once (default), or `pending` until fetched after this many ms. */
  refundPendingMs?: number;
  /** How webhooks are delivered (default: HTTP POST). */
  deliver?: (url: string, rawBody: string, signature: string) => Promise<void>;
  log?: (line: string) => void;
};

const CURRENCIES = new Set(["NGN", "GHS", "ZAR", "KES", "USD", "XOF", "EGP"]);

async function httpDeliver(url: string, rawBody: string, signature: string) {
  await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-paystack-signature": signature },
    body: rawBody,
  }).catch(() => undefined);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function escapeHtml(text: string) {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

function money(amount: number, currency: string) {
  return `${currency} ${(amount / 100).toFixed(2)}`;
}

export async function startPaystackStandin(options: PaystackStandinOptions = {}) {
  const secretKey = options.secretKey ?? "sk_test_standin";
  const log = options.log ?? (() => undefined);
  const deliver = options.deliver ?? httpDeliver;
  const transactions = new Map<string, StandinTransaction>();
  const byAccessCode = new Map<string, StandinTransaction>();
  const refunds = new Map<number, StandinRefund>();
  let nextId = 4_000_000_000;
  let webhookUrl = options.webhookUrl ?? null;
  let delivery: Delivery = options.delivery ?? "once";
  let url = "";

  function sign(rawBody: string, key = secretKey) {
    return createHmac("sha512", key).update(rawBody).digest("hex");
  }

  function transactionData(t: StandinTransaction) {
    return {
      id: t.id,
      domain: "test",
      status: t.status,
      reference: t.reference,
      amount: t.amount,
      message: null,
      gateway_response:
        t.status === "success"
          ? "Successful"
          : t.status === "failed"
            ? "Declined"
            : "The transaction was not completed",
      paid_at: t.paidAt?.toISOString() ?? null,
      created_at: t.createdAt.toISOString(),
      channel: "card",
      currency: t.currency,
      metadata: t.metadata,
      customer: { email: t.email },
      authorization:
        t.status === "success"
          ? {
              last4: "4081",
              exp_month: "12",
              exp_year: "2030",
              card_type: "visa",
              bank: "TEST BANK",
            }
          : null,
    };
  }

  function refundData(r: StandinRefund) {
    return {
      id: r.id,
      transaction: { id: r.transactionId, reference: r.reference },
      amount: r.amount,
      currency: r.currency,
      status: r.status,
      merchant_note: r.merchantNote,
      refunded_at: r.status === "processed" ? new Date().toISOString() : null,
      created_at: r.createdAt.toISOString(),
    };
  }

  /** Sends a signed webhook (or one signed with another key, for tests). */
  async function sendWebhook(event: string, data: unknown, signWith?: string) {
    if (!webhookUrl) return;
    const raw = JSON.stringify({ event, data });
    const signature = sign(raw, signWith ?? secretKey);
    await deliver(webhookUrl, raw, signature);
  }

  /** The customer pays on the hosted page (tests may call it directly). */
  async function pay(reference: string, card = SUCCESS_CARD) {
    const t = transactions.get(reference);
    if (!t) throw new Error(`no transaction ${reference}`);
    if (t.status === "success") return t;
    if (card === DECLINED_CARD) {
      t.status = "failed";
      log(`declined ${reference}`);
      return t;
    }
    t.status = "success";
    t.paidAt = new Date();
    log(`paid ${reference} ${money(t.amount, t.currency)}`);
    if (delivery !== "lost") {
      const times = delivery === "twice" ? 2 : 1;
      for (let i = 0; i < times; i++) await sendWebhook("charge.success", transactionData(t));
    }
    return t;
  }

  function checkoutPage(t: StandinTransaction, error = "") {
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Paystack Checkout (stand-in)</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}label,input,button{display:block;width:100%;box-sizing:border-box;margin-top:.5rem;font-size:1rem}input{padding:.5rem}button{padding:.6rem;margin-top:1rem;cursor:pointer}</style></head>
<body><main><h1>Pay ${escapeHtml(money(t.amount, t.currency))}</h1><p>${escapeHtml(t.email)} · stand-in for Paystack's checkout page</p>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/checkout/${t.accessCode}"><label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" value="${SUCCESS_CARD}"><button type="submit">Pay ${escapeHtml(money(t.amount, t.currency))}</button></form>
<form method="post" action="/checkout/${t.accessCode}/cancel"><button type="submit">Cancel payment</button></form></main></body></html>`;
  }

  function back(res: ServerResponse, t: StandinTransaction) {
    if (!t.callbackUrl) {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><p>Done.</p>");
      return;
    }
    const target = new URL(t.callbackUrl);
    target.searchParams.set("trxref", t.reference);
    target.searchParams.set("reference", t.reference);
    res.writeHead(302, { location: target.toString() });
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", "http://standin").pathname;
    // The hosted page (no key: it is the customer's browser).
    const page = /^\/checkout\/([a-z0-9]+)(\/cancel)?$/.exec(path);
    if (page) {
      const t = byAccessCode.get(page[1]);
      if (!t) return send(res, 404, { status: false, message: "Not found" });
      if (req.method === "GET") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(checkoutPage(t));
      }
      if (page[2]) return back(res, t); // cancelled: verify keeps saying "abandoned"
      const form = new URLSearchParams(await readBody(req));
      const card = (form.get("card") ?? "").replace(/\s+/g, "");
      if (!/^\d{12,19}$/.test(card)) {
        res.writeHead(400, { "content-type": "text/html; charset=utf-8" });
        return res.end(checkoutPage(t, "Enter a card number."));
      }
      await pay(t.reference, card);
      return back(res, t);
    }
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(res, 401, { status: false, message: "Invalid key" });
    }
    if (req.method === "POST" && path === "/transaction/initialize") {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return send(res, 400, { status: false, message: "Invalid JSON" });
      }
      const amount = Number(body.amount);
      const currency = String(body.currency ?? "NGN");
      const email = String(body.email ?? "");
      if (!Number.isInteger(amount) || amount <= 0) {
        return send(res, 400, { status: false, message: "Invalid Amount Sent" });
      }
      if (!CURRENCIES.has(currency)) {
        return send(res, 400, { status: false, message: "Currency not supported by merchant" });
      }
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) {
        return send(res, 400, { status: false, message: "Invalid Email Address Passed" });
      }
      const reference = String(body.reference ?? randomBytes(6).toString("hex"));
      if (!/^[A-Za-z0-9.=-]{1,100}$/.test(reference)) {
        return send(res, 400, { status: false, message: "Invalid transaction reference" });
      }
      if (transactions.has(reference)) {
        return send(res, 400, { status: false, message: "Duplicate Transaction Reference" });
      }
      const t: StandinTransaction = {
        id: nextId++,
        reference,
        accessCode: randomBytes(8).toString("hex"),
        amount,
        currency,
        email,
        callbackUrl: typeof body.callback_url === "string" ? body.callback_url : null,
        metadata: body.metadata ?? null,
        status: "abandoned",
        paidAt: null,
        createdAt: new Date(),
        refunded: 0,
      };
      transactions.set(reference, t);
      byAccessCode.set(t.accessCode, t);
      log(`initialized ${reference} ${money(amount, currency)}`);
      return send(res, 200, {
        status: true,
        message: "Authorization URL created",
        data: {
          authorization_url: `${url}/checkout/${t.accessCode}`,
          access_code: t.accessCode,
          reference,
        },
      });
    }
    const verify = /^\/transaction\/verify\/(.+)$/.exec(path);
    if (req.method === "GET" && verify) {
      const t = transactions.get(decodeURIComponent(verify[1]));
      if (!t) return send(res, 400, { status: false, message: "Transaction reference not found" });
      return send(res, 200, {
        status: true,
        message: "Verification successful",
        data: transactionData(t),
      });
    }
    if (req.method === "POST" && path === "/refund") {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return send(res, 400, { status: false, message: "Invalid JSON" });
      }
      const key = String(body.transaction ?? "");
      const t =
        transactions.get(key) ?? [...transactions.values()].find((x) => String(x.id) === key);
      if (!t) return send(res, 404, { status: false, message: "Transaction not found" });
      if (t.status !== "success") {
        return send(res, 400, {
          status: false,
          message: "Cannot refund a transaction that was not successful",
        });
      }
      const amount = body.amount === undefined ? t.amount - t.refunded : Number(body.amount);
      if (!Number.isInteger(amount) || amount <= 0) {
        return send(res, 400, { status: false, message: "Invalid refund amount" });
      }
      if (body.currency !== undefined && body.currency !== t.currency) {
        return send(res, 400, { status: false, message: "Currency does not match transaction" });
      }
      if (amount > t.amount - t.refunded) {
        return send(res, 400, {
          status: false,
          message: "Refund amount cannot be more than the unrefunded transaction amount",
        });
      }
      t.refunded += amount;
      const refund: StandinRefund = {
        id: nextId++,
        transactionId: t.id,
        reference: t.reference,
        amount,
        currency: t.currency,
        status: options.refundPendingMs ? "pending" : "processed",
        merchantNote: typeof body.merchant_note === "string" ? body.merchant_note : null,
        createdAt: new Date(),
      };
      refunds.set(refund.id, refund);
      log(`refund ${refund.id} of ${t.reference} ${money(amount, t.currency)} ${refund.status}`);
      return send(res, 200, {
        status: true,
        message: "Refund has been queued for processing",
        data: refundData(refund),
      });
    }
    const fetchRefund = /^\/refund\/(\d+)$/.exec(path);
    if (req.method === "GET" && fetchRefund) {
      const refund = refunds.get(Number(fetchRefund[1]));
      if (!refund) return send(res, 404, { status: false, message: "Refund not found" });
      if (
        refund.status === "pending" &&
        Date.now() - refund.createdAt.getTime() >= (options.refundPendingMs ?? 0)
      ) {
        refund.status = "processed";
      }
      return send(res, 200, {
        status: true,
        message: "Refund retrieved",
        data: refundData(refund),
      });
    }
    return send(res, 404, { status: false, message: "Not found" });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      log(`error ${(error as Error).message}`);
      if (!res.headersSent) send(res, 500, { status: false, message: "Stand-in error" });
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve),
  );
  const address = server.address() as AddressInfo;
  url = `http://${options.host ?? "127.0.0.1"}:${address.port}`;

  return {
    url,
    secretKey,
    transactions,
    refunds,
    pay,
    sendWebhook,
    sign,
    transactionData,
    setWebhookUrl(next: string | null) {
      webhookUrl = next;
    },
    setDelivery(next: Delivery) {
      delivery = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type PaystackStandin = Awaited<ReturnType<typeof startPaystackStandin>>;
