// PayPal end to end against the PayPal stand-in (issue 31): the client (token cached until it
// expires, amounts as decimal strings from minor units), an order paid by approve → return →
// capture, webhooks believed only when PayPal verifies them and PayPal's own order agrees, the
// buyer's return and the webhook racing (one payment), refunds through PayPal (half, then the
// rest), and a return after the order closed (nothing captured).
import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, orders, payments, paypalCheckouts, refunds, user } from "~/db/schema";
import { setEnv } from "~/lib/env.server";
import { parseMinorUnits } from "~/lib/money";
import {
  forgetPaypalTokens,
  PaypalError,
  parsePaypalAmount,
  paypalAmount,
  paypalApprovalOrigin,
  paypalClient,
  paypalConfig,
  TOKEN_MARGIN_MS,
} from "~/lib/payments/paypal.server";
import { runDueJobs } from "~/models/jobs.server";
import { wireProcess } from "~/models/wiring.server";
import { action as webhookAction } from "~/routes/api/paypal-webhook";
import {
  type PaypalStandin,
  startPaypalStandin,
  type WebhookDelivery,
} from "../../../scripts/paypal-standin/standin";
import { useTestDatabase } from "../../../tests/helpers/db";
import { testEnv } from "../../../tests/helpers/env";
import { startTestSmtp } from "../../../tests/helpers/smtp";
import { createOrder, expireOrder, type NewOrder } from "./orders.server";
import {
  acceptPaypalWebhook,
  PAYPAL_FORGED_ACTION,
  returnFromPaypal,
  startPaypalCheckout,
} from "./paypal.server";
import { refundThroughProvider } from "./provider-refunds.server";

wireProcess();

const HOUR = 3_600_000;

/** Hands a webhook delivery to the route in-process, as the server would. */
async function deliverToRoute(delivery: WebhookDelivery) {
  const request = new Request("http://localhost:3000/api/payments/hooks/paypal/webhook", {
    method: "POST",
    headers: {
      ...delivery.headers,
      "content-type": "application/json",
      "x-kongamano-client-ip": "173.0.80.1",
    },
    body: delivery.body,
  });
  return (await webhookAction({ request, params: {}, context: {} } as never)) as {
    data: unknown;
    init: ResponseInit | null;
  };
}

