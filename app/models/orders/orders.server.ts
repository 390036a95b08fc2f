// Orders: every way an order, its invoice, its payments and receipts can change, one exported
// function per transition, each in one transaction with its audit row (style.md rule 11).
// E-mails and "what the order unlocks" are jobs enqueued in the same transaction (decision 0025).
import { and, eq, sql } from "drizzle-orm";
import { type DbTransaction, getDb } from "~/db/client.server";
import {
  type Currency,
  documentCounters,
  invoices,
  type OrderLineKind,
  type OrderRow,
  type OrderState,
  orderLines,
  orders,
  type PaymentMethod,
  payments,
  receipts,
} from "~/db/schema";
import { recordAuditIn } from "~/lib/audit.server";
import { hasRole, type Role } from "~/lib/roles";
import { enqueueJob } from "~/models/jobs.server";
import { ORDER_JOBS } from "./job-kinds";
// Whoever can enqueue the order jobs has their handlers registered with the worker.
import "./order-jobs.server";

export type Tx = DbTransaction;

/** Who does something: a signed-in person (with the request for the audit row) or the system. */
export type Actor = { id: string; role: Role; request?: Request | null } | { system: string };

/** Every legal state change of an order; anything else is refused. */
export const ORDER_TRANSITIONS: Record<OrderState, readonly OrderState[]> = {
  awaiting_payment: ["paid", "cancelled", "expired"],
  paid: ["refunded"],
  cancelled: [],
  expired: [],
  refunded: [],
};

export class OrderError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 403 | 404 | 409 = 409,
  ) {
    super(message);
  }
}

/**
 * What else closes with an order (an unpaid registration's seats, issue 15): runs inside the
 * transaction that cancels or expires the order, after the order row is locked and changed.
 */
export type OrderClosedHandler = (
  tx: Tx,
  order: OrderRow,
  change: { to: "cancelled" | "expired"; actor: Actor; reason?: string },
) => Promise<void>;
const closedHandlers: OrderClosedHandler[] = [];

export function onOrderClosed(handler: OrderClosedHandler) {
  if (!closedHandlers.includes(handler)) closedHandlers.push(handler);
}

export function canTransition(from: OrderState, to: OrderState) {
  return ORDER_TRANSITIONS[from].includes(to);
}

function actorId(actor: Actor) {
  return "id" in actor ? actor.id : null;
}

function audit(tx: Tx, actor: Actor, action: string, entityId: string, details: object) {
  return recordAuditIn(tx, "id" in actor ? (actor.request ?? null) : null, {
    action,
    actorId: actorId(actor),
    entity: action.split(".")[0],
    entityId,
    details: { ...details, ...("system" in actor ? { by: actor.system } : {}) },
  });
}

/** Next number of a gap-free series: the counter row stays locked until the transaction ends. */
async function nextInSeries(tx: Tx, series: string): Promise<number> {
  const [row] = await tx
    .insert(documentCounters)
    .values({ series, last: 1 })
    .onConflictDoUpdate({
      target: documentCounters.series,
      set: { last: sql`${documentCounters.last} + 1` },
    })
    .returning({ last: documentCounters.last });
  return row.last;
}

export function documentNumber(prefix: "INV" | "RCT", year: number, sequence: number) {
  return `${prefix}-${year}-${String(sequence).padStart(6, "0")}`;
}

async function lockOrder(tx: Tx, orderId: string): Promise<OrderRow> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  if (!order) throw new OrderError("Order not found", 404);
  return order;
}

