// A PayPal stand-in for the project's own tests and for trying PayPal locally (issue 31, decision
// 0105). Written from PayPal's public REST documentation: the OAuth client-credentials token,
// Orders v2 (create with intent CAPTURE, get, capture; PayPal-Request-Id makes a retry return the
// first answer), an approval page that sends the buyer back to return_url (or cancel_url),
// captures and their refunds (Payments v2), verify-webhook-signature, and the
// PAYMENT.CAPTURE.COMPLETED webhook it sends after a capture. Its signatures are its own (an HMAC
// only it can check), so only its verify endpoint says SUCCESS, as only PayPal's does. A
// development tool: never started by `npm start`; tests start it in-process, people with
// `npx tsx scripts/paypal-standin/cli.ts`.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

type Money = { currency_code: string; value: string };

export type StandinCapture = {
  id: string;
  orderId: string;
  status: "COMPLETED" | "PENDING" | "DECLINED" | "PARTIALLY_REFUNDED" | "REFUNDED";
  amount: Money;
  /** Cents refunded so far. */
  refunded: number;
  invoiceId: string | null;
  customId: string | null;
  createTime: string;
};

export type StandinOrder = {
  id: string;
  status: "PAYER_ACTION_REQUIRED" | "APPROVED" | "COMPLETED" | "VOIDED";
  amount: Money;
  referenceId: string | null;
  invoiceId: string | null;
  customId: string | null;
  description: string | null;
  returnUrl: string;
  cancelUrl: string;
  payerId: string | null;
  capture: StandinCapture | null;
  createTime: string;
};

export type StandinRefund = {
  id: string;
  captureId: string;
  status: "COMPLETED" | "PENDING";
  amount: Money;
  createTime: string;
};

export type WebhookDelivery = { url: string; headers: Record<string, string>; body: string };

export type StandinOptions = {
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  webhookId?: string;
  /** Seconds a token lives (PayPal: about 32,400). */
  tokenSeconds?: number;
  /** Where PAYMENT.CAPTURE.COMPLETED goes after a capture; none: no webhook is sent. */
  webhookUrl?: string;
  /** How long after a capture its webhook goes out (default 0 ms); null: only by hand. */
  webhookDelayMs?: number | null;
  /** How webhooks are delivered (default: HTTP POST). Tests may hand them to a route in-process. */
  deliver?: (delivery: WebhookDelivery) => Promise<void>;
  /** Orders approve themselves on creation (no browser): for scripted tests. */
  autoApprove?: boolean;
  log?: (line: string) => void;
};

const CURRENCIES = new Set(["USD", "EUR", "GBP"]);
const VALUE = /^\d{1,10}(\.\d{2})?$/;

function paypalId(length = 17) {
  const letters = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
  return Array.from(randomBytes(length), (b) => letters[b % letters.length]).join("");
}

function cents(value: string) {
  const [whole, fraction = ""] = value.split(".");
  return Number.parseInt(`${whole}${fraction.padEnd(2, "0")}`, 10);
}