describe("PayPal", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let standin: PaypalStandin;
  let buyer: { id: string; name: string; email: string };
  let admin: { id: string; role: "admin" };
  const settings = () =>
    testEnv({
      SMTP_URL: smtp.url,
      PAYPAL_BASE_URL: standin.url,
      PAYPAL_CLIENT_ID: standin.config.clientId,
      PAYPAL_CLIENT_SECRET: standin.config.clientSecret,
      PAYPAL_WEBHOOK_ID: standin.config.webhookId,
    });

  const order = (overrides: Partial<NewOrder> = {}): NewOrder => ({
    buyer,
    currency: "USD",
    holdMs: 72 * HOUR,
    lines: [
      {
        kind: "membership_term",
        referenceId: randomUUID(),
        description: "Individual membership",
        quantity: 1,
        unitAmountMinor: 99_00,
      },
    ],
    ...overrides,
  });

  const paymentsOf = (orderId: string) =>
    database.db.select().from(payments).where(eq(payments.orderId, orderId));
  const orderRow = async (id: string) =>
    (await database.db.select().from(orders).where(eq(orders.id, id)))[0];
  const checkoutOf = async (paypalOrderId: string) =>
    (
      await database.db
        .select()
        .from(paypalCheckouts)
        .where(eq(paypalCheckouts.paypalOrderId, paypalOrderId))
    )[0];
  const forgedEntries = async () =>
    (
      await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(auditLog)
        .where(eq(auditLog.action, PAYPAL_FORGED_ACTION))
    )[0].n;

  /** An order, its PayPal attempt, and the buyer approving it on PayPal. */
  async function approvedCheckout(overrides: Partial<NewOrder> = {}) {
    const { order: o } = await createOrder(order(overrides));
    const started = await startPaypalCheckout({
      orderId: o.id,
      actor: { id: buyer.id, role: "user" },
    });
    standin.approve(started.paypalOrderId);
    return { orderId: o.id, ...started };
  }

  async function drainJobs() {
    while ((await runDueJobs({ limit: 50 })) > 0) {}
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    standin = await startPaypalStandin({
      webhookUrl: "http://localhost:3000/api/payments/hooks/paypal/webhook",
      webhookDelayMs: null,
      deliver: async (delivery) => {
        await deliverToRoute(delivery);
      },
    });
    setEnv(settings());
    forgetPaypalTokens();
    const id = randomUUID();
    buyer = { id, name: "Ada Buyer", email: `buyer.${id.slice(0, 8)}@example.test` };
    const adminId = randomUUID();
    await database.db.insert(user).values([
      { ...buyer, role: "user" },
      {
        id: adminId,
        name: "Refund Admin",
        email: `admin.${adminId.slice(0, 8)}@example.test`,
        role: "admin",
      },
    ]);
    admin = { id: adminId, role: "admin" };
  });
  afterAll(async () => {
    await standin.close();
    await smtp.close();
  });

  describe("client", () => {
    it("turns minor units into PayPal's decimal strings and back, exactly, for USD, EUR and GBP only", () => {
      expect(paypalAmount(99_00, "USD")).toEqual({ currency_code: "USD", value: "99.00" });
      expect(paypalAmount(5, "EUR")).toEqual({ currency_code: "EUR", value: "0.05" });
      expect(paypalAmount(1_234_567_89, "GBP")).toEqual({
        currency_code: "GBP",
        value: "1234567.89",
      });
      expect(() => paypalAmount(100_00, "KES")).toThrow(PaypalError);
      expect(() => paypalAmount(0, "USD")).toThrow(PaypalError);
      expect(() => paypalAmount(1.5, "USD")).toThrow(PaypalError);
      expect(parsePaypalAmount({ currency_code: "USD", value: "10.5" })).toEqual({
        minor: 10_50,
        currency: "USD",
      });
      expect(parsePaypalAmount({ currency_code: "USD", value: "10.505" })).toBeNull();
      expect(parsePaypalAmount({ currency_code: "KES", value: "10.00" })).toBeNull();
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 99_999_999_999 }),
          fc.constantFrom("USD", "EUR", "GBP"),
          (minor, currency) => {
            const money = paypalAmount(minor, currency);
            expect(money.value).toMatch(/^\d+\.\d{2}$/);
            expect(parseMinorUnits(money.value, currency)).toBe(minor);
            expect(parsePaypalAmount(money)).toEqual({ minor, currency });
          },
        ),
      );
    });

    it("asks for a token once and keeps it until a minute before it expires; a 401 drops it", async () => {
      forgetPaypalTokens();
      let clock = 1_000_000;
      const config = paypalConfig();
      if (!config) throw new Error("PayPal not configured");
      const client = paypalClient(config, { now: () => clock });
      const before = standin.counts.tokens;
      await client.token();
      await client.token();
      expect(standin.counts.tokens).toBe(before + 1);
      clock += standin.config.tokenSeconds * 1000 - TOKEN_MARGIN_MS - 1;
      await client.token();
      expect(standin.counts.tokens).toBe(before + 1);
      clock += 2;
      await client.token();
      expect(standin.counts.tokens).toBe(before + 2);
      // A token PayPal no longer knows: the call answers 401 and the next one asks again.
      const other = paypalClient(
        { ...config },
        {
          now: () => clock,
          fetch: async (input, init) => {
            const url = String(input);
            if (url.endsWith("/v1/oauth2/token")) return fetch(input, init);
            return new Response(JSON.stringify({ error: "invalid_token" }), { status: 401 });
          },
        },
      );
      forgetPaypalTokens();
      await expect(other.getOrder("NOSUCHORDER")).rejects.toMatchObject({ status: 401 });
      await expect(other.getOrder("NOSUCHORDER")).rejects.toMatchObject({ status: 401 });
      expect(standin.counts.tokens).toBe(before + 4);
      forgetPaypalTokens();
    });

    it("knows where PayPal's approval page is, for the form-action of the Content-Security-Policy", () => {
      expect(paypalApprovalOrigin("https://api-m.sandbox.paypal.com")).toBe(
        "https://www.sandbox.paypal.com",
      );
      expect(paypalApprovalOrigin("https://api-m.paypal.com/")).toBe("https://www.paypal.com");
      expect(paypalApprovalOrigin(standin.url)).toBe(standin.url);
    });

    it("refuses wrong credentials", async () => {
      const config = paypalConfig();
      if (!config) throw new Error("PayPal not configured");
      forgetPaypalTokens();
      const client = paypalClient({ ...config, clientSecret: "wrong" });
      await expect(client.token()).rejects.toMatchObject({ status: 401 });
    });
  });

  it("pays a USD order: approve on PayPal, return, capture; the capture id is the payment's reference", async () => {
    const started = await approvedCheckout();
    const sent = standin.orders.get(started.paypalOrderId);
    expect(sent?.amount).toEqual({ currency_code: "USD", value: "99.00" });
    expect(started.approveUrl).toContain(`/checkoutnow?token=${started.paypalOrderId}`);
    expect(sent?.returnUrl).toBe(`http://localhost:3000/orders/${started.orderId}/paypal/return`);
    // Approved is not paid: nothing is recorded until the capture.
    expect(await paymentsOf(started.orderId)).toHaveLength(0);

    expect(await returnFromPaypal({ orderId: started.orderId, token: started.paypalOrderId })).toBe(
      "recorded",
    );
    const capture = standin.orders.get(started.paypalOrderId)?.capture;
    const [paid] = await paymentsOf(started.orderId);
    expect(paid).toMatchObject({
      method: "paypal",
      provider: "paypal",
      reference: capture?.id,
      amountMinor: 99_00,
      currency: "USD",
    });
    expect(await orderRow(started.orderId)).toMatchObject({ state: "paid", paidMinor: 99_00 });
    expect(await checkoutOf(started.paypalOrderId)).toMatchObject({
      state: "captured",
      captureId: capture?.id,
      paymentId: paid.id,
    });
    // Coming back again (reload, second tab) captures nothing more.
    expect(await returnFromPaypal({ orderId: started.orderId, token: started.paypalOrderId })).toBe(
      "duplicate",
    );
    expect(standin.counts.captures).toBeGreaterThan(0);
    expect(await paymentsOf(started.orderId)).toHaveLength(1);
  });

  it("takes only USD, EUR and GBP orders, and nothing another order's token names", async () => {
    const { order: kes } = await createOrder(order({ currency: "KES" }));
    await expect(
      startPaypalCheckout({ orderId: kes.id, actor: { id: buyer.id, role: "user" } }),
    ).rejects.toMatchObject({ status: 409 });
    const gbp = await approvedCheckout({ currency: "GBP" });
    expect(standin.orders.get(gbp.paypalOrderId)?.amount).toEqual({
      currency_code: "GBP",
      value: "99.00",
    });
    const { order: other } = await createOrder(order());
    await expect(
      returnFromPaypal({ orderId: other.id, token: gbp.paypalOrderId }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("a return before the buyer approved captures nothing", async () => {
    const { order: o } = await createOrder(order());
    const started = await startPaypalCheckout({
      orderId: o.id,
      actor: { id: buyer.id, role: "user" },
    });
    expect(await returnFromPaypal({ orderId: o.id, token: started.paypalOrderId })).toBe(
      "not_approved",
    );
    expect(await paymentsOf(o.id)).toHaveLength(0);
    expect((await checkoutOf(started.paypalOrderId)).state).toBe("created");
  });

  it("the webhook alone records the capture once PayPal verifies it and its order agrees; twice is once", async () => {
    await standin.deliverWebhooks(); // earlier tests' webhooks
    const started = await approvedCheckout();
    // Captured at PayPal (say, our return's answer was lost): only the webhook tells us.
    const config = paypalConfig();
    if (!config) throw new Error("PayPal not configured");
    await paypalClient(config).captureOrder(started.paypalOrderId, randomUUID());
    expect(await standin.deliverWebhooks()).toBe(1);
    const capture = standin.orders.get(started.paypalOrderId)?.capture;
    if (!capture) throw new Error("no capture");
    await standin.sendWebhook(standin.webhookFor(capture));
    const paid = await paymentsOf(started.orderId);
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ reference: capture.id, amountMinor: 99_00, method: "paypal" });
    expect((await orderRow(started.orderId)).state).toBe("paid");
  });

  it("a forged webhook records nothing: a bad signature, or a signed one whose amount PayPal's order contradicts", async () => {
    const started = await approvedCheckout();
    const config = paypalConfig();
    if (!config) throw new Error("PayPal not configured");
    await paypalClient(config).captureOrder(started.paypalOrderId, randomUUID());
    // The genuine webhook is held back (webhookDelayMs: null) until the end.
    const capture = standin.orders.get(started.paypalOrderId)?.capture;
    if (!capture) throw new Error("no capture");
    const before = await forgedEntries();
    const verificationsBefore = standin.counts.verifications;

    // 1. The verify endpoint says FAILURE: 400, a security entry, PayPal's order not even read.
    const forged = await deliverToRoute(standin.webhookFor(capture, { forge: true }));
    expect(forged.init?.status).toBe(400);
    expect(standin.counts.verifications).toBe(verificationsBefore + 1);
    // No headers at all: refused without asking PayPal.
    const bare = await acceptPaypalWebhook(
      standin.webhookFor(capture).body,
      new Headers({ "content-type": "application/json" }),
      null,
    );
    expect(bare).toBe("forged");

    // 2. SUCCESS, but the event claims another amount than PayPal's own order shows.
    const wrong = await deliverToRoute(
      standin.webhookFor(capture, { amount: { currency_code: "USD", value: "9900.00" } }),
    );
    expect(wrong.init?.status ?? 200).toBe(200);
    expect((wrong.data as { outcome: string }).outcome).toBe("mismatch");
    expect(await paymentsOf(started.orderId)).toHaveLength(0);
    expect(await forgedEntries()).toBe(before + 3);

    // 3. Not a capture we know (another order at PayPal): ignored, nothing recorded.
    const strangerCapture = { ...capture, id: "NOTOURS0000000000", orderId: "NOTOURSEITHER0000" };
    const unknown = await deliverToRoute(standin.webhookFor(strangerCapture));
    expect((unknown.data as { outcome: string }).outcome).toBe("unknown");

    // The genuine one still records it.
    await standin.deliverWebhooks();
    expect(await paymentsOf(started.orderId)).toHaveLength(1);
  });

  it("a capture PayPal made for another amount than was asked is not recorded, and staff are told", async () => {
    const started = await approvedCheckout();
    // PayPal's order somehow differs from what we asked (it is the provider's answer that counts).
    const held = standin.orders.get(started.paypalOrderId);
    if (!held) throw new Error("no order");
    held.amount = { currency_code: "USD", value: "1.00" };
    const before = await forgedEntries();
    expect(await returnFromPaypal({ orderId: started.orderId, token: started.paypalOrderId })).toBe(
      "mismatch",
    );
    expect(await paymentsOf(started.orderId)).toHaveLength(0);
    expect(await checkoutOf(started.paypalOrderId)).toMatchObject({ state: "failed" });
    expect(await forgedEntries()).toBe(before + 1);
  });

  it("the buyer's return and the webhook at the same moment (each twice) record one payment per capture", async () => {
    const config = paypalConfig();
    if (!config) throw new Error("PayPal not configured");
    const direct = paypalClient(config);
    const attempts = [];
    for (let i = 0; i < 10; i++) attempts.push(await approvedCheckout());
    await Promise.all(
      attempts.flatMap((a) => [
        returnFromPaypal({ orderId: a.orderId, token: a.paypalOrderId }),
        returnFromPaypal({ orderId: a.orderId, token: a.paypalOrderId }),
        // PayPal's side: whichever capture call wins, its webhook arrives at once, twice.
        (async () => {
          await direct.captureOrder(a.paypalOrderId, randomUUID()).catch(() => null);
          const capture = standin.orders.get(a.paypalOrderId)?.capture;
          if (!capture) throw new Error("not captured");
          await Promise.all([
            standin.sendWebhook(standin.webhookFor(capture)),
            standin.sendWebhook(standin.webhookFor(capture)),
          ]);
        })(),
      ]),
    );
    await standin.deliverWebhooks();
    const ids = attempts.map((a) => a.orderId);
    const recorded = await database.db
      .select()
      .from(payments)
      .where(inArray(payments.orderId, ids));
    expect(recorded).toHaveLength(10);
    expect(new Set(recorded.map((p) => p.reference)).size).toBe(10);
    const paid = await database.db
      .select()
      .from(orders)
      .where(and(inArray(orders.id, ids), eq(orders.state, "paid")));
    expect(paid).toHaveLength(10);
    expect(paid.every((o) => o.paidMinor === 99_00)).toBe(true);
  });

  it("refunds through PayPal: half leaves the order paid, the rest makes it refunded; never more than paid", async () => {
    const started = await approvedCheckout();
    await returnFromPaypal({ orderId: started.orderId, token: started.paypalOrderId });
    const [payment] = await paymentsOf(started.orderId);

    const half = await refundThroughProvider(
      { orderId: started.orderId, paymentId: payment.id, amountMinor: 49_50, reason: "Half" },
      admin,
    );
    expect(half.request.state).toBe("completed");
    expect(half.creditNoteNumber).toMatch(/^CN-\d{4}-\d{6}$/);
    expect(await orderRow(started.orderId)).toMatchObject({ state: "paid", refundedMinor: 49_50 });
    const capture = standin.captures.get(payment.reference);
    expect(capture).toMatchObject({ status: "PARTIALLY_REFUNDED", refunded: 49_50 });

    await expect(
      refundThroughProvider(
        { orderId: started.orderId, paymentId: payment.id, amountMinor: 49_51 },
        admin,
      ),
    ).rejects.toMatchObject({ status: 400 });

    const rest = await refundThroughProvider(
      { orderId: started.orderId, paymentId: payment.id, amountMinor: 49_50 },
      admin,
    );
    expect(rest.request.state).toBe("completed");
    expect(await orderRow(started.orderId)).toMatchObject({
      state: "refunded",
      refundedMinor: 99_00,
    });
    expect(capture).toMatchObject({ status: "REFUNDED", refunded: 99_00 });
    const notes = await database.db
      .select()
      .from(refunds)
      .where(eq(refunds.orderId, started.orderId));
    expect(notes.map((r) => r.amountMinor).sort()).toEqual([49_50, 49_50]);
    expect(notes.every((r) => r.method === "paypal")).toBe(true);
    // The credit notes go out by mail.
    await drainJobs();
  });

  it("a return after the order expired captures nothing: no money moves", async () => {
    const started = await approvedCheckout({ holdMs: 1000 });
    await expireOrder(started.orderId, new Date(Date.now() + 60_000));
    expect((await orderRow(started.orderId)).state).toBe("expired");
    // The attempt ended with the order's hold.
    expect(await checkoutOf(started.paypalOrderId)).toMatchObject({ state: "cancelled" });
    expect(await returnFromPaypal({ orderId: started.orderId, token: started.paypalOrderId })).toBe(
      "closed",
    );
    expect(standin.orders.get(started.paypalOrderId)?.capture).toBeNull();
    expect(await checkoutOf(started.paypalOrderId)).toMatchObject({ state: "cancelled" });
    expect(await paymentsOf(started.orderId)).toHaveLength(0);
  });

  it("a capture that completes after the order expired is recorded as credit, never dropped nor reviving the order", async () => {
    const started = await approvedCheckout({ holdMs: 1000 });
    const config = paypalConfig();
    if (!config) throw new Error("PayPal not configured");
    // Captured at PayPal just before the hold ended; its webhook arrives after.
    await paypalClient(config).captureOrder(started.paypalOrderId, randomUUID());
    await expireOrder(started.orderId, new Date(Date.now() + 60_000));
    await standin.deliverWebhooks();
    const [held] = await paymentsOf(started.orderId);
    expect(held).toMatchObject({ amountMinor: 99_00, provider: "paypal" });
    expect(await orderRow(started.orderId)).toMatchObject({ state: "expired", paidMinor: 99_00 });
  });

  it("the webhook route is not there when PayPal is off", async () => {
    setEnv(testEnv({ SMTP_URL: smtp.url }));
    try {
      await expect(
        webhookAction({
          request: new Request("http://localhost:3000/api/payments/hooks/paypal/webhook", {
            method: "POST",
            body: "{}",
          }),
          params: {},
          context: {},
        } as never),
      ).rejects.toMatchObject({ init: { status: 404 } });
    } finally {
      setEnv(settings());
    }
  });
});
