// A Paystack attempt's own life (issue 31, decision 0101): pending while the buyer is on
// Paystack's page; paid once verify agreed and the payment was recorded; failed when Paystack
// would not start it; expired with its order's hold (orders.server.ts closes them with the order).
// An expired attempt that Paystack later confirms as paid is still recorded (the late-success
// rule, decision 0100): expired → paid, its money held as credit on the closed order.
import { and, eq } from "drizzle-orm";
import {
  type PaystackCheckoutRow,
  type PaystackCheckoutState,
  paystackCheckouts,
} from "~/db/schema";
import { type Actor, defineMachine, type Tx } from "~/lib/lifecycle.server";
import { OrderError } from "./order-error";

export const CHECKOUT_TRANSITIONS: Record<PaystackCheckoutState, readonly PaystackCheckoutState[]> =
  {
    pending: ["paid", "failed", "expired"],
    expired: ["paid"],
    paid: [],
    failed: [],
  };

export const checkoutMachine = defineMachine<PaystackCheckoutState, PaystackCheckoutRow>({
  entity: "paystack_checkout",
  noun: "card payment",
  table: paystackCheckouts,
  transitions: CHECKOUT_TRANSITIONS,
  error: (message, status) => new OrderError(message, status),
});

/** The order (locked by the caller) closed: its attempts still open expire with it, audited. */
export async function expireOpenCheckouts(tx: Tx, orderId: string, actor: Actor, reason: string) {
  const open = await tx
    .select()
    .from(paystackCheckouts)
    .where(and(eq(paystackCheckouts.orderId, orderId), eq(paystackCheckouts.state, "pending")))
    .for("update");
  for (const row of open) {
    await checkoutMachine.move(tx, row, "expired", actor, {
      set: { finishedAt: new Date() },
      details: { reason },
    });
  }
  return open.length;
}
