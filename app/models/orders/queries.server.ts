// Reads of orders, invoices, payments, receipts and refunds. Who may see what is decided here, in
// the query: an order is visible to its buyer, to admins, and to editors when it is an event
// order (issue 26); to anyone else it does not exist (404).
import { and, asc, desc, eq, exists, isNull, lt, or, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import {
  eventFees,
  events,
  invoices,
  membershipTerms,
  orderLines,
  orders,
  payments,
  receipts,
  refunds,
  registrations,
  user,
} from "~/db/schema";
import { formatKesRate } from "~/lib/exchange-rates";
import { PAYMENT_METHOD_LABELS } from "~/lib/payments/methods";
import { offlineProvider } from "~/lib/payments/offline.server";
import type { PaymentInstruction } from "~/lib/payments/provider";
import type {
  CreditNoteDocument,
  InvoiceDocument,
  ReceiptDocument,
} from "~/lib/pdf/order-documents.server";
import { hasRole, type Role } from "~/lib/roles";
import { orderBalance } from "./balance";
import type { PaymentRow } from "./payments.server";

export type Viewer = { id: string; role: Role };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The order with everything its page and documents show, or null (missing or not the viewer's). */
export async function getOrderForViewer(orderId: string, viewer: Viewer) {
  if (!UUID.test(orderId)) return null;
  const db = getDb();
  const [row] = await db
    .select({ order: orders, invoice: invoices })
    .from(orders)
    .innerJoin(invoices, eq(invoices.orderId, orders.id))
    .where(
      and(
        eq(orders.id, orderId),
        hasRole(viewer.role, "admin")
          ? undefined
          : hasRole(viewer.role, "editor")
            ? or(eq(orders.buyerId, viewer.id), scopeFor(viewer.role))
            : eq(orders.buyerId, viewer.id),
      ),
    );
  if (!row) return null;
  const [lines, paid, refunded] = await Promise.all([
    linesWithDates(orderId),
    db
      .select({ payment: payments, receipt: receipts })
      .from(payments)
      .leftJoin(receipts, eq(receipts.paymentId, payments.id))
      .where(eq(payments.orderId, orderId))
      .orderBy(asc(payments.paidAt)),
    db.select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(asc(refunds.sequence)),
  ]);
  const { order, invoice } = row;
  const instructions: PaymentInstruction[] =
    order.state === "awaiting_payment"
      ? await paymentInstructions(
          order.id,
          invoice.number,
          invoice.paymentReference,
          order.currency,
          orderBalance(order).dueMinor,
          order.billingEmail,
        )
      : [];
  return {
    order,
    invoice,
    lines,
    payments: paid.map(({ payment, receipt }) => ({ ...payment, receipt })),
    refunds: refunded,
    ...orderBalance(order),
    instructions,
  };
}

export type OrderDetail = NonNullable<Awaited<ReturnType<typeof getOrderForViewer>>>;

/** The order's lines with what the documents print under them: a ticket's event dates, a term's. */
async function linesWithDates(orderId: string) {
  const rows = await getDb()
    .select({
      line: orderLines,
      event: { startsAt: events.startDate, endsAt: events.endDate, timeZone: events.timeZone },
      term: { startsAt: membershipTerms.startsAt, endsAt: membershipTerms.endsAt },
    })
    .from(orderLines)
    .leftJoin(
      eventFees,
      and(
        eq(orderLines.kind, "event_ticket"),
        sql`${eventFees.id} = case when ${orderLines.referenceId} ~* ${UUID.source}
          then ${orderLines.referenceId}::uuid end`,
      ),
    )
    .leftJoin(events, eq(events.id, eventFees.eventId))
    .leftJoin(
      membershipTerms,
      and(eq(orderLines.kind, "membership_term"), eq(membershipTerms.orderId, orderLines.orderId)),
    )
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.id));
  return rows.map(({ line, event, term }) => ({
    ...line,
    event: event?.startsAt && event.endsAt && event.timeZone ? event : null,
    term: line.kind === "membership_term" ? (term ?? { startsAt: null, endsAt: null }) : null,
  }));
}

