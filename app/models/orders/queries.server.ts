// Reads of orders, invoices, payments and receipts. Who may see what is decided here, in the
// query: an order is visible to its buyer and to staff; to anyone else it does not exist (404).
import { and, asc, desc, eq, exists, isNull, lt, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { invoices, orderLines, orders, payments, receipts, user } from "~/db/schema";
import { balanceOf } from "~/lib/money";
import { PAYMENT_METHOD_LABELS } from "~/lib/payments/methods";
import { offlineProvider } from "~/lib/payments/offline.server";
import type { PaymentInstruction } from "~/lib/payments/provider";
import type { InvoiceDocument, ReceiptDocument } from "~/lib/pdf/order-documents.server";
import { hasRole, type Role } from "~/lib/roles";

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
    .where(eq(orders.id, orderId));
  if (!row) return null;
  if (row.order.buyerId !== viewer.id && !hasRole(viewer.role, "editor")) return null;
  const [lines, paid] = await Promise.all([
    db.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.id)),
    db
      .select({ payment: payments, receipt: receipts })
      .from(payments)
      .leftJoin(receipts, eq(receipts.paymentId, payments.id))
      .where(eq(payments.orderId, orderId))
      .orderBy(asc(payments.paidAt)),
  ]);
  const { order, invoice } = row;
  const instructions: PaymentInstruction[] =
    order.state === "awaiting_payment"
      ? await paymentInstructions(
          order.id,
          invoice.number,
          order.currency,
          order.totalMinor - order.paidMinor,
          order.billingEmail,
        )
      : [];
  return {
    order,
    invoice,
    lines,
    payments: paid.map(({ payment, receipt }) => ({ ...payment, receipt })),
    ...balanceOf(order.totalMinor, order.paidMinor),
    instructions,
  };
}

export type OrderDetail = NonNullable<Awaited<ReturnType<typeof getOrderForViewer>>>;

async function paymentInstructions(
  id: string,
  invoiceNumber: string,
  currency: string,
  dueMinor: number,
  billingEmail: string,
) {
  const start = await offlineProvider.createPayment({
    id,
    invoiceNumber,
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

function documentLines(lines: (typeof orderLines.$inferSelect)[]) {
  return lines.map(({ description, quantity, unitAmountMinor, lineTotalMinor }) => ({
    description,
    quantity,
    unitAmountMinor,
    lineTotalMinor,
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
    reference: payment.reference,
    paidAt: payment.paidAt,
    amountMinor: payment.amountMinor,
    totalMinor: detail.order.totalMinor,
    paidMinor: paidUpTo,
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