async function changeState(
  tx: Tx,
  order: OrderRow,
  to: OrderState,
  actor: Actor,
  extra: Partial<typeof orders.$inferInsert> = {},
  details: object = {},
) {
  if (!canTransition(order.state, to)) {
    throw new OrderError(`An order that is ${order.state.replace("_", " ")} cannot become ${to}.`);
  }
  const now = new Date();
  const [updated] = await tx
    .update(orders)
    .set({ state: to, ...(to === "paid" ? { paidAt: now } : { closedAt: now }), ...extra })
    .where(eq(orders.id, order.id))
    .returning();
  await audit(tx, actor, `order.${to}`, order.id, { from: order.state, to, ...details });
  if (to === "cancelled" || to === "expired") {
    const reason = "reason" in details ? String(details.reason) : undefined;
    for (const handler of closedHandlers) await handler(tx, updated, { to, actor, reason });
  }
  return updated;
}

// ---------------------------------------------------------------------------------------------
// Creating an order (with its invoice)
// ---------------------------------------------------------------------------------------------
export type NewOrderLine = {
  kind: OrderLineKind;
  referenceId: string;
  description: string;
  quantity: number;
  unitAmountMinor: number;
};

export type NewOrder = {
  buyer: { id: string; name: string; email: string };
  organisationName?: string | null;
  taxId?: string | null;
  currency: Currency;
  lines: NewOrderLine[];
  /** How long the order holds what it bought before an unpaid order expires. */
  holdMs: number;
};

/**
 * Creates an order awaiting payment with its gap-free invoice number, and enqueues the invoice
 * e-mail and the expiry at the end of the hold. `within` lets a caller (registration, membership)
 * create the order inside its own transaction, e.g. together with a held seat.
 */
export async function createOrder(input: NewOrder, within?: Tx) {
  if (input.lines.length === 0) throw new OrderError("An order needs at least one line.", 400);
  const lines = input.lines.map((line) => {
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) {
      throw new OrderError("Quantity must be at least 1.", 400);
    }
    if (!Number.isSafeInteger(line.unitAmountMinor) || line.unitAmountMinor < 0) {
      throw new OrderError("Amounts must be whole minor units.", 400);
    }
    return { ...line, lineTotalMinor: line.quantity * line.unitAmountMinor };
  });
  const totalMinor = lines.reduce((sum, line) => sum + line.lineTotalMinor, 0);
  const run = async (tx: Tx) => {
    const now = new Date();
    const [order] = await tx
      .insert(orders)
      .values({
        buyerId: input.buyer.id,
        buyerName: input.buyer.name,
        billingEmail: input.buyer.email,
        organisationName: input.organisationName || null,
        taxId: input.taxId || null,
        currency: input.currency,
        totalMinor,
        expiresAt: new Date(now.getTime() + input.holdMs),
      })
      .returning();
    await tx.insert(orderLines).values(lines.map((line) => ({ ...line, orderId: order.id })));
    const year = now.getUTCFullYear();
    const sequence = await nextInSeries(tx, `INV-${year}`);
    const number = documentNumber("INV", year, sequence);
    await tx.insert(invoices).values({ orderId: order.id, number, year, sequence, issuedAt: now });
    await audit(tx, { id: input.buyer.id, role: "user" }, "order.create", order.id, {
      to: "awaiting_payment",
      invoice: number,
      totalMinor,
      currency: input.currency,
    });
    await enqueueJob(tx, {
      kind: ORDER_JOBS.invoiceMail,
      payload: { orderId: order.id },
      uniqueKey: `order:${order.id}:invoice`,
    });
    await enqueueJob(tx, {
      kind: ORDER_JOBS.expire,
      payload: { orderId: order.id },
      runAt: order.expiresAt,
      uniqueKey: `order:${order.id}:expire`,
    });
    return { order, invoiceNumber: number };
  };
  return within ? run(within) : getDb().transaction(run);
}

// ---------------------------------------------------------------------------------------------
// Payments
// ---------------------------------------------------------------------------------------------
export type PaymentInput = {
  method: PaymentMethod;
  reference: string;
  amountMinor: number;
  currency: Currency;
  paidAt: Date;
  /** The invoice number the payer quoted (the M-Pesa account number). */
  invoiceNumber: string;
  proofKey?: string | null;
};

