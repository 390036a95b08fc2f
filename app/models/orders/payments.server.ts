// A payment's own life (issue 27, decision 0087): recorded, then refunded in part or in whole.
// Refunds take money back from one named payment, under its row lock, never more than it has
// left; the move and its audit row are in the refund's transaction.
import { and, desc, eq, gt, inArray, ne, sql } from "drizzle-orm";
import { type PaymentState, payments, providerRefunds } from "~/db/schema";
import { type Actor, defineMachine, type Tx } from "~/lib/lifecycle.server";
import { formatMinor } from "~/lib/money";
import { OrderError } from "./order-error";

export type PaymentRow = typeof payments.$inferSelect;

/** Every legal state change of a payment; anything else is refused. */
export const PAYMENT_TRANSITIONS: Record<PaymentState, readonly PaymentState[]> = {
  recorded: ["partly_refunded", "refunded"],
  partly_refunded: ["refunded"],
  refunded: [],
};

export const paymentMachine = defineMachine<PaymentState, PaymentRow>({
  entity: "payment",
  noun: "payment",
  table: payments,
  transitions: PAYMENT_TRANSITIONS,
  error: (message, status) => new OrderError(message, status),
});

/** What is left to refund of a payment. */
export function refundableOf(payment: Pick<PaymentRow, "amountMinor" | "refundedMinor">) {
  return payment.amountMinor - payment.refundedMinor;
}

/**
 * What refunds asked of a provider and not yet answered for good hold back (issue 31, decision
 * 0100): `requested` and `pending` provider_refunds of a payment (or of an order), except one
 * (the request being recorded). Read under the payment's (or order's) row lock.
 */
export async function reservedForRefunds(
  tx: Tx,
  of: { paymentId: string } | { orderId: string },
  exceptRequestId?: string,
) {
  const [row] = await tx
    .select({ total: sql<string>`coalesce(sum(${providerRefunds.amountMinor}), 0)` })
    .from(providerRefunds)
    .where(
      and(
        "paymentId" in of
          ? eq(providerRefunds.paymentId, of.paymentId)
          : eq(providerRefunds.orderId, of.orderId),
        inArray(providerRefunds.state, ["requested", "pending"]),
        exceptRequestId ? ne(providerRefunds.id, exceptRequestId) : undefined,
      ),
    );
  return Number(row?.total ?? 0);
}

/**
 * The payment a refund takes money from when none is named: the latest one on the order with
 * money left (by payment date, then when it was recorded). Null when nothing is left.
 */
export async function latestRefundablePayment(tx: Tx, orderId: string) {
  const [row] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), gt(payments.amountMinor, payments.refundedMinor)))
    .orderBy(desc(payments.paidAt), desc(payments.createdAt))
    .limit(1);
  return row?.id ?? null;
}

/**
 * Takes `amountMinor` back from a payment of the (already locked) order: locks the payment row,
 * refuses more than it has left (400) — less what provider refunds still on their way hold — adds the amount to its refunded total, and moves it to
 * partly_refunded or refunded with its audit row when its state changes.
 */
export async function refundFromPayment(
  tx: Tx,
  input: {
    orderId: string;
    paymentId: string;
    amountMinor: number;
    /** The provider refund being recorded: its own reservation is not held against it. */
    exceptRequestId?: string;
  },
  actor: Actor,
  details: Record<string, unknown> = {},
) {
  // Checked before the lock: a payment's order, once set, never changes, and a payment of another
  // order (or one kept unmatched, which matching locks before its order) is never locked here.
  const [owner] = await tx
    .select({ orderId: payments.orderId })
    .from(payments)
    .where(eq(payments.id, input.paymentId));
  if (!owner) throw new OrderError("Payment not found", 404);
  if (owner.orderId !== input.orderId) {
    throw new OrderError("This payment is not on this order; choose one of its payments.", 400);
  }
  const payment = await paymentMachine.lock(tx, input.paymentId);
  const left =
    refundableOf(payment) -
    (await reservedForRefunds(tx, { paymentId: payment.id }, input.exceptRequestId));
  if (input.amountMinor > left) {
    throw new OrderError(
      left === 0
        ? `Nothing of payment ${payment.reference} is left to refund; choose another payment.`
        : `At most ${formatMinor(left, payment.currency)} can be refunded from payment ${payment.reference}: what it paid and was not refunded yet.`,
      400,
    );
  }
  const refundedMinor = payment.refundedMinor + input.amountMinor;
  const to: PaymentState = refundedMinor === payment.amountMinor ? "refunded" : "partly_refunded";
  if (to === payment.state) {
    // A further part of a payment already refunded in part: the total follows, the state stays.
    const [updated] = await tx
      .update(payments)
      .set({ refundedMinor: sql`${payments.refundedMinor} + ${input.amountMinor}` })
      .where(eq(payments.id, payment.id))
      .returning();
    return updated;
  }
  return paymentMachine.move(tx, payment, to, actor, {
    set: { refundedMinor },
    details: { refundedMinor, ...details },
  });
}