async function paymentInstructions(
  id: string,
  invoiceNumber: string,
  paymentReference: string,
  currency: string,
  dueMinor: number,
  billingEmail: string,
) {
  const start = await offlineProvider.createPayment({
    id,
    invoiceNumber,
    paymentReference,
    currency,
    dueMinor,
    billingEmail,
  });
  return start.kind === "instructions" ? start.instructions : [];
}

/** The buyer's orders, newest first ("My orders" on the profile). */
export async function listOrdersForBuyer(buyerId: string) {
  return getDb()
    .select({
      id: orders.id,
      state: orders.state,
      currency: orders.currency,
      totalMinor: orders.totalMinor,
      paidMinor: orders.paidMinor,
      createdAt: orders.createdAt,
      invoiceNumber: invoices.number,
      description: sql<string>`(select ${orderLines.description} from ${orderLines}
        where ${orderLines.orderId} = ${orders.id} order by ${orderLines.id} limit 1)`,
    })
    .from(orders)
    .innerJoin(invoices, eq(invoices.orderId, orders.id))
    .where(eq(orders.buyerId, buyerId))
    .orderBy(desc(orders.createdAt))
    .limit(100);
}

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------
function party(order: typeof orders.$inferSelect) {
  return {
    name: order.buyerName,
    email: order.billingEmail,
    organisationName: order.organisationName,
    taxId: order.taxId,
  };
}

function documentLines(lines: OrderDetail["lines"]) {
  return lines.map(({ description, quantity, unitAmountMinor, lineTotalMinor, event, term }) => ({
    description,
    quantity,
    unitAmountMinor,
    lineTotalMinor,
    event,
    term,
  }));
}

export function invoiceDocument(detail: OrderDetail): InvoiceDocument {
  return {
    invoiceNumber: detail.invoice.number,
    issuedAt: detail.invoice.issuedAt,
    dueAt: detail.order.expiresAt,
    state: detail.order.state,
    buyer: party(detail.order),
    currency: detail.order.currency,
    lines: documentLines(detail.lines),
    totalMinor: detail.order.totalMinor,
    paidMinor: detail.order.paidMinor,
    instructions: detail.instructions,
  };
}

/** "QJK3H7Y2PL", or what is known of it, for payments M-Pesa reported by itself; else null. */
export function mpesaReceiptLabel(payment: Pick<PaymentRow, "mpesaReceipt" | "receiptStatus">) {
  if (!payment.receiptStatus) return null;
  if (!payment.mpesaReceipt) return "M-Pesa receipt to be matched";
  return payment.receiptStatus === "reported"
    ? `${payment.mpesaReceipt} (reported by the callback)`
    : payment.mpesaReceipt;
}

/** Shillings that arrived against an invoice in another currency, with the rate used; else null. */
export function receivedOf(
  payment: Pick<PaymentRow, "currency" | "receivedMinor" | "receivedCurrency" | "exchangeRate">,
) {
  if (payment.receivedMinor === null || payment.exchangeRate === null) return null;
  return {
    kesMinor: payment.receivedMinor,
    rateLabel: formatKesRate(payment.exchangeRate, payment.currency),
  };
}

export function receiptDocument(detail: OrderDetail, receiptId: string): ReceiptDocument | null {
  const payment = detail.payments.find((p) => p.receipt?.id === receiptId);
  if (!payment?.receipt) return null;
  // The balance as it stood once this payment was in (later payments are not on this receipt).
  const paidUpTo = detail.payments
    .filter((p) => p.receipt && p.receipt.number <= (payment.receipt?.number ?? ""))
    .reduce((sum, p) => sum + p.amountMinor, 0);
  return {
    receiptNumber: payment.receipt.number,
    issuedAt: payment.receipt.issuedAt,
    invoiceNumber: detail.invoice.number,
    buyer: party(detail.order),
    currency: payment.currency,
    method: PAYMENT_METHOD_LABELS[payment.method],
    // An M-Pesa payment the system recorded names its M-Pesa receipt (issue 34), not the push's key.
    reference: mpesaReceiptLabel(payment) ?? payment.reference,
    paidAt: payment.paidAt,
    amountMinor: payment.amountMinor,
    received: receivedOf(payment),
    totalMinor: detail.order.totalMinor,
    paidMinor: paidUpTo,
    lines: documentLines(detail.lines),
  };
}

