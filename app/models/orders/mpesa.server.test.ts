// M-Pesa online end to end against the Daraja stand-in (issue 34): pushes, callbacks as hints,
// confirmation by stkpushquery, lost/duplicated/forged callbacks, parts, foreign currency, the
// Paybill with Transaction Status, and 200 parallel callbacks and queries for 50 pushes.
import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  invoices,
  jobs,
  mpesaConfirmations,
  mpesaPushes,
  orders,
  payments,
  user,
} from "~/db/schema";
import { setEnv } from "~/lib/env.server";
import { forgetDarajaTokens, hookSegment } from "~/lib/payments/daraja.server";
import { runDueJobs } from "~/models/jobs.server";
import { wireProcess } from "~/models/wiring.server";
import { action as orderAction, loader as orderLoader } from "~/routes/account/order";
import { loader as statusLoader } from "~/routes/api/order-mpesa-status";
import { action as hookAction } from "~/routes/api/payment-hooks";
import { type DarajaStandin, startDarajaStandin } from "../../../scripts/daraja-standin/standin";
import { useTestDatabase } from "../../../tests/helpers/db";
import { testEnv } from "../../../tests/helpers/env";
import { sessionCookieFor } from "../../../tests/helpers/session";
import { startTestSmtp } from "../../../tests/helpers/smtp";
import { confirmPush, mpesaAmounts, startStkPush } from "./mpesa.server";
import { registerPaybillUrls } from "./mpesa-paybill.server";
import { reconcileStatement } from "./mpesa-statement.server";
import { createOrder, type NewOrder, paymentReferenceOf } from "./orders.server";

wireProcess();

const HOUR = 3_600_000;

/** Hands a Daraja delivery to the hooks route in-process, as the server would. */
async function deliver(url: string, body: unknown, ip = "196.201.214.200") {
  const { pathname } = new URL(url);
  const [, , , , segment, hook] = pathname.split("/");
  const request = new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-kongamano-client-ip": ip },
    body: JSON.stringify(body),
  });
  const response = (await hookAction({
    request,
    params: { segment, hook },
    context: {},
  } as never)) as { data: unknown; init: ResponseInit | null };
  return response;
}

