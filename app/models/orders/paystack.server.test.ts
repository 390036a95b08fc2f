// Cards through Paystack end to end against the Paystack stand-in (issue 31): pay by card, the
// return page and the webhook (once, twice, at the same moment) recording ONE payment, forged
// webhooks (bad signature; good signature with a wrong amount), a late success after the order
// expired (credit, flagged for staff), refunds through Paystack (half, then the rest; pending then
// processed) and 20 parallel partial refunds that never give back more than was paid.
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  eventFees,
  events,
  jobs,
  orders,
  payments,
  paystackCheckouts,
  providerRefunds,
  refunds,
  registrations,
  user,
  waitlistEntries,
} from "~/db/schema";
import { setEnv } from "~/lib/env.server";
import { paymentMethodsAnswer } from "~/lib/payments/methods";
import { membershipPaymentAnswer, onlineProvidersFor } from "~/lib/payments/online.server";
import { paystackCheckoutOrigin, validPaystackSignature } from "~/lib/payments/paystack.server";
import { runDueJobs } from "~/models/jobs.server";
import {
  cancelRegistration,
  joinWaitlist,
  registerForEvent,
} from "~/models/registrations/registrations.server";
import { wireProcess } from "~/models/wiring.server";
import { action as orderAction, loader as orderLoader } from "~/routes/account/order";
import { loader as cardReturnLoader } from "~/routes/account/order-card";
import { action as paymentsAction, loader as paymentsLoader } from "~/routes/admin/payments";
import { action as webhookAction } from "~/routes/api/paystack-webhook";
import {
  type PaystackStandin,
  startPaystackStandin,
} from "../../../scripts/paystack-standin/standin";
import { useTestDatabase } from "../../../tests/helpers/db";
import { testEnv } from "../../../tests/helpers/env";
import { sessionCookieFor } from "../../../tests/helpers/session";
import { startTestSmtp } from "../../../tests/helpers/smtp";
import { createOrder, expireOrder, type NewOrder, OrderError, recordRefund } from "./orders.server";
import { confirmCardPayment, startCardPayment } from "./paystack.server";
import { refundThroughProvider } from "./provider-refunds.server";
import { listOrdersNeedingAttention } from "./queries.server";

wireProcess();

const HOUR = 3_600_000;
const WEBHOOK = "http://localhost:3000/api/payments/hooks/paystack/webhook";

/** Hands a webhook to the route in-process, as the server would, with its raw body. */
async function postWebhook(rawBody: string, signature: string | null) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-kongamano-client-ip": "52.31.139.75",
  };
  if (signature) headers["x-paystack-signature"] = signature;
  const response = (await webhookAction({
    request: new Request(WEBHOOK, { method: "POST", headers, body: rawBody }),
    params: {},
    context: {},
  } as never)) as { init: ResponseInit | null };
  return response.init?.status ?? 200;
}