export function creditNoteDocument(
  detail: OrderDetail,
  refundId: string,
): CreditNoteDocument | null {
  const refund = detail.refunds.find((r) => r.id === refundId);
  if (!refund) return null;
  // What had been refunded once this credit note was issued (later ones are not on it).
  const refundedUpTo = detail.refunds
    .filter(
      (r) => r.year < refund.year || (r.year === refund.year && r.sequence <= refund.sequence),
    )
    .reduce((sum, r) => sum + r.amountMinor, 0);
  return {
    creditNoteNumber: refund.creditNoteNumber,
    issuedAt: refund.createdAt,
    invoiceNumber: detail.invoice.number,
    buyer: party(detail.order),
    currency: refund.currency,
    method: PAYMENT_METHOD_LABELS[refund.method],
    reference: refund.reference,
    reason: refund.reason,
    amountMinor: refund.amountMinor,
    totalMinor: detail.order.totalMinor,
    paidMinor: detail.order.paidMinor,
    refundedMinor: refundedUpTo,
    lines: documentLines(detail.lines),
  };
}

/** Loads an order as the system sees it (jobs): the viewer is an admin. */
export function getOrderForSystem(orderId: string) {
  return getOrderForViewer(orderId, { id: "system", role: "admin" });
}

// ---------------------------------------------------------------------------------------------
// Reconciliation (back office)
// ---------------------------------------------------------------------------------------------
/** Editors see event orders only; admins everything. */
function scopeFor(role: Role) {
  if (hasRole(role, "admin")) return undefined;
  return sql`not exists (select 1 from ${orderLines} where ${orderLines.orderId} = ${orders.id}
    and ${orderLines.kind} <> 'event_ticket')`;
}