describe("M-Pesa online", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let standin: DarajaStandin;
  let buyer: { id: string; name: string; email: string };
  const settings = (extra: Record<string, string> = {}) =>
    testEnv({
      SMTP_URL: smtp.url,
      MPESA_PAYBILL: "174379",
      MPESA_BASE_URL: standin.url,
      MPESA_CONSUMER_KEY: standin.config.consumerKey,
      MPESA_CONSUMER_SECRET: standin.config.consumerSecret,
      MPESA_PASSKEY: standin.config.passkey,
      MPESA_INITIATOR_NAME: standin.config.initiatorName,
      MPESA_SECURITY_CREDENTIAL: standin.config.securityCredential,
      KES_RATES: "USD=129.50",
      ...extra,
    });

  const order = (overrides: Partial<NewOrder> = {}): NewOrder => ({
    buyer,
    currency: "KES",
    holdMs: 72 * HOUR,
    lines: [
      {
        kind: "event_ticket",
        referenceId: randomUUID(),
        description: "Data Governance Summit",
        quantity: 2,
        unitAmountMinor: 2_500_00,
      },
    ],
    ...overrides,
  });

  async function drainJobs() {
    while ((await runDueJobs({ limit: 50 })) > 0) {}
  }

  /** Moves the clock of the pending push queries: they are due now (as if a minute passed). */
  async function timePasses() {
    await database.db
      .update(jobs)
      .set({ runAt: sql`now()` })
      .where(and(eq(jobs.kind, "mpesa.push-query"), eq(jobs.state, "queued")));
  }

  const paymentsOf = (orderId: string) =>
    database.db.select().from(payments).where(eq(payments.orderId, orderId));
  const pushOf = async (checkoutRequestId: string) =>
    (
      await database.db
        .select()
        .from(mpesaPushes)
        .where(eq(mpesaPushes.checkoutRequestId, checkoutRequestId))
    )[0];
  const forgedEntries = async () =>
    (
      await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(auditLog)
        .where(eq(auditLog.action, "mpesa.callback_forged"))
    )[0].n;

  async function pushFor(orderId: string, phone = "0712 345 678") {
    const view = await startStkPush({ orderId, phone, actor: { id: buyer.id, role: "user" } });
    const [row] = await database.db.select().from(mpesaPushes).where(eq(mpesaPushes.id, view.id));
    return row;
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    standin = await startDarajaStandin({
      deliver: (url, body) => deliver(url, body).then(() => {}),
      resultDelayMs: null,
    });
    setEnv(settings());
    forgetDarajaTokens();
    const id = randomUUID();
    buyer = { id, name: "Wanjirũ Test", email: `buyer.${id.slice(0, 8)}@example.test` };
    await database.db.insert(user).values({ ...buyer, role: "user" });
  });
  afterAll(async () => {
    await standin.close();
    await smtp.close();
  });

  it("gives every invoice a short payment reference with a check that refuses typos", () => {
    expect(paymentReferenceOf(2027, 123)).toMatch(/^27000123\d{2}$/);
    expect(paymentReferenceOf(2027, 123).length).toBeLessThanOrEqual(12);
    expect(paymentReferenceOf(2027, 12_345_678).length).toBeLessThanOrEqual(12);
  });

  it("pays a KES order by STK push only once Daraja's query confirms it", async () => {
    const { order: o } = await createOrder(order());
    const push = await pushFor(o.id);
    const [invoice] = await database.db.select().from(invoices).where(eq(invoices.orderId, o.id));
    const sent = standin.pushes.get(push.checkoutRequestId);
    expect(sent).toMatchObject({
      amount: 5000,
      phone: "254712345678",
      accountReference: invoice.paymentReference,
    });
    expect(push.state).toBe("pending");

    await standin.complete(push.checkoutRequestId, "success");
    // The callback recorded nothing by itself.
    expect(await paymentsOf(o.id)).toHaveLength(0);
    await drainJobs();
    const paid = await paymentsOf(o.id);
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({
      method: "mpesa",
      reference: push.checkoutRequestId.toUpperCase(),
      amountMinor: 5_000_00,
      currency: "KES",
      mpesaReceipt: sent?.receipt,
      receiptStatus: "reported",
      payerPhone: "254712345678",
    });
    const [after] = await database.db.select().from(orders).where(eq(orders.id, o.id));
    expect(after.state).toBe("paid");
    expect((await pushOf(push.checkoutRequestId)).state).toBe("paid");
  });

  it("a cancelled (1032) or timed-out (1037) push records nothing and says why", async () => {
    for (const [outcome, state, code] of [
      ["cancel", "cancelled", 1032],
      ["timeout", "timed_out", 1037],
    ] as const) {
      const { order: o } = await createOrder(order());
      const push = await pushFor(o.id);
      await standin.complete(push.checkoutRequestId, outcome);
      await drainJobs();
      const row = await pushOf(push.checkoutRequestId);
      expect(row).toMatchObject({ state, resultCode: code });
      expect(row.resultDesc).toBeTruthy();
      expect(await paymentsOf(o.id)).toHaveLength(0);
    }
  });

  it("a forged success for a push the customer cancelled, or for an unknown push, records nothing and is a security entry", async () => {
    const { order: o } = await createOrder(order());
    const push = await pushFor(o.id);
    const before = await forgedEntries();
    await standin.complete(push.checkoutRequestId, "cancel", "lost");
    const forged = standin.stkCallbackBody({
      ...push,
      ...standin.pushes.get(push.checkoutRequestId)!,
      state: "success",
      receipt: "TFORGED123",
    } as never);
    const answer = await deliver(
      `http://localhost:3000/api/payments/hooks/${hookSegment()}/stk`,
      forged,
    );
    expect(answer.data).toEqual({ ResultCode: 0, ResultDesc: "Accepted" });
    await deliver(`http://localhost:3000/api/payments/hooks/${hookSegment()}/stk`, {
      Body: {
        stkCallback: {
          MerchantRequestID: "x",
          CheckoutRequestID: "ws_CO_made_up",
          ResultCode: 0,
          ResultDesc: "ok",
        },
      },
    });
    await drainJobs();
    expect(await paymentsOf(o.id)).toHaveLength(0);
    expect((await pushOf(push.checkoutRequestId)).state).toBe("cancelled");
    expect(await forgedEntries()).toBe(before + 2);
  });

  it("a callback delivered twice is one payment", async () => {
    const { order: o } = await createOrder(order());
    const push = await pushFor(o.id);
    await standin.complete(push.checkoutRequestId, "success", "twice");
    await drainJobs();
    expect(await paymentsOf(o.id)).toHaveLength(1);
  });

  it("a paid push whose callback was lost is found by the query a minute later, receipt to be matched", async () => {
    const { order: o } = await createOrder(order());
    const push = await pushFor(o.id);
    // Still processing: asked, not an error, asked again later.
    await timePasses();
    await drainJobs();
    expect((await pushOf(push.checkoutRequestId)).state).toBe("pending");
    const failed = await database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, "mpesa.push-query"), eq(jobs.state, "failed")));
    expect(failed).toHaveLength(0);
    await standin.complete(push.checkoutRequestId, "success", "lost");
    await timePasses();
    await drainJobs();
    const paid = await paymentsOf(o.id);
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ receiptStatus: "to_be_matched", mpesaReceipt: null });
  });

  it("a USD order is asked in whole shillings at the configured rate, rounded up, and credited in USD", async () => {
    const { order: o } = await createOrder(
      order({
        currency: "USD",
        lines: [
          {
            kind: "event_ticket",
            referenceId: randomUUID(),
            description: "Ticket",
            quantity: 1,
            unitAmountMinor: 70_27,
          },
        ],
      }),
    );
    // 70.27 × 129.50 = 9,099.965 → KES 9,100 (rounded up to whole shillings).
    const push = await pushFor(o.id, "+254 112 345 678");
    expect(push).toMatchObject({ amountKes: 9100, exchangeRate: "129.50", phone: "254112345678" });
    await standin.complete(push.checkoutRequestId, "success");
    await drainJobs();
    const [p] = await paymentsOf(o.id);
    expect(p).toMatchObject({
      currency: "USD",
      amountMinor: 70_27,
      receivedMinor: 9_100_00,
      exchangeRate: "129.50",
    });
    expect(mpesaAmounts({ currency: "EUR", dueMinor: 100 })).toBeNull();
  });

  it("pays above MPESA_MAX_AMOUNT in parts, each a push", async () => {
    setEnv(settings({ MPESA_MAX_AMOUNT: "3000" }));
    try {
      const { order: o } = await createOrder(order());
      expect(mpesaAmounts({ currency: "KES", dueMinor: 5_000_00 })).toMatchObject({
        partKes: 3000,
        parts: 2,
        dueKes: 5000,
      });
      const first = await pushFor(o.id);
      expect(first.amountKes).toBe(3000);
      await standin.complete(first.checkoutRequestId, "success");
      await drainJobs();
      const second = await pushFor(o.id);
      expect(second.amountKes).toBe(2000);
      await standin.complete(second.checkoutRequestId, "success");
      await drainJobs();
      const [after] = await database.db.select().from(orders).where(eq(orders.id, o.id));
      expect(after).toMatchObject({ state: "paid", paidMinor: 5_000_00 });
    } finally {
      setEnv(settings());
    }
  });

  it("200 parallel callbacks and queries for 50 pushes, duplicates and forgeries mixed in, record exactly the 50 payments", async () => {
    const pushes = [];
    for (let i = 0; i < 50; i++) {
      const { order: o } = await createOrder(order());
      pushes.push(await pushFor(o.id, `07${String(10_000_000 + i).padStart(8, "0")}`));
    }
    for (const push of pushes) await standin.complete(push.checkoutRequestId, "success", "lost");
    const url = `http://localhost:3000/api/payments/hooks/${hookSegment()}/stk`;
    const deliveries: Array<() => Promise<unknown>> = [];
    for (const push of pushes) {
      const body = standin.stkCallbackBody(standin.pushes.get(push.checkoutRequestId)!);
      deliveries.push(
        () => deliver(url, body),
        () => deliver(url, body),
      );
      deliveries.push(() =>
        deliver(url, {
          Body: {
            stkCallback: {
              CheckoutRequestID: `ws_CO_forged_${push.id}`,
              ResultCode: 0,
              ResultDesc: "ok",
              CallbackMetadata: { Item: [{ Name: "Amount", Value: 1 }] },
            },
          },
        }),
      );
      deliveries.push(() => confirmPush(push.id, 1));
    }
    // Shuffled, all at once, with the job worker running beside them. A query that meets Daraja
    // away (a time-out on a loaded machine) is asked again, as its job would be.
    deliveries.sort(() => Math.random() - 0.5);
    await Promise.allSettled([
      ...deliveries.map((run) => run()),
      runDueJobs({ limit: 50 }),
      runDueJobs({ limit: 50 }),
    ]);
    await drainJobs();
    for (const push of pushes) await confirmPush(push.id, 1);
    await drainJobs();
    const ids = pushes.map((p) => p.orderId);
    const recorded = await database.db
      .select()
      .from(payments)
      .where(inArray(payments.orderId, ids));
    expect(recorded).toHaveLength(50);
    expect(new Set(recorded.map((p) => p.orderId)).size).toBe(50);
    const paidOrders = await database.db
      .select()
      .from(orders)
      .where(and(inArray(orders.id, ids), eq(orders.state, "paid")));
    expect(paidOrders).toHaveLength(50);
    expect(paidOrders.every((o) => o.paidMinor === 5_000_00)).toBe(true);
  });

  it("Paybill: a confirmation is confirmed by Transaction Status before it pays the invoice its account names", async () => {
    await registerPaybillUrls({ system: "test" });
    expect(standin.registered).toEqual({
      confirmationUrl: `http://localhost:3000/api/payments/hooks/${hookSegment()}/confirmation`,
      validationUrl: `http://localhost:3000/api/payments/hooks/${hookSegment()}/validation`,
    });
    const { order: o } = await createOrder(order());
    const [invoice] = await database.db.select().from(invoices).where(eq(invoices.orderId, o.id));
    const { transId } = await standin.payBill(
      { amount: 5000, msisdn: "254708374149", billRefNumber: invoice.paymentReference },
      "twice",
    );
    const [reported] = await database.db
      .select()
      .from(mpesaConfirmations)
      .where(eq(mpesaConfirmations.transId, transId));
    expect(reported.state).toBe("reported");
    expect(await paymentsOf(o.id)).toHaveLength(0);
    await drainJobs(); // the Transaction Status query
    expect(await standin.deliverResults()).toBe(1);
    const paid = await paymentsOf(o.id);
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({
      reference: transId,
      amountMinor: 5_000_00,
      receiptStatus: "confirmed",
      mpesaReceipt: transId,
    });
    // Delivered again (Daraja retries): still one.
    await standin.payBill({ amount: 1, msisdn: "254708374149", billRefNumber: "nothing" }, "lost");
    await deliver(standin.registered.confirmationUrl!, {
      TransID: transId,
      TransAmount: "5000.00",
      BillRefNumber: invoice.paymentReference,
      MSISDN: "254708374149",
    });
    await drainJobs();
    await standin.deliverResults();
    expect(await paymentsOf(o.id)).toHaveLength(1);
    const [after] = await database.db.select().from(orders).where(eq(orders.id, o.id));
    expect(after.state).toBe("paid");
  });

  it("Paybill: an unknown account is kept unmatched; a made-up TransID is rejected and is a security entry", async () => {
    const { transId } = await standin.payBill({
      amount: 750,
      msisdn: "254708374149",
      billRefNumber: "WRONG123",
    });
    await drainJobs();
    await standin.deliverResults();
    const [kept] = await database.db.select().from(payments).where(eq(payments.reference, transId));
    expect(kept).toMatchObject({
      orderId: null,
      amountMinor: 750_00,
      currency: "KES",
      payerAccount: "WRONG123",
    });
    const before = await forgedEntries();
    await deliver(standin.registered.confirmationUrl!, {
      TransID: "TMADEUP001",
      TransAmount: "100000.00",
      BillRefNumber: "x",
      MSISDN: "254700000000",
    });
    await drainJobs();
    await standin.deliverResults();
    const [rejected] = await database.db
      .select()
      .from(mpesaConfirmations)
      .where(eq(mpesaConfirmations.transId, "TMADEUP001"));
    expect(rejected.state).toBe("rejected");
    expect(
      await database.db.select().from(payments).where(eq(payments.reference, "TMADEUP001")),
    ).toHaveLength(0);
    expect(await forgedEntries()).toBe(before + 1);
  });

  it("the statement CSV fills receipts to be matched, confirms reported ones, records missing payments, lists the rest; a re-upload changes nothing", async () => {
    const admin = { id: buyer.id, role: "admin" as const };
    // A push paid with its callback lost (receipt to be matched) and one reported by its callback.
    const { order: lost } = await createOrder(order());
    const lostPush = await pushFor(lost.id, "0722 000 111");
    await standin.complete(lostPush.checkoutRequestId, "success", "lost");
    await timePasses();
    await drainJobs();
    const { order: reported } = await createOrder(order());
    const reportedPush = await pushFor(reported.id);
    await standin.complete(reportedPush.checkoutRequestId, "success");
    await drainJobs();
    // An order paid from the Paybill menu while our confirmation URL was unreachable.
    const { order: missing } = await createOrder(order());
    const [missingInvoice] = await database.db
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, missing.id));
    const [lostInvoice] = await database.db
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, lost.id));
    const receiptOf = (id: string) => standin.pushes.get(id)?.receipt ?? "";
    const now = new Date(Date.now() + 3 * HOUR).toISOString().slice(0, 19).replace("T", " ");
    const csv = [
      "Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.",
      `${receiptOf(lostPush.checkoutRequestId)},${now},${now},Pay Bill Online,Completed,"5,000.00",,,true,Pay Bill Online,2547*****111 - JOHN,,${lostInvoice.paymentReference}`,
      `${receiptOf(reportedPush.checkoutRequestId)},${now},${now},Pay Bill Online,Completed,5000.00,,,true,Pay Bill Online,2547*****678 - JOHN,,x`,
      `TSTMT00001,${now},${now},Pay Bill,Completed,5000.00,,,true,Pay Bill,2547*****149 - JANE,,${missingInvoice.paymentReference}`,
      `TSTMT00002,${now},${now},Pay Bill,Completed,123.00,,,true,Pay Bill,2547*****149 - JANE,,NOSUCHACC`,
      `TSTMT00003,${now},${now},Withdrawal,Completed,,500.00,,true,Pay Bill,,,`,
    ].join("\r\n");
    const first = await reconcileStatement(csv, admin);
    expect(first).toMatchObject({ lines: 4, confirmed: 2, recorded: 1, alreadyRecorded: 0 });
    expect(first.unmatched).toEqual([
      { receipt: "TSTMT00002", amountMinor: 123_00, account: "NOSUCHACC" },
    ]);
    const [filled] = await paymentsOf(lost.id);
    expect(filled).toMatchObject({
      mpesaReceipt: receiptOf(lostPush.checkoutRequestId),
      receiptStatus: "confirmed",
    });
    const [confirmed] = await paymentsOf(reported.id);
    expect(confirmed.receiptStatus).toBe("confirmed");
    const [after] = await database.db.select().from(orders).where(eq(orders.id, missing.id));
    expect(after.state).toBe("paid");
    const count = async () =>
      (await database.db.select({ n: sql<number>`count(*)::int` }).from(payments))[0].n;
    const before = await count();
    const again = await reconcileStatement(csv, admin);
    expect(again).toMatchObject({
      lines: 4,
      confirmed: 0,
      recorded: 0,
      alreadyRecorded: 4,
      unmatched: [],
    });
    expect(await count()).toBe(before);
  });

  it("random bodies to every hook never answer 5xx and never record money; the allow-list refuses other addresses", async () => {
    const count = async () =>
      (await database.db.select({ n: sql<number>`count(*)::int` }).from(payments))[0].n;
    const before = await count();
    const hooks = ["stk", "confirmation", "validation", "result", "timeout"];
    let ip = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...hooks), fc.jsonValue(), async (hook, body) => {
        const answer = await deliver(
          `http://localhost:3000/api/payments/hooks/${hookSegment()}/${hook}`,
          body,
          `198.51.100.${ip++ % 250}`,
        );
        expect(answer.init?.status ?? 200).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
    await drainJobs();
    expect(await count()).toBe(before);
    setEnv(settings({ MPESA_CALLBACK_IPS: "196.201.214.200,196.201.214.206" }));
    try {
      const url = `http://localhost:3000/api/payments/hooks/${hookSegment()}/validation`;
      expect((await deliver(url, {}, "203.0.113.5")).init?.status).toBe(403);
      expect((await deliver(url, {}, "196.201.214.206")).data).toEqual({
        ResultCode: "0",
        ResultDesc: "Accepted",
      });
    } finally {
      setEnv(settings());
    }
  });

  it("the order page: a bad phone keeps what was typed (400), a good one sends the push and the status route follows it; another person gets 404", async () => {
    const { order: o } = await createOrder(order());
    const cookie = await sessionCookieFor(buyer.id);
    const post = (phone: string) => {
      const form = new URLSearchParams({ intent: "mpesa-push", phone });
      return orderAction({
        request: new Request(`http://localhost:3000/orders/${o.id}`, {
          method: "POST",
          body: form,
          headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        }),
        params: { id: o.id },
        context: {},
      } as never) as Promise<{ data: { mpesaError?: string; phone?: string }; init: ResponseInit }>;
    };
    const refused = await post("0812 34");
    expect(refused.init.status).toBe(400);
    expect(refused.data).toEqual({
      mpesaError:
        "Enter the Safaricom number to pay from, such as 0712 345 678 or +254 712 345 678.",
      phone: "0812 34",
    });
    const sent = (await post("0712 345 678")) as unknown as Response;
    expect(sent.status).toBe(302);
    const page = await orderLoader({
      request: new Request(`http://localhost:3000/orders/${o.id}`, { headers: { cookie } }),
      params: { id: o.id },
      context: {},
    } as never);
    expect(page.mpesa).toMatchObject({
      partLabel: "KES 5,000.00",
      parts: 1,
      push: { state: "pending", phone: "2547•••••678" },
    });
    expect(page.paymentReference).toMatch(/^\d{10}$/);
    const status = await statusLoader({
      request: new Request(`http://localhost:3000/orders/${o.id}/mpesa-status`, {
        headers: { cookie },
      }),
      params: { id: o.id },
      context: {},
    } as never);
    expect((await status.json()).push.state).toBe("pending");
    const otherId = randomUUID();
    await database.db.insert(user).values({
      id: otherId,
      name: "Other",
      email: `o.${otherId.slice(0, 8)}@example.test`,
      role: "user",
    });
    const otherCookie = await sessionCookieFor(otherId);
    await expect(
      statusLoader({
        request: new Request(`http://localhost:3000/orders/${o.id}/mpesa-status`, {
          headers: { cookie: otherCookie },
        }),
        params: { id: o.id },
        context: {},
      } as never),
    ).rejects.toMatchObject({ init: { status: 404 } });
  });

  it("the hooks answer 404 to a wrong segment and 400 to a body that is not JSON, never 500", async () => {
    await expect(
      deliver("http://localhost:3000/api/payments/hooks/0123456789abcdef0123456789abcdef/stk", {}),
    ).rejects.toMatchObject({ init: { status: 404 } });
    const request = new Request(`http://localhost:3000/api/payments/hooks/${hookSegment()}/stk`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    const answer = (await hookAction({
      request,
      params: { segment: hookSegment(), hook: "stk" },
      context: {},
    } as never)) as { init: ResponseInit };
    expect(answer.init.status).toBe(400);
    const validation = await deliver(
      `http://localhost:3000/api/payments/hooks/${hookSegment()}/validation`,
      { TransID: "X" },
    );
    expect(validation.data).toEqual({ ResultCode: "0", ResultDesc: "Accepted" });
  });
});