export type RecordPaymentResult =
  | { outcome: "duplicate"; paymentId: string; orderId: string | null }
  | { outcome: "unmatched"; paymentId: string }
  | {
      outcome: "matched";
      paymentId: string;
      orderId: string;
      receiptNumber: string;
      orderPaid: boolean;
    };

/** M-Pesa codes and bank references compare without case or spaces. */
export function normaliseReference(reference: string) {
  return reference.replace(/\s+/g, "").toUpperCase();
}

/** Staff may record for an order: admins for any, editors for event orders only. */
async function assertMayHandle(tx: Tx, actor: Actor, orderId: string | null) {
  if (!("id" in actor) || hasRole(actor.role, "admin")) return;
  if (!hasRole(actor.role, "editor")) throw new OrderError("Forbidden", 403);
  if (!orderId) throw new OrderError("Only admins can record payments that match no invoice.", 403);
  const [other] = await tx
    .select({ id: orderLines.id })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), sql`${orderLines.kind} <> 'event_ticket'`))
    .limit(1);
  if (other) throw new OrderError("Editors can record payments for event orders only.", 403);
}

/**
 * Records a payment once per (method, reference): two staff entering the same M-Pesa code at the
 * same moment end with one payment. A payment quoting a known invoice is matched to its order
 * (receipt issued, receipt e-mail enqueued, order paid when covered); otherwise it is kept
 * unmatched for reconciliation.
 */
export async function recordPayment(input: PaymentInput, actor: Actor) {
  const reference = normaliseReference(input.reference);
  if (!reference) throw new OrderError("Enter the payment reference.", 400);
  if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0) {
    throw new OrderError("Enter an amount greater than 0.", 400);
  }
  return getDb().transaction(async (tx): Promise<RecordPaymentResult> => {
    const [invoice] = await tx
      .select({ orderId: invoices.orderId })
      .from(invoices)
      .where(eq(invoices.number, input.invoiceNumber.trim().toUpperCase()));
    const orderId = invoice?.orderId ?? null;
    await assertMayHandle(tx, actor, orderId);
    if (orderId) {
      const order = await lockOrder(tx, orderId);
      if (order.currency !== input.currency) {
        throw new OrderError(`The invoice is in ${order.currency}; record the payment in it.`, 400);
      }
    }
    const [payment] = await tx
      .insert(payments)
      .values({
        orderId: null,
        payerAccount: input.invoiceNumber.trim() || null,
        method: input.method,
        reference,
        amountMinor: input.amountMinor,
        currency: input.currency,
        paidAt: input.paidAt,
        proofKey: input.proofKey ?? null,
        recordedBy: actorId(actor),
      })
      .onConflictDoNothing({ target: [payments.method, payments.reference] })
      .returning();
    if (!payment) {
      const [existing] = await tx
        .select({ id: payments.id, orderId: payments.orderId })
        .from(payments)
        .where(and(eq(payments.method, input.method), eq(payments.reference, reference)));
      return { outcome: "duplicate", paymentId: existing.id, orderId: existing.orderId };
    }
    await audit(tx, actor, "payment.record", payment.id, {
      method: input.method,
      reference,
      amountMinor: input.amountMinor,
      currency: input.currency,
      invoice: input.invoiceNumber,
    });
    if (!orderId) return { outcome: "unmatched", paymentId: payment.id };
    return {
      outcome: "matched",
      paymentId: payment.id,
      ...(await applyPayment(tx, payment.id, orderId, actor)),
    };
  });
}

