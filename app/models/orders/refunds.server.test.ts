import { randomUUID } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, jobs, orders, type PaymentMethod, payments, refunds, user } from "~/db/schema";
import { setEnv } from "~/lib/env.server";
import { runDueJobs } from "~/models/jobs.server";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { testEnv } from "../../../tests/helpers/env";
import { pdfText } from "../../../tests/helpers/pdf-text";
import { startTestSmtp } from "../../../tests/helpers/smtp";
import { ORDER_JOBS } from "./job-kinds";
import {
  AMOUNT_TOO_LARGE_MESSAGE,
  cancelOrder,
  createOrder,
  expireOrder,
  MAX_UNMATCHED_PAYMENT_MINOR,
  matchPayment,
  type NewOrder,
  type NewOrderLine,
  PART_PAID_CANCEL_MESSAGE,
  recordPayment,
  recordRefund,
  reinstateOrder,
} from "./orders.server";
import {
  getOrderForViewer,
  listOrdersNeedingAttention,
  listRecentPayments,
  receiptDocument,
} from "./queries.server";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

const HOUR = 3_600_000;

// Money that reaches an order no longer awaiting it, refunds with credit notes, reinstating a
// closed order, amount sanity and separation of duties (issue 26).
describe("credit on closed and over-paid orders, refunds and reinstating", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  type Staff = { id: string; role: "admin" | "editor" };
  let admin: Staff;
  let secondAdmin: Staff;
  let editor: Staff;
  let buyer: { id: string; name: string; email: string };
  let reference = 0;
  const nextReference = () => `RFD${String(++reference).padStart(7, "0")}`;

  async function person(role: "user" | "editor" | "admin") {
    const id = randomUUID();
    const email = `${role}.${id.slice(0, 8)}@example.test`;
    await database.db.insert(user).values({ id, name: `Test ${role}`, email, role });
    return { id, name: `Test ${role}`, email, role };
  }

  const ticketLine = (): NewOrderLine => ({
    kind: "event_ticket",
    referenceId: randomUUID(),
    description: "Data Governance Summit — Conference Only",
    quantity: 2,
    unitAmountMinor: 5_000_00,
  });
  const membershipLine = (): NewOrderLine => ({
    kind: "membership_term",
    referenceId: randomUUID(),
    description: "Professional membership, 1 year",
    quantity: 1,
    unitAmountMinor: 10_000_00,
  });
  const newOrder = (overrides: Partial<NewOrder> = {}) =>
    createOrder({ buyer, currency: "KES", holdMs: 72 * HOUR, lines: [ticketLine()], ...overrides });

  const pay = (invoiceNumber: string, amountMinor: number, method: PaymentMethod = "mpesa") => ({
    method,
    reference: nextReference(),
    amountMinor,
    currency: "KES" as const,
    paidAt: new Date(),
    invoiceNumber,
  });
  const refund = (orderId: string, amountMinor: number) => ({
    orderId,
    amountMinor,
    method: "mpesa" as const,
    reference: nextReference(),
    reason: "Event cancelled",
  });

  async function orderRow(id: string) {
    const [row] = await database.db.select().from(orders).where(eq(orders.id, id));
    return row;
  }
  async function drainJobs() {
    while ((await runDueJobs({ limit: 50 })) > 0) {}
  }
  async function expiredOrder(overrides: Partial<NewOrder> = {}) {
    const created = await newOrder(overrides);
    await expireOrder(created.order.id, new Date(Date.now() + 100 * HOUR));
    return created;
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    setEnv(testEnv({ SMTP_URL: smtp.url, MPESA_PAYBILL: "522533", KES_RATES: "USD=129.50" }));
    const a = await person("admin");
    const a2 = await person("admin");
    const e = await person("editor");
    admin = { id: a.id, role: "admin" };
    secondAdmin = { id: a2.id, role: "admin" };
    editor = { id: e.id, role: "editor" };
    buyer = await person("user");
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("records a payment for an expired order as credit, tells the payer so, and lists it for staff", async () => {
    const { order, invoiceNumber } = await expiredOrder();
    const late = await recordPayment(pay(invoiceNumber, 10_000_00), editor);
    expect(late).toMatchObject({
      outcome: "matched",
      orderPaid: false,
      orderState: "expired",
      creditMinor: 10_000_00,
    });
    expect(await orderRow(order.id)).toMatchObject({ state: "expired", paidMinor: 10_000_00 });

    await drainJobs();
    const mail = await smtp.waitFor(buyer.email, new RegExp(`Receipt RCT-.* ${invoiceNumber}`));
    expect(mail.text).toContain(
      `We received KES 10,000.00 for invoice ${invoiceNumber}; the order had expired, so we will refund it or reinstate the order.`,
    );
    expect(mail.text).not.toContain("paid in full");

    for (const role of ["admin", "editor"] as const) {
      const listed = (await listOrdersNeedingAttention(role)).find((o) => o.id === order.id);
      expect(listed, role).toMatchObject({ state: "expired", creditMinor: 10_000_00 });
    }
  });

  it("records two full payments made at the same moment, pays the order once and lists the second as credit", async () => {
    const { order, invoiceNumber } = await newOrder();
    const results = await Promise.all([
      recordPayment(pay(invoiceNumber, 10_000_00), admin),
      recordPayment(pay(invoiceNumber, 10_000_00), editor),
    ]);
    expect(results.map((r) => r.outcome)).toEqual(["matched", "matched"]);
    expect(results.filter((r) => r.outcome === "matched" && r.orderPaid)).toHaveLength(1);
    expect(await orderRow(order.id)).toMatchObject({ state: "paid", paidMinor: 20_000_00 });
    const rows = await database.db.select().from(payments).where(eq(payments.orderId, order.id));
    expect(rows).toHaveLength(2);
    const [paidAudits] = await database.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, "order.paid"), eq(auditLog.entityId, order.id)));
    expect(paidAudits.n).toBe(1);
    const [unlocks] = await database.db
      .select({ n: count() })
      .from(jobs)
      .where(and(eq(jobs.kind, ORDER_JOBS.unlock), eq(jobs.uniqueKey, `order:${order.id}:unlock`)));
    expect(unlocks.n).toBe(1);
    const listed = (await listOrdersNeedingAttention("admin")).find((o) => o.id === order.id);
    expect(listed).toMatchObject({ state: "paid", creditMinor: 10_000_00 });

    await drainJobs();
    const texts = smtp.messages
      .filter((m) => m.subject.includes(invoiceNumber) && m.subject.startsWith("Receipt"))
      .map((m) => m.text);
    expect(texts).toHaveLength(2);
    expect(texts.filter((t) => t.includes("Your invoice is paid in full."))).toHaveLength(1);
    expect(
      texts.filter((t) =>
        t.includes(
          `We received KES 10,000.00 for invoice ${invoiceNumber}; the invoice was already paid in full, so we will refund it.`,
        ),
      ),
    ).toHaveLength(1);
  });

  it("refuses an amount above ten times the amount due, and bounds payments that match no invoice", async () => {
    const { order, invoiceNumber } = await newOrder();
    await recordPayment(pay(invoiceNumber, 4_000_00), admin); // 6,000.00 still due
    await expect(recordPayment(pay(invoiceNumber, 60_000_01), admin)).rejects.toMatchObject({
      message: AMOUNT_TOO_LARGE_MESSAGE,
      status: 400,
    });
    await expect(
      recordPayment(pay(invoiceNumber, 999_999_999_999_999), admin),
    ).rejects.toMatchObject({ message: AMOUNT_TOO_LARGE_MESSAGE });
    expect(await orderRow(order.id)).toMatchObject({
      state: "awaiting_payment",
      paidMinor: 4_000_00,
    });
    // Ten times exactly is accepted (and leaves credit).
    const tenTimes = await recordPayment(pay(invoiceNumber, 60_000_00), admin);
    expect(tenTimes).toMatchObject({ orderPaid: true, creditMinor: 54_000_00 });
    // Nothing is due now: a duplicate full payment is measured against the total.
    await expect(recordPayment(pay(invoiceNumber, 100_000_01), admin)).rejects.toMatchObject({
      message: AMOUNT_TOO_LARGE_MESSAGE,
    });
    expect(await recordPayment(pay(invoiceNumber, 10_000_00), admin)).toMatchObject({
      outcome: "matched",
      creditMinor: 64_000_00,
    });

    // Unmatched: kept as before, up to the bound.
    const kept = await recordPayment(pay("INV-1999-424242", MAX_UNMATCHED_PAYMENT_MINOR), admin);
    expect(kept.outcome).toBe("unmatched");
    await expect(
      recordPayment(pay("INV-1999-424242", MAX_UNMATCHED_PAYMENT_MINOR + 1), admin),
    ).rejects.toMatchObject({ status: 400 });
    // Matching it to a small invoice is held to the same sanity bound.
    const small = await newOrder();
    await expect(matchPayment(kept.paymentId, small.invoiceNumber, admin)).rejects.toMatchObject({
      message: AMOUNT_TOO_LARGE_MESSAGE,
    });
  });

  it("refunds in parts with gap-free credit notes, never more than was paid, and closes the order when all is refunded", async () => {
    const { order, invoiceNumber } = await newOrder();
    await recordPayment(pay(invoiceNumber, 10_000_00), admin);
    const year = new Date().getUTCFullYear();

    const first = await recordRefund(refund(order.id, 3_000_00), admin);
    expect(first.refund.creditNoteNumber).toMatch(new RegExp(`^CN-${year}-\\d{6}$`));
    expect(first.order).toMatchObject({ state: "paid", refundedMinor: 3_000_00 });

    await expect(recordRefund(refund(order.id, 7_000_01), admin)).rejects.toMatchObject({
      status: 400,
      message: "At most KES 7,000.00 can be refunded: what was paid and not refunded yet.",
    });
    await expect(recordRefund(refund(order.id, 1_00), editor)).rejects.toMatchObject({
      status: 403,
      message: "Only admins can record refunds.",
    });

    const second = await recordRefund(refund(order.id, 7_000_00), admin);
    expect(second.order).toMatchObject({ state: "refunded", refundedMinor: 10_000_00 });
    expect(second.refund.sequence).toBe(first.refund.sequence + 1);
    await expect(recordRefund(refund(order.id, 1), admin)).rejects.toMatchObject({
      message: "Nothing paid on this order is left to refund.",
    });

    const trail = await database.db
      .select({ action: auditLog.action, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.entityId, order.id))
      .orderBy(auditLog.createdAt);
    expect(trail.map((r) => r.action)).toEqual(["order.create", "order.paid", "order.refunded"]);
    const refundAudits = await database.db
      .select({ n: count() })
      .from(auditLog)
      .where(eq(auditLog.action, "refund.record"));
    expect(refundAudits[0].n).toBeGreaterThanOrEqual(2);

    await drainJobs();
    const mail = await smtp.waitFor(buyer.email, new RegExp(first.refund.creditNoteNumber));
    expect(mail.text).toContain(
      `We recorded a refund of KES 3,000.00 for invoice ${invoiceNumber}, by M-Pesa`,
    );
    const text = await pdfText(mail.attachments[0].content);
    expect(mail.attachments[0].filename).toBe(`${first.refund.creditNoteNumber}.pdf`);
    for (const expected of [
      `Credit note ${first.refund.creditNoteNumber}`,
      `Invoice: ${invoiceNumber}`,
      "Amount refunded: KES 3,000.00",
      "Reason: Event cancelled",
      "Refunded in total: KES 3,000.00",
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("numbers 30 concurrent refunds' credit notes without a gap or a repeat", async () => {
    const created = await Promise.all(Array.from({ length: 30 }, () => newOrder()));
    for (const { invoiceNumber } of created) {
      await recordPayment(pay(invoiceNumber, 10_000_00), admin);
    }
    await Promise.all(created.map(({ order }) => recordRefund(refund(order.id, 1_00), admin)));
    const sequences = (
      await database.db
        .select({ sequence: refunds.sequence })
        .from(refunds)
        .where(eq(refunds.year, new Date().getUTCFullYear()))
    )
      .map((r) => r.sequence)
      .sort((a, b) => a - b);
    expect(sequences).toEqual(Array.from({ length: sequences.length }, (_, i) => i + 1));
  });

  it("refunds never exceed what was paid, even when two admins refund at the same moment", async () => {
    const { order, invoiceNumber } = await newOrder();
    await recordPayment(pay(invoiceNumber, 10_000_00), admin);
    const outcomes = await Promise.allSettled([
      recordRefund(refund(order.id, 6_000_00), admin),
      recordRefund(refund(order.id, 6_000_00), secondAdmin),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await orderRow(order.id)).toMatchObject({ state: "paid", refundedMinor: 6_000_00 });
  });

  async function paymentRow(id: string) {
    const [row] = await database.db.select().from(payments).where(eq(payments.id, id));
    return row;
  }

  it("takes each refund from one payment: the latest with money left by default, never more than that payment has left", async () => {
    const { order, invoiceNumber } = await newOrder();
    const DAY = 24 * HOUR;
    const first = await recordPayment(
      { ...pay(invoiceNumber, 4_000_00), paidAt: new Date(Date.now() - 2 * DAY) },
      admin,
    );
    const second = await recordPayment(
      { ...pay(invoiceNumber, 6_000_00), paidAt: new Date(Date.now() - DAY) },
      admin,
    );
    expect(await orderRow(order.id)).toMatchObject({ state: "paid", paidMinor: 10_000_00 });

    // The order holds 10,000.00, but no single payment does.
    await expect(recordRefund(refund(order.id, 7_000_00), admin)).rejects.toMatchObject({
      status: 400,
    });
    const latest = await paymentRow(second.paymentId);
    await expect(recordRefund(refund(order.id, 7_000_00), admin)).rejects.toThrow(
      `At most KES 6,000.00 can be refunded from payment ${latest.reference}: what it paid and was not refunded yet.`,
    );
    // Unnamed: from the latest payment (the second).
    const part = await recordRefund(refund(order.id, 2_000_00), admin);
    expect(part.refund.paymentId).toBe(second.paymentId);
    expect(await paymentRow(second.paymentId)).toMatchObject({
      state: "partly_refunded",
      refundedMinor: 2_000_00,
    });
    // Named: the first payment, in whole.
    const whole = await recordRefund(
      { ...refund(order.id, 4_000_00), paymentId: first.paymentId },
      admin,
    );
    expect(whole.refund.paymentId).toBe(first.paymentId);
    expect(await paymentRow(first.paymentId)).toMatchObject({
      state: "refunded",
      refundedMinor: 4_000_00,
    });
    expect(whole.order).toMatchObject({ state: "paid", refundedMinor: 6_000_00 });
    // Nothing left on the first: named again, it is refused; unnamed goes to the second.
    await expect(
      recordRefund({ ...refund(order.id, 1), paymentId: first.paymentId }, admin),
    ).rejects.toMatchObject({ status: 400 });
    // A second part of the same payment keeps it partly refunded; the last part refunds it.
    await recordRefund(refund(order.id, 1_000_00), admin);
    expect(await paymentRow(second.paymentId)).toMatchObject({
      state: "partly_refunded",
      refundedMinor: 3_000_00,
    });
    const last = await recordRefund(
      { ...refund(order.id, 3_000_00), paymentId: second.paymentId },
      admin,
    );
    expect(await paymentRow(second.paymentId)).toMatchObject({
      state: "refunded",
      refundedMinor: 6_000_00,
    });
    expect(last.order).toMatchObject({ state: "refunded", refundedMinor: 10_000_00 });

    // Each payment's moves are audited with the credit note that moved it.
    const moves = await database.db
      .select({ action: auditLog.action, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.entity, "payment"), eq(auditLog.entityId, second.paymentId)))
      .orderBy(auditLog.createdAt);
    expect(moves.map((m) => m.action)).toEqual([
      "payment.record",
      "payment.partly_refunded",
      "payment.refunded",
    ]);
    expect(moves[2].details).toMatchObject({
      from: "partly_refunded",
      to: "refunded",
      refundedMinor: 6_000_00,
      creditNote: last.refund.creditNoteNumber,
    });

    // A payment of another order is refused, and a refused refund takes no credit note number.
    const other = await newOrder();
    const otherPayment = await recordPayment(pay(other.invoiceNumber, 10_000_00), admin);
    const [before] = await database.db.select({ n: count() }).from(refunds);
    await expect(
      recordRefund({ ...refund(order.id, 1), paymentId: otherPayment.paymentId }, admin),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      recordRefund({ ...refund(other.order.id, 1), paymentId: first.paymentId }, admin),
    ).rejects.toThrow("This payment is not on this order; choose one of its payments.");
    const [after] = await database.db.select({ n: count() }).from(refunds);
    expect(after.n).toBe(before.n);
    expect(await paymentRow(otherPayment.paymentId)).toMatchObject({
      state: "recorded",
      refundedMinor: 0,
    });
  });

  it("two refunds at the same moment never take more than their payment has, though the order holds more", async () => {
    const { order, invoiceNumber } = await newOrder();
    const paid = await recordPayment(pay(invoiceNumber, 10_000_00), admin);
    await recordPayment(pay(invoiceNumber, 10_000_00), admin); // paid twice: 20,000.00 held
    const outcomes = await Promise.allSettled([
      recordRefund({ ...refund(order.id, 6_000_00), paymentId: paid.paymentId }, admin),
      recordRefund({ ...refund(order.id, 6_000_00), paymentId: paid.paymentId }, secondAdmin),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await paymentRow(paid.paymentId)).toMatchObject({
      state: "partly_refunded",
      refundedMinor: 6_000_00,
    });
    expect(await orderRow(order.id)).toMatchObject({ state: "paid", refundedMinor: 6_000_00 });
  });

  // Its receipt mail waits for the jobs queued by the tests above (PDFs), slow on a loaded machine.
  it("records shillings against a foreign-currency invoice at the configured rate, rounded down, with what arrived and the rate", {
    timeout: 120_000,
  }, async () => {
    const usdLine = { ...ticketLine(), quantity: 1, unitAmountMinor: 100_00 };
    const { order, invoiceNumber } = await newOrder({ currency: "USD", lines: [usdLine] });
    // KES 9,100.00 at 129.50 KES/USD is USD 70.2702…: USD 70.27 is credited, never more.
    const kes = await recordPayment(pay(invoiceNumber, 9_100_00), editor);
    expect(kes).toMatchObject({
      outcome: "matched",
      orderPaid: false,
      amountMinor: 70_27,
      currency: "USD",
      received: { receivedMinor: 9_100_00, receivedCurrency: "KES", exchangeRate: "129.50" },
    });
    expect(await paymentRow(kes.paymentId)).toMatchObject({
      orderId: order.id,
      amountMinor: 70_27,
      currency: "USD",
      receivedMinor: 9_100_00,
      receivedCurrency: "KES",
      exchangeRate: "129.50",
    });
    expect(await orderRow(order.id)).toMatchObject({ state: "awaiting_payment", paidMinor: 70_27 });
    const [audit] = await database.db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, "payment.record"), eq(auditLog.entityId, kes.paymentId)));
    expect(audit.details).toMatchObject({
      amountMinor: 70_27,
      currency: "USD",
      receivedMinor: 9_100_00,
      exchangeRate: "129.50",
    });
    // The receipt and the payments list show what arrived and the rate.
    const detail = await getOrderForViewer(order.id, admin);
    const receiptId = detail?.payments.find((p) => p.id === kes.paymentId)?.receipt?.id ?? "";
    expect(detail && receiptDocument(detail, receiptId)).toMatchObject({
      amountMinor: 70_27,
      currency: "USD",
      received: { kesMinor: 9_100_00, rateLabel: "129.50 KES/USD" },
    });
    expect((await listRecentPayments("admin")).find((p) => p.id === kes.paymentId)).toMatchObject({
      receivedMinor: 9_100_00,
      exchangeRate: "129.50",
    });
    await drainJobs();
    const receiptMail = await smtp.waitFor(
      buyer.email,
      new RegExp(`Receipt RCT-.* ${invoiceNumber}`),
    );
    expect(receiptMail.text).toContain(
      `We received USD 70.27 (KES 9,100.00 at 129.50 KES/USD) for invoice ${invoiceNumber} by M-Pesa`,
    );
    expect(await pdfText(receiptMail.attachments[0].content)).toContain(
      "KES 9,100.00 at 129.50 KES/USD",
    );

    // Less than a cent of the invoice's currency, another foreign currency, a currency with no
    // rate configured: refused with the reason, nothing recorded.
    await expect(recordPayment(pay(invoiceNumber, 1), editor)).rejects.toMatchObject({
      status: 400,
      message: "KES 0.01 is less than USD 0.01 at 129.50 KES/USD; check the amount.",
    });
    await expect(
      recordPayment({ ...pay(invoiceNumber, 20_00), currency: "GBP" }, editor),
    ).rejects.toMatchObject({
      status: 400,
      message: "The invoice is in USD; record the payment in it.",
    });
    const eur = await newOrder({ currency: "EUR", lines: [usdLine] });
    await expect(recordPayment(pay(eur.invoiceNumber, 9_100_00), editor)).rejects.toMatchObject({
      status: 400,
      message:
        "The invoice is in EUR and no KES rate is configured for it; record the payment in EUR.",
    });
    // The amount sanity bound applies to the converted amount: KES 38,502.00 is USD 297.31,
    // more than ten times the USD 29.73 due.
    await expect(recordPayment(pay(invoiceNumber, 38_502_00), editor)).rejects.toMatchObject({
      message: AMOUNT_TOO_LARGE_MESSAGE,
    });
    expect(await orderRow(order.id)).toMatchObject({ paidMinor: 70_27 });

    // Shillings kept unmatched are converted when matched to the invoice; the rest pays it.
    const kept = await recordPayment(pay("INV-1999-616161", 3_850_00), admin);
    expect(kept.outcome).toBe("unmatched");
    const matched = await matchPayment(kept.paymentId, invoiceNumber, admin);
    expect(matched).toMatchObject({ orderPaid: false });
    expect(await paymentRow(kept.paymentId)).toMatchObject({
      amountMinor: 29_72,
      currency: "USD",
      receivedMinor: 3_850_00,
      receivedCurrency: "KES",
      exchangeRate: "129.50",
    });
    // 70.27 + 29.72 = 99.99: rounding down leaves the order a cent short, and a cent in USD pays it.
    expect(await orderRow(order.id)).toMatchObject({
      state: "awaiting_payment",
      paidMinor: 99_99,
    });
    const cent = await recordPayment({ ...pay(invoiceNumber, 1), currency: "USD" }, admin);
    expect(cent).toMatchObject({ orderPaid: true, received: null });
    // A converted payment is refunded in the invoice's currency, up to what it credited.
    await expect(
      recordRefund({ ...refund(order.id, 70_28), paymentId: kes.paymentId }, admin),
    ).rejects.toMatchObject({ status: 400 });
    const back = await recordRefund(
      { ...refund(order.id, 70_27), paymentId: kes.paymentId },
      admin,
    );
    expect(back.refund).toMatchObject({ amountMinor: 70_27, currency: "USD" });
    expect(await paymentRow(kes.paymentId)).toMatchObject({ state: "refunded" });
  });

  it("reinstates a closed order its payments cover, and refuses one they do not", async () => {
    const membership = await expiredOrder({ lines: [membershipLine()] });
    await recordPayment(pay(membership.invoiceNumber, 4_000_00), admin);
    await expect(reinstateOrder(membership.order.id, admin)).rejects.toThrow(
      "The payments held (KES 4,000.00) do not cover the total (KES 10,000.00); refund them instead.",
    );
    await recordPayment(pay(membership.invoiceNumber, 6_000_00), admin);
    // Editors handle event orders only.
    await expect(reinstateOrder(membership.order.id, editor)).rejects.toMatchObject({
      status: 403,
    });
    const reinstated = await reinstateOrder(membership.order.id, admin);
    expect(reinstated).toMatchObject({ state: "paid", closedAt: null });
    const [audit] = await database.db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, "order.paid"), eq(auditLog.entityId, membership.order.id)));
    expect(audit.details).toMatchObject({ from: "expired", to: "paid", reinstated: true });
    const [unlock] = await database.db
      .select({ n: count() })
      .from(jobs)
      .where(eq(jobs.uniqueKey, `order:${membership.order.id}:unlock`));
    expect(unlock.n).toBe(1);
    expect(
      (await listOrdersNeedingAttention("admin")).some((o) => o.id === membership.order.id),
    ).toBe(false);
    // Once paid, there is nothing to reinstate.
    await expect(reinstateOrder(membership.order.id, admin)).rejects.toThrow(
      "Only an expired or cancelled order can be reinstated; this one is paid.",
    );

    // A ticket order cannot be reinstated without its seats being taken back.
    const tickets = await expiredOrder();
    await recordPayment(pay(tickets.invoiceNumber, 10_000_00), admin);
    await expect(reinstateOrder(tickets.order.id, admin)).rejects.toMatchObject({
      status: 409,
    });
    expect((await orderRow(tickets.order.id)).state).toBe("expired");
  });

  it("refuses a buyer cancelling a part-paid order; staff can, and its money is listed to refund", async () => {
    const { order, invoiceNumber } = await newOrder();
    await recordPayment(pay(invoiceNumber, 2_500_00), admin);
    await expect(cancelOrder(order.id, { id: buyer.id, role: "user" })).rejects.toMatchObject({
      status: 409,
      message: PART_PAID_CANCEL_MESSAGE,
    });
    expect((await orderRow(order.id)).state).toBe("awaiting_payment");
    await cancelOrder(order.id, editor, "Attendee asked by phone");
    expect(await orderRow(order.id)).toMatchObject({ state: "cancelled", paidMinor: 2_500_00 });
    const listed = (await listOrdersNeedingAttention("editor")).find((o) => o.id === order.id);
    expect(listed).toMatchObject({ state: "cancelled", creditMinor: 2_500_00 });
    // Refunding it empties the list entry; the order stays cancelled.
    await recordRefund(refund(order.id, 2_500_00), admin);
    expect(await orderRow(order.id)).toMatchObject({ state: "cancelled", refundedMinor: 2_500_00 });
    expect((await listOrdersNeedingAttention("admin")).some((o) => o.id === order.id)).toBe(false);
  });

  it("keeps staff away from their own orders' money and cash to admins", async () => {
    const ownByAdmin = await createOrder({
      buyer: { id: admin.id, name: "Admin buying", email: "admin.buying@example.test" },
      currency: "KES",
      holdMs: 72 * HOUR,
      lines: [ticketLine()],
    });
    await expect(
      recordPayment(pay(ownByAdmin.invoiceNumber, 10_000_00, "cash"), admin),
    ).rejects.toMatchObject({
      status: 403,
      message:
        "You bought this order, so you cannot record a payment for it; ask another staff member.",
    });
    const ownByEditor = await createOrder({
      buyer: { id: editor.id, name: "Editor buying", email: "editor.buying@example.test" },
      currency: "KES",
      holdMs: 72 * HOUR,
      lines: [ticketLine()],
    });
    await expect(
      recordPayment(pay(ownByEditor.invoiceNumber, 10_000_00), editor),
    ).rejects.toMatchObject({ status: 403 });
    expect((await orderRow(ownByEditor.order.id)).paidMinor).toBe(0);
    // Another staff member may.
    const paid = await recordPayment(pay(ownByEditor.invoiceNumber, 10_000_00), admin);
    expect(paid).toMatchObject({ orderPaid: true });
    await expect(recordRefund(refund(ownByAdmin.order.id, 1), admin)).rejects.toMatchObject({
      status: 403,
    });

    const { invoiceNumber } = await newOrder();
    for (const method of ["cash", "other"] as const) {
      await expect(
        recordPayment({ ...pay(invoiceNumber, 10_000_00), method }, editor),
      ).rejects.toMatchObject({
        status: 403,
        message: "Only admins can record cash and other payments.",
      });
    }
    // Editors cannot match a payment kept unmatched (they never see them).
    const kept = await recordPayment(pay("INV-1999-515151", 10_000_00), admin);
    await expect(matchPayment(kept.paymentId, invoiceNumber, editor)).rejects.toMatchObject({
      status: 403,
    });
  });

  it("shows an editor event orders and their own, never another person's membership order", async () => {
    const membership = await newOrder({ lines: [membershipLine()] });
    const ticket = await newOrder();
    const editorsOwn = await createOrder({
      buyer: { id: editor.id, name: "Editor", email: "editor.own@example.test" },
      currency: "KES",
      holdMs: HOUR,
      lines: [membershipLine()],
    });
    expect(await getOrderForViewer(membership.order.id, editor)).toBeNull();
    expect(await getOrderForViewer(membership.order.id, admin)).not.toBeNull();
    expect(
      await getOrderForViewer(membership.order.id, { id: buyer.id, role: "user" }),
    ).not.toBeNull();
    expect(await getOrderForViewer(ticket.order.id, editor)).not.toBeNull();
    expect(await getOrderForViewer(editorsOwn.order.id, editor)).not.toBeNull();
    expect(await getOrderForViewer(ticket.order.id, { id: randomUUID(), role: "user" })).toBeNull();
  });
});