describe("cards through Paystack", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let standin: PaystackStandin;
  let pendingStandin: PaystackStandin;
  let buyer: { id: string; name: string; email: string };
  let admin: { id: string; role: "admin" };
  const settings = (s: PaystackStandin, extra: Record<string, string> = {}) =>
    testEnv({
      SMTP_URL: smtp.url,
      PAYSTACK_BASE_URL: s.url,
      PAYSTACK_SECRET_KEY: s.secretKey,
      ...extra,
    });

  const order = (overrides: Partial<NewOrder> = {}): NewOrder => ({
    buyer,
    currency: "USD",
    holdMs: 72 * HOUR,
    lines: [
      {
        kind: "event_ticket",
        referenceId: randomUUID(),
        description: "Data Governance Summit",
        quantity: 1,
        unitAmountMinor: 150_00,
      },
    ],
    ...overrides,
  });

  async function drainJobs() {
    while ((await runDueJobs({ limit: 50 })) > 0) {}
  }
  const paymentsOf = (orderId: string) =>
    database.db.select().from(payments).where(eq(payments.orderId, orderId));
  const orderRow = async (id: string) =>
    (await database.db.select().from(orders).where(eq(orders.id, id)))[0];
  const forgedEntries = async () =>
    (
      await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(auditLog)
        .where(eq(auditLog.action, "paystack.webhook_forged"))
    )[0].n;
  const start = (orderId: string) =>
    startCardPayment({ orderId, actor: { id: buyer.id, role: "user" } });

  /** A USD order paid by card through the stand-in (webhook delivered, recorded). */
  async function paidOrder(unitAmountMinor = 150_00) {
    const { order: o } = await createOrder(
      order({
        lines: [
          {
            kind: "event_ticket",
            referenceId: randomUUID(),
            description: "Data Governance Summit",
            quantity: 1,
            unitAmountMinor,
          },
        ],
      }),
    );
    const { reference } = await start(o.id);
    await standin.pay(reference);
    const [payment] = await paymentsOf(o.id);
    expect(payment).toBeDefined();
    return { order: o, payment, reference };
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    const deliver = async (_url: string, raw: string, signature: string) => {
      await postWebhook(raw, signature);
    };
    standin = await startPaystackStandin({ webhookUrl: WEBHOOK, deliver });
    pendingStandin = await startPaystackStandin({
      webhookUrl: WEBHOOK,
      deliver,
      secretKey: standin.secretKey,
      refundPendingMs: 1,
    });
    setEnv(settings(standin));
    const id = randomUUID();
    buyer = { id, name: "Amani Test", email: `buyer.${id.slice(0, 8)}@example.test` };
    await database.db.insert(user).values({ ...buyer, role: "user" });
    const adminId = randomUUID();
    await database.db.insert(user).values({
      id: adminId,
      name: "Admin",
      email: `a.${adminId.slice(0, 8)}@example.test`,
      role: "admin",
    });
    admin = { id: adminId, role: "admin" };
  });
  afterAll(async () => {
    await standin.close();
    await pendingStandin.close();
    await smtp.close();
  });

  it("offers cards only for KES and USD, and only when configured; the FAQ says what is on", async () => {
    expect(onlineProvidersFor("USD")).toEqual(["paystack"]);
    expect(onlineProvidersFor("KES")).toEqual(["paystack"]);
    expect(onlineProvidersFor("EUR")).toEqual([]);
    expect(membershipPaymentAnswer()).toBe(
      "We accept all major credit and debit cards and bank transfer.",
    );
    expect(paymentMethodsAnswer(["paystack", "paypal"])).toBe(
      "We accept all major credit and debit cards, PayPal and bank transfer.",
    );
    const { order: eur } = await createOrder(order({ currency: "EUR" }));
    await expect(start(eur.id)).rejects.toMatchObject({ status: 409 });
    setEnv(testEnv({ SMTP_URL: smtp.url }));
    try {
      expect(onlineProvidersFor("USD")).toEqual([]);
      const { order: usd } = await createOrder(order());
      await expect(start(usd.id)).rejects.toMatchObject({
        status: 409,
        message: "Card payments are not available.",
      });
    } finally {
      setEnv(settings(standin));
    }
  });

  it("checks signatures in constant time on the raw body, and knows where the checkout page is", () => {
    const raw = '{"event":"charge.success","data":{"reference":"x"}}';
    const good = standin.sign(raw);
    expect(validPaystackSignature(raw, good, standin.secretKey)).toBe(true);
    expect(validPaystackSignature(`${raw} `, good, standin.secretKey)).toBe(false);
    expect(validPaystackSignature(raw, good.toUpperCase(), standin.secretKey)).toBe(true);
    expect(validPaystackSignature(raw, good.slice(2), standin.secretKey)).toBe(false);
    expect(validPaystackSignature(raw, null, standin.secretKey)).toBe(false);
    expect(paystackCheckoutOrigin("https://api.paystack.co")).toBe("https://checkout.paystack.com");
    expect(paystackCheckoutOrigin(standin.url)).toBe(standin.url);
  });

  it("pays a USD ticket: initialize for the balance in cents, the webhook and the return page record one payment", async () => {
    const { order: o } = await createOrder(order());
    const cookie = await sessionCookieFor(buyer.id);
    const started = (await orderAction({
      request: new Request(`http://localhost:3000/orders/${o.id}`, {
        method: "POST",
        body: new URLSearchParams({ intent: "card" }),
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      }),
      params: { id: o.id },
      context: {},
    } as never)) as Response;
    expect(started.status).toBe(302);
    const location = started.headers.get("location") ?? "";
    expect(location.startsWith(`${standin.url}/checkout/`)).toBe(true);
    const [attempt] = await database.db
      .select()
      .from(paystackCheckouts)
      .where(eq(paystackCheckouts.orderId, o.id));
    expect(attempt).toMatchObject({ state: "pending", amountMinor: 150_00, currency: "USD" });
    const sent = standin.transactions.get(attempt.reference);
    expect(sent).toMatchObject({ amount: 150_00, currency: "USD", email: buyer.email });
    expect(sent?.callbackUrl).toBe(`http://localhost:3000/orders/${o.id}/card`);
    // Back from the page before paying: nothing recorded, "not completed".
    const early = (await cardReturnLoader({
      request: new Request(
        `http://localhost:3000/orders/${o.id}/card?trxref=${attempt.reference}&reference=${attempt.reference}`,
        { headers: { cookie } },
      ),
      params: { id: o.id },
      context: {},
    } as never)) as Response;
    expect(early.status).toBe(302);
    expect(await paymentsOf(o.id)).toHaveLength(0);
    // The customer pays; the signed webhook arrives (in-process), then the return page.
    await standin.pay(attempt.reference);
    const back = (await cardReturnLoader({
      request: new Request(
        `http://localhost:3000/orders/${o.id}/card?reference=${attempt.reference}`,
        {
          headers: { cookie },
        },
      ),
      params: { id: o.id },
      context: {},
    } as never)) as Response;
    expect(back.headers.get("location")).toBe(`/orders/${o.id}`);
    const recorded = await paymentsOf(o.id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      method: "card",
      provider: "paystack",
      reference: attempt.reference,
      amountMinor: 150_00,
      currency: "USD",
    });
    expect((await orderRow(o.id)).state).toBe("paid");
    await drainJobs();
    await smtp.waitFor(buyer.email, /receipt/i);
    // Another order's reference on this order's return page is a 404.
    const { order: other } = await createOrder(order());
    await expect(
      cardReturnLoader({
        request: new Request(
          `http://localhost:3000/orders/${other.id}/card?reference=${attempt.reference}`,
          { headers: { cookie } },
        ),
        params: { id: other.id },
        context: {},
      } as never),
    ).rejects.toMatchObject({ init: { status: 404 } });
    // The page shows no card button once paid.
    const page = await orderLoader({
      request: new Request(`http://localhost:3000/orders/${o.id}`, { headers: { cookie } }),
      params: { id: o.id },
      context: {},
    } as never);
    expect(page.online).toEqual([]);
  });

  it("return and webhook at the same moment, and the webhook twice, record one payment", async () => {
    for (let round = 0; round < 5; round++) {
      const { order: o } = await createOrder(order());
      const { reference } = await start(o.id);
      standin.setDelivery("lost");
      await standin.pay(reference);
      standin.setDelivery("once");
      const raw = JSON.stringify({
        event: "charge.success",
        data: standin.transactionData(standin.transactions.get(reference)!),
      });
      const signature = standin.sign(raw);
      const results = await Promise.all([
        postWebhook(raw, signature),
        postWebhook(raw, signature),
        confirmCardPayment(reference),
        confirmCardPayment(reference),
      ]);
      expect(results[0]).toBe(200);
      expect(results[1]).toBe(200);
      expect(await paymentsOf(o.id)).toHaveLength(1);
      expect((await orderRow(o.id)).paidMinor).toBe(150_00);
    }
  });

  it("a payment whose webhook was lost and whose buyer never came back is found by the safety checks", async () => {
    const { order: o } = await createOrder(order());
    const { reference } = await start(o.id);
    const checks = await database.db
      .select({ runAt: jobs.runAt })
      .from(jobs)
      .where(
        and(eq(jobs.kind, "paystack.verify"), sql`${jobs.payload}->>'reference' = ${reference}`),
      );
    expect(checks).toHaveLength(2);
    for (const check of checks)
      expect(check.runAt.getTime()).toBeGreaterThan(Date.now() + 10 * 60_000);
    standin.setDelivery("lost");
    await standin.pay(reference);
    standin.setDelivery("once");
    await drainJobs();
    expect(await paymentsOf(o.id)).toHaveLength(0); // not before the first check is due
    // The first check comes due: Paystack's verify says success, one payment is recorded; the
    // second check finds the attempt paid and records nothing more.
    await database.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(
        and(eq(jobs.kind, "paystack.verify"), sql`${jobs.payload}->>'reference' = ${reference}`),
      );
    await drainJobs();
    expect(await paymentsOf(o.id)).toHaveLength(1);
    expect((await orderRow(o.id)).state).toBe("paid");
  });

  it("refuses forged webhooks: a bad signature (401) and a good one with a wrong amount record nothing", async () => {
    const { order: o } = await createOrder(order());
    const { reference } = await start(o.id);
    const before = await forgedEntries();
    const claim = {
      ...standin.transactionData(standin.transactions.get(reference)!),
      status: "success",
      paid_at: new Date().toISOString(),
    };
    const raw = JSON.stringify({ event: "charge.success", data: claim });
    expect(await postWebhook(raw, standin.sign(raw, "sk_test_someone_else"))).toBe(401);
    expect(await postWebhook(raw, null)).toBe(401);
    expect(await postWebhook(raw, "zz")).toBe(401);
    // Signed with our key (leaked), claiming 1 cent: verify says not paid; nothing recorded.
    const cheap = JSON.stringify({ event: "charge.success", data: { ...claim, amount: 1 } });
    expect(await postWebhook(cheap, standin.sign(cheap))).toBe(200);
    expect(await paymentsOf(o.id)).toHaveLength(0);
    expect((await orderRow(o.id)).state).toBe("awaiting_payment");
    expect(await forgedEntries()).toBe(before + 4);
    // Paid for real afterwards, the same forged body still records only what verify says.
    await standin.pay(reference);
    expect(await postWebhook(cheap, standin.sign(cheap))).toBe(200);
    const recorded = await paymentsOf(o.id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0].amountMinor).toBe(150_00);
  });

  it("a late success after the hold ended is recorded as credit, flagged for staff, and does not revive the order", async () => {
    const { order: o } = await createOrder(order());
    const { reference } = await start(o.id);
    await expireOrder(o.id, new Date(Date.now() + 73 * HOUR));
    const [expired] = await database.db
      .select()
      .from(paystackCheckouts)
      .where(eq(paystackCheckouts.reference, reference));
    expect(expired.state).toBe("expired");
    await standin.pay(reference);
    const after = await orderRow(o.id);
    expect(after.state).toBe("expired");
    expect(after.paidMinor).toBe(150_00);
    const [payment] = await paymentsOf(o.id);
    expect(payment).toMatchObject({ provider: "paystack", amountMinor: 150_00 });
    const [paidAttempt] = await database.db
      .select()
      .from(paystackCheckouts)
      .where(eq(paystackCheckouts.reference, reference));
    expect(paidAttempt.state).toBe("paid");
    const attention = await listOrdersNeedingAttention("admin");
    expect(attention.find((row) => row.id === o.id)).toBeDefined();
    const [audit] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "payment.record"), eq(auditLog.entityId, payment.id)));
    expect(audit.details).toMatchObject({ lateFor: "expired", heldAsCredit: true });
    // Refunded through Paystack from the attention list: the credit is gone, the order stays expired.
    const refunded = await refundThroughProvider(
      { orderId: o.id, paymentId: payment.id, amountMinor: 150_00 },
      admin,
    );
    expect(refunded.request.state).toBe("completed");
    expect((await orderRow(o.id)).state).toBe("expired");
    expect(
      (await listOrdersNeedingAttention("admin")).find((row) => row.id === o.id),
    ).toBeUndefined();
  });

  it("refunds half, then the rest, through Paystack: credit notes and mails, paid then refunded; staff cannot record it by hand", async () => {
    const { order: o, payment } = await paidOrder();
    await expect(
      recordRefund(
        {
          orderId: o.id,
          paymentId: payment.id,
          amountMinor: 10_00,
          method: "card",
          reference: "X1",
        },
        admin,
      ),
    ).rejects.toMatchObject({ status: 400 });
    const half = await refundThroughProvider(
      { orderId: o.id, paymentId: payment.id, amountMinor: 75_00, reason: "Half the ticket" },
      admin,
    );
    expect(half.request.state).toBe("completed");
    expect(half.creditNoteNumber).toMatch(/^CN-\d{4}-\d{6}$/);
    expect(half.orderState).toBe("paid");
    expect(standin.transactions.get(payment.reference)?.refunded).toBe(75_00);
    await expect(
      refundThroughProvider({ orderId: o.id, paymentId: payment.id, amountMinor: 75_01 }, admin),
    ).rejects.toMatchObject({ status: 400 });
    const rest = await refundThroughProvider(
      { orderId: o.id, paymentId: payment.id, amountMinor: 75_00 },
      admin,
    );
    expect(rest.orderState).toBe("refunded");
    const rows = await database.db.select().from(refunds).where(eq(refunds.orderId, o.id));
    expect(rows.map((r) => [r.amountMinor, r.method])).toEqual([
      [75_00, "card"],
      [75_00, "card"],
    ]);
    const [after] = await database.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(after).toMatchObject({ state: "refunded", refundedMinor: 150_00 });
    await drainJobs();
    await smtp.waitFor(buyer.email, new RegExp(rest.creditNoteNumber ?? "CN-"));
    // Editors and the buyer cannot refund.
    await expect(
      refundThroughProvider(
        { orderId: o.id, paymentId: payment.id, amountMinor: 1 },
        { id: buyer.id, role: "editor" },
      ),
    ).rejects.toBeInstanceOf(OrderError);
  });

  it("the Payments screen refunds a card payment online: too much is a 400 with the amount kept, half is a credit note", async () => {
    const { order: o, payment } = await paidOrder();
    const cookie = await sessionCookieFor(admin.id);
    const page = await paymentsLoader({
      request: new Request(`http://localhost:3000/admin/payments?refund=${o.id}`, {
        headers: { cookie },
      }),
      params: {},
      context: {},
    } as never);
    expect(page.refund?.online).toHaveLength(1);
    expect(page.refund?.online[0].label).toContain("via Paystack");
    expect(page.refund?.payments).toHaveLength(0);
    const post = (amount: string) =>
      paymentsAction({
        request: new Request("http://localhost:3000/admin/payments", {
          method: "POST",
          body: new URLSearchParams({
            intent: "online-refund",
            orderId: o.id,
            paymentId: payment.id,
            amount,
            reason: "Cannot attend",
          }),
          headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        }),
        params: {},
        context: {},
      } as never);
    const tooMuch = (await post("150.01")) as {
      init: ResponseInit;
      data: { result: { initialValue: Record<string, string>; error: Record<string, string[]> } };
    };
    expect(tooMuch.init.status).toBe(400);
    expect(tooMuch.data.result.initialValue.amount).toBe("150.01");
    expect(tooMuch.data.result.error[""]?.[0]).toMatch(/^At most USD 150\.00 can be refunded/);
    const half = (await post("75")) as Response;
    expect(half.status).toBe(302);
    const [row] = await database.db.select().from(refunds).where(eq(refunds.orderId, o.id));
    expect(row).toMatchObject({ amountMinor: 75_00, method: "card", reason: "Cannot attend" });
    expect((await orderRow(o.id)).state).toBe("paid");
  });

  it("a paid registration cancelled by staff frees its seat for the waitlist, and its card payment goes back through Paystack", async () => {
    const startsAt = new Date(Date.now() + 30 * 86_400_000);
    const title = `Card seat ${randomUUID().slice(0, 8)}`;
    const [event] = await database.db
      .insert(events)
      .values({
        title,
        slug: title.toLowerCase().replace(/\s+/g, "-"),
        location: "Toronto, Canada",
        startDate: startsAt,
        endDate: new Date(startsAt.getTime() + 86_400_000),
        status: "published",
      })
      .returning();
    const [fee] = await database.db
      .insert(eventFees)
      .values({ eventId: event.id, amountMinor: 300_00, currency: "USD", maxQuantity: 1 })
      .returning();
    const waiterId = randomUUID();
    const waiter = {
      id: waiterId,
      name: "Next Inline",
      email: `w.${waiterId.slice(0, 8)}@example.test`,
    };
    await database.db.insert(user).values({ ...waiter, role: "user" });
    const booked = await registerForEvent({
      eventId: event.id,
      feeId: fee.id,
      quantity: 1,
      account: buyer,
      attendee: { name: buyer.name, email: buyer.email },
    });
    const { reference } = await start(booked.orderId as string);
    await standin.pay(reference);
    await drainJobs();
    const [confirmed] = await database.db
      .select({ state: registrations.state })
      .from(registrations)
      .where(eq(registrations.id, booked.registrationId));
    expect(confirmed.state).toBe("confirmed");
    await joinWaitlist({
      eventId: event.id,
      feeId: fee.id,
      quantity: 1,
      account: waiter,
      name: waiter.name,
      email: waiter.email,
    });
    await cancelRegistration(booked.registrationId, admin, "Asked for a refund");
    await drainJobs();
    const [offer] = await database.db
      .select({ state: waitlistEntries.state })
      .from(waitlistEntries)
      .where(eq(waitlistEntries.eventId, event.id));
    expect(offer.state).toBe("offered");
    // The money is on the "Needs attention" list until it goes back to the card.
    expect(
      (await listOrdersNeedingAttention("admin")).find((row) => row.id === booked.orderId),
    ).toBeDefined();
    const [payment] = await paymentsOf(booked.orderId as string);
    const refunded = await refundThroughProvider(
      { orderId: booked.orderId as string, paymentId: payment.id, amountMinor: 300_00 },
      admin,
    );
    expect(refunded.orderState).toBe("refunded");
    expect(
      (await listOrdersNeedingAttention("admin")).find((row) => row.id === booked.orderId),
    ).toBeUndefined();
  });

  it("a refund Paystack answers pending stays reserved and is recorded when it is processed", async () => {
    const { order: o, payment } = await paidOrder();
    setEnv(settings(pendingStandin));
    try {
      // The payment was taken by the other stand-in: tell this one about it.
      pendingStandin.transactions.set(payment.reference, {
        ...standin.transactions.get(payment.reference)!,
        refunded: 0,
      });
      const asked = await refundThroughProvider(
        { orderId: o.id, paymentId: payment.id, amountMinor: 100_00 },
        admin,
      );
      expect(asked.request.state).toBe("pending");
      expect(
        await database.db.select().from(refunds).where(eq(refunds.orderId, o.id)),
      ).toHaveLength(0);
      // Reserved: only 50.00 is left to ask for, by Paystack or by hand.
      await expect(
        refundThroughProvider({ orderId: o.id, paymentId: payment.id, amountMinor: 50_01 }, admin),
      ).rejects.toMatchObject({ status: 400 });
      const cookie = await sessionCookieFor(buyer.id);
      const page = await orderLoader({
        request: new Request(`http://localhost:3000/orders/${o.id}`, { headers: { cookie } }),
        params: { id: o.id },
        context: {},
      } as never);
      expect(page.providerRefunds).toMatchObject([{ state: "pending", amount: "USD 100.00" }]);
      await database.db
        .update(jobs)
        .set({ runAt: sql`now()` })
        .where(and(eq(jobs.kind, "provider-refund.query"), eq(jobs.state, "queued")));
      await drainJobs();
      const [done] = await database.db
        .select()
        .from(providerRefunds)
        .where(eq(providerRefunds.id, asked.request.id));
      expect(done.state).toBe("completed");
      expect(done.refundId).not.toBeNull();
      expect((await orderRow(o.id)).refundedMinor).toBe(100_00);
      expect((await orderRow(o.id)).state).toBe("paid");
    } finally {
      setEnv(settings(standin));
    }
  });

  it("a refund Paystack never answered stays reserved for staff and is not asked again", async () => {
    const { order: o, payment } = await paidOrder();
    setEnv(settings(standin, { PAYSTACK_BASE_URL: "http://127.0.0.1:9" }));
    try {
      const asked = await refundThroughProvider(
        { orderId: o.id, paymentId: payment.id, amountMinor: 100_00 },
        admin,
      );
      expect(asked.request).toMatchObject({ state: "requested", providerRefundId: null });
    } finally {
      setEnv(settings(standin));
    }
    await expect(
      refundThroughProvider({ orderId: o.id, paymentId: payment.id, amountMinor: 50_01 }, admin),
    ).rejects.toMatchObject({ status: 400 });
    expect(standin.transactions.get(payment.reference)?.refunded).toBe(0);
    expect(await database.db.select().from(refunds).where(eq(refunds.orderId, o.id))).toHaveLength(
      0,
    );
  });

  it("20 parallel partial refunds never give back more than was paid", async () => {
    const { order: o, payment } = await paidOrder(100_00);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        refundThroughProvider({ orderId: o.id, paymentId: payment.id, amountMinor: 10_00 }, admin),
      ),
    );
    const done = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected");
    expect(done).toHaveLength(10);
    for (const r of refused) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 400 });
    }
    const after = await orderRow(o.id);
    expect(after).toMatchObject({ refundedMinor: 100_00, state: "refunded" });
    expect(standin.transactions.get(payment.reference)?.refunded).toBe(100_00);
    const rows = await database.db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
    expect(rows.reduce((sum, r) => sum + r.amountMinor, 0)).toBe(100_00);
  }, 60_000);
});