function decimal(minor: number) {
  const digits = String(minor).padStart(3, "0");
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

function escapeHtml(text: string) {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

async function httpDeliver(delivery: WebhookDelivery) {
  await fetch(delivery.url, {
    method: "POST",
    headers: { ...delivery.headers, "Content-Type": "application/json" },
    body: delivery.body,
    signal: AbortSignal.timeout(10_000),
  });
}

export async function startPaypalStandin(options: StandinOptions = {}) {
  const config = {
    clientId: options.clientId ?? "standin-client-id",
    clientSecret: options.clientSecret ?? "standin-client-secret",
    webhookId: options.webhookId ?? "STANDINWEBHOOK1",
    tokenSeconds: options.tokenSeconds ?? 32_400,
  };
  const signingKey = randomBytes(32);
  const log = options.log ?? (() => {});
  const deliver = options.deliver ?? httpDeliver;
  const tokens = new Map<string, number>();
  const orders = new Map<string, StandinOrder>();
  const captures = new Map<string, StandinCapture>();
  const refunds = new Map<string, StandinRefund>();
  /** PayPal-Request-Id → the first answer (status and body) given to it. */
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const pendingWebhooks: Array<() => Promise<void>> = [];
  const counts = {
    tokens: 0,
    orders: 0,
    captures: 0,
    refunds: 0,
    verifications: 0,
    webhooks: 0,
  };
  const timers = new Set<NodeJS.Timeout>();
  let baseUrl = "";

  function later(ms: number, run: () => Promise<void>) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run().catch((error) => log(`delivery failed: ${(error as Error).message}`));
    }, ms);
    timers.add(timer);
  }

  function captureBody(capture: StandinCapture) {
    return {
      id: capture.id,
      status: capture.status,
      amount: capture.amount,
      final_capture: true,
      seller_protection: { status: "ELIGIBLE" },
      ...(capture.invoiceId ? { invoice_id: capture.invoiceId } : {}),
      ...(capture.customId ? { custom_id: capture.customId } : {}),
      supplementary_data: { related_ids: { order_id: capture.orderId } },
      create_time: capture.createTime,
      update_time: new Date().toISOString(),
      links: [
        { href: `${baseUrl}/v2/payments/captures/${capture.id}`, rel: "self", method: "GET" },
        {
          href: `${baseUrl}/v2/payments/captures/${capture.id}/refund`,
          rel: "refund",
          method: "POST",
        },
        { href: `${baseUrl}/v2/checkout/orders/${capture.orderId}`, rel: "up", method: "GET" },
      ],
    };
  }

  function orderBody(order: StandinOrder) {
    return {
      id: order.id,
      intent: "CAPTURE",
      status: order.status,
      payment_source: { paypal: {} },
      purchase_units: [
        {
          reference_id: order.referenceId ?? "default",
          amount: order.amount,
          ...(order.invoiceId ? { invoice_id: order.invoiceId } : {}),
          ...(order.customId ? { custom_id: order.customId } : {}),
          ...(order.description ? { description: order.description } : {}),
          ...(order.capture ? { payments: { captures: [captureBody(order.capture)] } } : {}),
        },
      ],
      ...(order.payerId
        ? { payer: { payer_id: order.payerId, email_address: "buyer@standin.example" } }
        : {}),
      create_time: order.createTime,
      links: [
        { href: `${baseUrl}/v2/checkout/orders/${order.id}`, rel: "self", method: "GET" },
        ...(order.status === "PAYER_ACTION_REQUIRED"
          ? [
              {
                href: `${baseUrl}/checkoutnow?token=${order.id}`,
                rel: "payer-action",
                method: "GET",
              },
            ]
          : []),
        ...(order.status === "APPROVED"
          ? [
              {
                href: `${baseUrl}/v2/checkout/orders/${order.id}/capture`,
                rel: "capture",
                method: "POST",
              },
            ]
          : []),
      ],
    };
  }

  function refundBody(refund: StandinRefund) {
    return {
      id: refund.id,
      status: refund.status,
      amount: refund.amount,
      create_time: refund.createTime,
      links: [
        { href: `${baseUrl}/v2/payments/refunds/${refund.id}`, rel: "self", method: "GET" },
        { href: `${baseUrl}/v2/payments/captures/${refund.captureId}`, rel: "up", method: "GET" },
      ],
    };
  }

  /** The string the stand-in signs: PayPal's own shape (transmission id|time|webhook id|digest). */
  function signed(transmissionId: string, time: string, webhookId: string, body: string) {
    const digest = createHash("sha256").update(body).digest("hex");
    return `${transmissionId}|${time}|${webhookId}|${digest}`;
  }

  function sign(transmissionId: string, time: string, body: string) {
    return createHmac("sha256", signingKey)
      .update(signed(transmissionId, time, config.webhookId, body))
      .digest("base64");
  }

  /** A webhook event as PayPal sends it, with its transmission headers (signed unless forged). */
  function webhookFor(
    capture: StandinCapture,
    input: { eventType?: string; forge?: boolean; amount?: Money } = {},
  ): WebhookDelivery {
    const event = {
      id: `WH-${paypalId(8)}-${paypalId(17)}`,
      event_version: "1.0",
      create_time: new Date().toISOString(),
      resource_type: "capture",
      resource_version: "2.0",
      event_type: input.eventType ?? "PAYMENT.CAPTURE.COMPLETED",
      summary: `Payment completed for ${capture.amount.currency_code} ${capture.amount.value}`,
      resource: { ...captureBody(capture), ...(input.amount ? { amount: input.amount } : {}) },
      links: [],
    };
    const body = JSON.stringify(event);
    const transmissionId = randomBytes(16).toString("hex");
    const time = new Date().toISOString();
    return {
      url: options.webhookUrl ?? "",
      headers: {
        "paypal-auth-algo": "SHA256withRSA",
        "paypal-cert-url": `${baseUrl}/v1/notifications/certs/CERT-standin`,
        "paypal-transmission-id": transmissionId,
        "paypal-transmission-time": time,
        "paypal-transmission-sig": input.forge
          ? randomBytes(32).toString("base64")
          : sign(transmissionId, time, body),
      },
      body,
    };
  }

  async function sendWebhook(delivery: WebhookDelivery) {
    if (!delivery.url) return;
    counts.webhooks += 1;
    await deliver(delivery);
  }

  function scheduleWebhook(capture: StandinCapture) {
    if (!options.webhookUrl) return;
    const post = () => sendWebhook(webhookFor(capture));
    if (options.webhookDelayMs === null) pendingWebhooks.push(post);
    else later(options.webhookDelayMs ?? 0, post);
  }

  /** The buyer approves an order (the approval page's "Pay now"). */
  function approve(orderId: string) {
    const order = orders.get(orderId);
    if (!order) throw new Error(`No order ${orderId}`);
    if (order.status === "PAYER_ACTION_REQUIRED") {
      order.status = "APPROVED";
      order.payerId = paypalId(13);
    }
    return order;
  }

  function send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  }

  function error(
    res: ServerResponse,
    status: number,
    name: string,
    issue: string | null,
    description: string,
  ) {
    send(res, status, {
      name,
      message: description,
      debug_id: randomBytes(6).toString("hex"),
      ...(issue ? { details: [{ issue, description }] } : {}),
    });
  }

  async function readBody(req: IncomingMessage) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  }

  function readJson(text: string): Record<string, unknown> | null {
    try {
      const parsed = text ? JSON.parse(text) : {};
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : null;
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

  function money(value: unknown): Money | null {
    const m = (value ?? {}) as Partial<Money>;
    if (typeof m.currency_code !== "string" || !CURRENCIES.has(m.currency_code)) return null;
    if (typeof m.value !== "string" || !VALUE.test(m.value) || cents(m.value) <= 0) return null;
    return { currency_code: m.currency_code, value: m.value };
  }

  function approvalPage(order: StandinOrder) {
    const amount = `${order.amount.currency_code} ${escapeHtml(order.amount.value)}`;
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>PayPal stand-in: approve payment</title></head>
<body style="font-family: sans-serif; max-width: 30rem; margin: 2rem auto; padding: 0 1rem">
<main><h1>PayPal stand-in</h1><p>Pay ${amount} to Kongamano${order.description ? ` for ${escapeHtml(order.description)}` : ""}.</p>
<form method="post" action="/checkoutnow/approve"><input type="hidden" name="token" value="${order.id}"><button type="submit">Pay now</button></form>
<form method="post" action="/checkoutnow/cancel"><input type="hidden" name="token" value="${order.id}"><button type="submit">Cancel and return to Kongamano</button></form></main></body></html>`;
  }

  function redirect(res: ServerResponse, location: string) {
    res.writeHead(303, { Location: location });
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://standin");
    const path = url.pathname;

    if (req.method === "POST" && path === "/v1/oauth2/token") {
      const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString("base64");
      const form = new URLSearchParams(await readBody(req));
      if (req.headers.authorization !== `Basic ${basic}`) {
        return send(res, 401, {
          error: "invalid_client",
          error_description: "Client Authentication failed",
        });
      }
      if (form.get("grant_type") !== "client_credentials") {
        return send(res, 400, {
          error: "unsupported_grant_type",
          error_description: "Grant Type is NULL",
        });
      }
      counts.tokens += 1;
      const token = `A21AA${randomBytes(24).toString("base64url")}`;
      tokens.set(token, Date.now() + config.tokenSeconds * 1000);
      return send(res, 200, {
        scope: "https://uri.paypal.com/services/payments/payment",
        access_token: token,
        token_type: "Bearer",
        app_id: "APP-STANDIN",
        expires_in: config.tokenSeconds,
        nonce: `${new Date().toISOString()}${randomBytes(8).toString("hex")}`,
      });
    }

    // The buyer's side: the approval page and its two buttons (no API token involved).
    if (path === "/checkoutnow" || path.startsWith("/checkoutnow/")) {
      const token =
        req.method === "POST"
          ? (new URLSearchParams(await readBody(req)).get("token") ?? "")
          : (url.searchParams.get("token") ?? "");
      const order = orders.get(token);
      if (!order) {
        res.writeHead(404, { "Content-Type": "text/plain" });
        return res.end("No such PayPal order");
      }
      if (req.method === "GET" && path === "/checkoutnow") {
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        return res.end(approvalPage(order));
      }
      if (req.method === "POST" && path === "/checkoutnow/approve") {
        approve(order.id);
        log(`PayPal order ${order.id} approved`);
        const back = new URL(order.returnUrl);
        back.searchParams.set("token", order.id);
        back.searchParams.set("PayerID", order.payerId ?? "");
        return redirect(res, back.toString());
      }
      if (req.method === "POST" && path === "/checkoutnow/cancel") {
        const back = new URL(order.cancelUrl);
        back.searchParams.set("token", order.id);
        return redirect(res, back.toString());
      }
    }

    if (!authorised(req)) {
      return send(res, 401, {
        error: "invalid_token",
        error_description: "Token signature verification failed",
      });
    }
    const raw = req.method === "POST" ? await readBody(req) : "";
    const body = readJson(raw);
    if (req.method === "POST" && !body) {
      return error(res, 400, "INVALID_REQUEST", "MALFORMED_REQUEST_JSON", "Malformed JSON.");
    }
    const requestId = String(req.headers["paypal-request-id"] ?? "");
    const remembered = requestId ? idempotent.get(`${path}|${requestId}`) : undefined;
    if (remembered) return send(res, remembered.status, remembered.body);
    const answer = (status: number, payload: unknown) => {
      if (requestId && status < 300)
        idempotent.set(`${path}|${requestId}`, { status, body: payload });
      return send(res, status, payload);
    };

    if (req.method === "POST" && path === "/v2/checkout/orders") {
      const input = body as Record<string, unknown>;
      const units = Array.isArray(input.purchase_units)
        ? (input.purchase_units as Record<string, unknown>[])
        : [];
      const context = ((input.payment_source as Record<string, Record<string, unknown>>)?.paypal
        ?.experience_context ?? {}) as Record<string, unknown>;
      if (input.intent !== "CAPTURE") {
        return error(
          res,
          400,
          "INVALID_REQUEST",
          "INVALID_PARAMETER_VALUE",
          "intent: CAPTURE only here",
        );
      }
      if (units.length !== 1) {
        return error(res, 400, "INVALID_REQUEST", "INVALID_ARRAY_LENGTH", "One purchase unit.");
      }
      const amount = money(units[0].amount);
      if (!amount) {
        return error(res, 422, "UNPROCESSABLE_ENTITY", "DECIMAL_PRECISION", "Invalid amount.");
      }
      const returnUrl = String(context.return_url ?? "");
      const cancelUrl = String(context.cancel_url ?? "");
      if (!/^https?:\/\//.test(returnUrl) || !/^https?:\/\//.test(cancelUrl)) {
        return error(
          res,
          400,
          "INVALID_REQUEST",
          "MISSING_REQUIRED_PARAMETER",
          "return_url and cancel_url are required.",
        );
      }
      const invoiceId = typeof units[0].invoice_id === "string" ? units[0].invoice_id : null;
      if (invoiceId && [...orders.values()].some((o) => o.invoiceId === invoiceId && o.capture)) {
        // PayPal refuses a second payment for an invoice id already paid (DUPLICATE_INVOICE_ID).
        return error(
          res,
          422,
          "UNPROCESSABLE_ENTITY",
          "DUPLICATE_INVOICE_ID",
          "Duplicate Invoice ID detected.",
        );
      }
      counts.orders += 1;
      const order: StandinOrder = {
        id: paypalId(),
        status: "PAYER_ACTION_REQUIRED",
        amount,
        referenceId: typeof units[0].reference_id === "string" ? units[0].reference_id : null,
        invoiceId,
        customId: typeof units[0].custom_id === "string" ? units[0].custom_id : null,
        description: typeof units[0].description === "string" ? units[0].description : null,
        returnUrl,
        cancelUrl,
        payerId: null,
        capture: null,
        createTime: new Date().toISOString(),
      };
      orders.set(order.id, order);
      log(`PayPal order ${order.id}: ${amount.currency_code} ${amount.value}`);
      if (options.autoApprove) approve(order.id);
      const created = orderBody(order);
      if (options.autoApprove) {
        // Still tell the caller where the buyer would approve it.
        created.links.push({
          href: `${baseUrl}/checkoutnow?token=${order.id}`,
          rel: "payer-action",
          method: "GET",
        });
      }
      return answer(201, created);
    }

    const orderMatch = /^\/v2\/checkout\/orders\/([A-Z0-9]+)(\/capture)?$/.exec(path);
    if (orderMatch) {
      const order = orders.get(orderMatch[1]);
      if (!order) {
        return error(
          res,
          404,
          "RESOURCE_NOT_FOUND",
          "INVALID_RESOURCE_ID",
          "Specified resource ID does not exist.",
        );
      }
      if (req.method === "GET" && !orderMatch[2]) return send(res, 200, orderBody(order));
      if (req.method === "POST" && orderMatch[2]) {
        if (order.status === "COMPLETED") {
          return error(
            res,
            422,
            "UNPROCESSABLE_ENTITY",
            "ORDER_ALREADY_CAPTURED",
            "Order already captured.",
          );
        }
        if (order.status !== "APPROVED") {
          return error(
            res,
            422,
            "UNPROCESSABLE_ENTITY",
            "ORDER_NOT_APPROVED",
            "Payer has not yet approved the Order for payment.",
          );
        }
        counts.captures += 1;
        const capture: StandinCapture = {
          id: paypalId(),
          orderId: order.id,
          status: "COMPLETED",
          amount: { ...order.amount },
          refunded: 0,
          invoiceId: order.invoiceId,
          customId: order.customId,
          createTime: new Date().toISOString(),
        };
        order.capture = capture;
        order.status = "COMPLETED";
        captures.set(capture.id, capture);
        log(`PayPal order ${order.id} captured: ${capture.id}`);
        scheduleWebhook(capture);
        return answer(201, orderBody(order));
      }
    }

    const captureMatch = /^\/v2\/payments\/captures\/([A-Z0-9]+)(\/refund)?$/.exec(path);
    if (captureMatch) {
      const capture = captures.get(captureMatch[1]);
      if (!capture) {
        return error(
          res,
          404,
          "RESOURCE_NOT_FOUND",
          "INVALID_RESOURCE_ID",
          "Specified resource ID does not exist.",
        );
      }
      if (req.method === "GET" && !captureMatch[2]) return send(res, 200, captureBody(capture));
      if (req.method === "POST" && captureMatch[2]) {
        const total = cents(capture.amount.value);
        const left = total - capture.refunded;
        if (left <= 0) {
          return error(
            res,
            422,
            "UNPROCESSABLE_ENTITY",
            "CAPTURE_FULLY_REFUNDED",
            "The capture has already been fully refunded.",
          );
        }
        const asked =
          body?.amount === undefined
            ? { ...capture.amount, value: decimal(left) }
            : money(body.amount);
        if (!asked) {
          return error(res, 422, "UNPROCESSABLE_ENTITY", "DECIMAL_PRECISION", "Invalid amount.");
        }
        if (asked.currency_code !== capture.amount.currency_code) {
          return error(
            res,
            422,
            "UNPROCESSABLE_ENTITY",
            "REFUND_CURRENCY_MISMATCH",
            "Refund must be in the currency of the capture.",
          );
        }
        if (cents(asked.value) > left) {
          return error(
            res,
            422,
            "UNPROCESSABLE_ENTITY",
            "REFUND_AMOUNT_EXCEEDED",
            "The refund amount must be less than or equal to the capture amount that has not yet been refunded.",
          );
        }
        counts.refunds += 1;
        capture.refunded += cents(asked.value);
        capture.status = capture.refunded === total ? "REFUNDED" : "PARTIALLY_REFUNDED";
        const refund: StandinRefund = {
          id: paypalId(),
          captureId: capture.id,
          status: "COMPLETED",
          amount: asked,
          createTime: new Date().toISOString(),
        };
        refunds.set(refund.id, refund);
        log(`PayPal capture ${capture.id} refunded ${asked.currency_code} ${asked.value}`);
        return answer(201, refundBody(refund));
      }
    }

    const refundMatch = /^\/v2\/payments\/refunds\/([A-Z0-9]+)$/.exec(path);
    if (refundMatch && req.method === "GET") {
      const refund = refunds.get(refundMatch[1]);
      if (!refund) {
        return error(
          res,
          404,
          "RESOURCE_NOT_FOUND",
          "INVALID_RESOURCE_ID",
          "Specified resource ID does not exist.",
        );
      }
      return send(res, 200, refundBody(refund));
    }

    if (req.method === "POST" && path === "/v1/notifications/verify-webhook-signature") {
      counts.verifications += 1;
      const input = body as Record<string, unknown>;
      const fields = [
        "auth_algo",
        "cert_url",
        "transmission_id",
        "transmission_sig",
        "transmission_time",
        "webhook_id",
      ];
      if (fields.some((f) => typeof input[f] !== "string" || !input[f]) || !input.webhook_event) {
        return error(
          res,
          400,
          "VALIDATION_ERROR",
          "MISSING_REQUIRED_PARAMETER",
          "Invalid request - see details.",
        );
      }
      const expected = Buffer.from(
        createHmac("sha256", signingKey)
          .update(
            signed(
              String(input.transmission_id),
              String(input.transmission_time),
              String(input.webhook_id),
              JSON.stringify(input.webhook_event),
            ),
          )
          .digest("base64"),
      );
      const given = Buffer.from(String(input.transmission_sig));
      const ok =
        input.webhook_id === config.webhookId &&
        given.length === expected.length &&
        timingSafeEqual(given, expected);
      return send(res, 200, { verification_status: ok ? "SUCCESS" : "FAILURE" });
    }

    return error(res, 404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID", "Resource not found.");
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      log(`stand-in error: ${(e as Error).message}`);
      if (!res.headersSent)
        error(res, 500, "INTERNAL_SERVER_ERROR", null, "An internal server error occurred.");
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve),
  );
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${options.host ?? "127.0.0.1"}:${port}`;

  return {
    url: baseUrl,
    config,
    orders,
    captures,
    refunds,
    counts,
    approve,
    /** A webhook for a capture, signed as PayPal would (or forged, or claiming another amount). */
    webhookFor,
    sendWebhook,
    /** Sends the webhooks held back (webhookDelayMs: null). */
    async deliverWebhooks() {
      const due = pendingWebhooks.splice(0);
      for (const post of due) await post();
      return due.length;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type PaypalStandin = Awaited<ReturnType<typeof startPaypalStandin>>;