export async function listOrdersAwaitingPayment(role: Role, now = new Date()) {
  const rows = await getDb()
    .select({
      id: orders.id,
      invoiceNumber: invoices.number,
      buyerName: orders.buyerName,
      organisationName: orders.organisationName,
      currency: orders.currency,
      totalMinor: orders.totalMinor,
      paidMinor: orders.paidMinor,
      expiresAt: orders.expiresAt,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .innerJoin(invoices, eq(invoices.orderId, orders.id))
    .where(and(eq(orders.state, "awaiting_payment"), scopeFor(role)))
    .orderBy(asc(orders.expiresAt))
    .limit(200);
  return rows.map((row) => ({ ...row, overdue: row.expiresAt < now }));
}

export async function listUnmatchedPayments(role: Role) {
  if (!hasRole(role, "admin")) return [];
  return getDb()
    .select({
      id: payments.id,
      method: payments.method,
      reference: payments.reference,
      payerAccount: payments.payerAccount,
      amountMinor: payments.amountMinor,
      currency: payments.currency,
      paidAt: payments.paidAt,
      proofKey: payments.proofKey,
    })
    .from(payments)
    .where(isNull(payments.orderId))
    .orderBy(desc(payments.createdAt))
    .limit(200);
}

export async function listRecentPayments(role: Role) {
  return getDb()
    .select({
      id: payments.id,
      orderId: payments.orderId,
      invoiceNumber: invoices.number,
      method: payments.method,
      reference: payments.reference,
      amountMinor: payments.amountMinor,
      currency: payments.currency,
      receivedMinor: payments.receivedMinor,
      receivedCurrency: payments.receivedCurrency,
      exchangeRate: payments.exchangeRate,
      state: payments.state,
      refundedMinor: payments.refundedMinor,
      paidAt: payments.paidAt,
      proofKey: payments.proofKey,
      recordedBy: user.name,
      receiptNumber: receipts.number,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .innerJoin(invoices, eq(invoices.orderId, orders.id))
    .leftJoin(receipts, eq(receipts.paymentId, payments.id))
    .leftJoin(user, eq(user.id, payments.recordedBy))
    .where(scopeFor(role))
    .orderBy(desc(payments.createdAt))
    .limit(50);
}

/**
 * Orders holding money they do not keep (issue 26): payments on expired or cancelled orders,
 * over-payments and duplicate payments on paid ones, and paid orders whose registration staff
 * cancelled. Staff refund the money or (a closed order) reinstate the order.
 */
export async function listOrdersNeedingAttention(role: Role) {
  const held = sql`(${orders.paidMinor} - ${orders.refundedMinor})`;
  // A paid order whose registration was cancelled keeps nothing of what it was paid.
  const registrationCancelled = sql`(exists (select 1 from ${registrations}
      where ${registrations.orderId} = ${orders.id} and ${registrations.state} = 'cancelled')
    and not exists (select 1 from ${registrations} where ${registrations.orderId} = ${orders.id}
      and ${registrations.state} in ('confirmed', 'awaiting_payment')))`;
  const kept = sql`(case when ${orders.state} = 'paid' and not ${registrationCancelled}
      then least(${orders.totalMinor}, ${held})
    when ${orders.state} = 'awaiting_payment' then ${held} else 0 end)`;
  const rows = await getDb()
    .select({
      id: orders.id,
      invoiceNumber: invoices.number,
      buyerId: orders.buyerId,
      buyerName: orders.buyerName,
      organisationName: orders.organisationName,
      state: orders.state,
      currency: orders.currency,
      totalMinor: orders.totalMinor,
      paidMinor: orders.paidMinor,
      refundedMinor: orders.refundedMinor,
      creditMinor: sql<string>`(${held} - ${kept})::text`,
      registrationCancelled: sql<boolean>`${registrationCancelled}`,
      closedAt: orders.closedAt,
    })
    .from(orders)
    .innerJoin(invoices, eq(invoices.orderId, orders.id))
    .where(and(sql`${held} - ${kept} > 0`, scopeFor(role)))
    .orderBy(desc(orders.createdAt))
    .limit(200);
  return rows.map((row) => ({
    ...row,
    // The difference of two exact columns, read as text: exact (decision 0072).
    creditMinor: Number.parseInt(row.creditMinor, 10),
    registrationCancelled: Boolean(row.registrationCancelled),
  }));
}

/** The order of a registration when it holds money not yet refunded (staff are sent to refund). */
export async function refundableOrderOfRegistration(registrationId: string) {
  if (!UUID.test(registrationId)) return null;
  const [row] = await getDb()
    .select({ orderId: orders.id })
    .from(registrations)
    .innerJoin(orders, eq(orders.id, registrations.orderId))
    .where(
      and(eq(registrations.id, registrationId), sql`${orders.paidMinor} > ${orders.refundedMinor}`),
    );
  return row?.orderId ?? null;
}

/** The stored proof of a payment, if the viewer may see it. */
export async function getPaymentProofKey(paymentId: string, role: Role) {
  if (!UUID.test(paymentId)) return null;
  const [row] = await getDb()
    .select({ proofKey: payments.proofKey, orderId: payments.orderId })
    .from(payments)
    .where(
      and(
        eq(payments.id, paymentId),
        hasRole(role, "admin")
          ? undefined
          : exists(
              getDb()
                .select({ one: sql`1` })
                .from(orders)
                .where(and(eq(orders.id, payments.orderId), scopeFor(role))),
            ),
      ),
    );
  return row?.proofKey ?? null;
}

/** Orders still awaiting payment after their hold (the expiry sweep's work list). */
export async function listExpiredHolds(now = new Date()) {
  const rows = await getDb()
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.state, "awaiting_payment"), lt(orders.expiresAt, now)))
    .limit(500);
  return rows.map((r) => r.id);
}