/** Matches a payment kept unmatched to the invoice it was for. */
export async function matchPayment(paymentId: string, invoiceNumber: string, actor: Actor) {
  return getDb().transaction(async (tx) => {
    const [payment] = await tx
      .select()
      .from(payments)
      .where(eq(payments.id, paymentId))
      .for("update");
    if (!payment) throw new OrderError("Payment not found", 404);
    if (payment.orderId) throw new OrderError("This payment is already matched.");
    const [invoice] = await tx
      .select({ orderId: invoices.orderId })
      .from(invoices)
      .where(eq(invoices.number, invoiceNumber.trim().toUpperCase()));
    if (!invoice) throw new OrderError("No invoice has this number.", 400);
    await assertMayHandle(tx, actor, invoice.orderId);
    const order = await lockOrder(tx, invoice.orderId);
    if (order.currency !== payment.currency) {
      throw new OrderError(
        `The invoice is in ${order.currency}, the payment in ${payment.currency}.`,
        400,
      );
    }
    await audit(tx, actor, "payment.match", payment.id, { invoice: invoiceNumber });
    return applyPayment(tx, payment.id, invoice.orderId, actor);
  });
}

/** Links a payment to its (locked) order, issues the receipt, and marks the order paid if covered. */
async function applyPayment(tx: Tx, paymentId: string, orderId: string, actor: Actor) {
  const [payment] = await tx
    .update(payments)
    .set({ orderId })
    .where(eq(payments.id, paymentId))
    .returning();
  const [order] = await tx
    .update(orders)
    .set({ paidMinor: sql`${orders.paidMinor} + ${payment.amountMinor}` })
    .where(eq(orders.id, orderId))
    .returning();
  const year = new Date().getUTCFullYear();
  const receiptNumber = documentNumber("RCT", year, await nextInSeries(tx, `RCT-${year}`));
  await tx.insert(receipts).values({ number: receiptNumber, paymentId, orderId });
  await enqueueJob(tx, {
    kind: ORDER_JOBS.receiptMail,
    payload: { paymentId },
    uniqueKey: `payment:${paymentId}:receipt`,
  });
  let orderPaid = false;
  if (order.state === "awaiting_payment" && order.paidMinor >= order.totalMinor) {
    await markOrderPaid(tx, order, actor);
    orderPaid = true;
  }
  return { orderId, receiptNumber, orderPaid };
}

/** awaiting_payment → paid (internal: payments decide it), then what the order unlocks runs as a job. */
export async function markOrderPaid(tx: Tx, order: OrderRow, actor: Actor) {
  const updated = await changeState(tx, order, "paid", actor, {}, { paidMinor: order.paidMinor });
  await enqueueJob(tx, {
    kind: ORDER_JOBS.unlock,
    payload: { orderId: order.id },
    uniqueKey: `order:${order.id}:unlock`,
  });
  return updated;
}

// ---------------------------------------------------------------------------------------------
// Closing an order
// ---------------------------------------------------------------------------------------------
/** awaiting_payment → cancelled, by the buyer or staff. */
export async function cancelOrder(orderId: string, actor: Actor, reason?: string, within?: Tx) {
  const run = async (tx: Tx) => {
    const order = await lockOrder(tx, orderId);
    if ("id" in actor && order.buyerId !== actor.id) await assertMayHandle(tx, actor, orderId);
    return changeState(tx, order, "cancelled", actor, {}, reason ? { reason } : {});
  };
  return within ? run(within) : getDb().transaction(run);
}

/** awaiting_payment → expired once its hold has passed (the expiry job); a no-op otherwise. */
export async function expireOrder(orderId: string, now = new Date()) {
  return getDb().transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (order.state !== "awaiting_payment" || order.expiresAt > now) return null;
    return changeState(tx, order, "expired", { system: "order-expiry" });
  });
}

/** paid → refunded (admins only); the money goes back outside the system, this records it. */
export async function refundOrder(orderId: string, actor: Actor, reason?: string) {
  return getDb().transaction(async (tx) => {
    if ("id" in actor && !hasRole(actor.role, "admin")) {
      throw new OrderError("Only admins can refund orders.", 403);
    }
    const order = await lockOrder(tx, orderId);
    return changeState(tx, order, "refunded", actor, {}, reason ? { reason } : {});
  });
}
