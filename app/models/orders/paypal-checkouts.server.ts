// A PayPal attempt's own life (issue 31, decision 0103): created while the buyer is on PayPal;
// captured once PayPal confirmed the capture and the payment was recorded; cancelled when its
// order closed (or stopped waiting for that amount) before any capture; failed when PayPal
// declined it or captured another amount. PayPal money moves only when we capture, and we never
// capture a closed attempt; a capture PayPal still confirms for one is recorded all the same
// (cancelled | failed → captured; the late-success rule, decision 0100).
import { and, eq } from "drizzle-orm";
import { type PaypalCheckoutRow, type PaypalCheckoutState, paypalCheckouts } from "~/db/schema";
import { type Actor, defineMachine, type Tx } from "~/lib/lifecycle.server";
import { OrderError } from "./order-error";

export const PAYPAL_CHECKOUT_TRANSITIONS: Record<
  PaypalCheckoutState,
  readonly PaypalCheckoutState[]
> = {
  created: ["captured", "cancelled", "failed"],
  cancelled: ["captured"],
  failed: ["captured"],
  captured: [],
};

export const paypalCheckoutMachine = defineMachine<PaypalCheckoutState, PaypalCheckoutRow>({
  entity: "paypal_checkout",
  noun: "PayPal payment",
  table: paypalCheckouts,
  transitions: PAYPAL_CHECKOUT_TRANSITIONS,
  error: (message, status) => new OrderError(message, status),
});

/** The order (locked by the caller) closed: its PayPal attempts not captured end with it, audited. */
export async function cancelOpenPaypalCheckouts(
  tx: Tx,
  orderId: string,
  actor: Actor,
  reason: string,
) {
  const open = await tx
    .select()
    .from(paypalCheckouts)
    .where(and(eq(paypalCheckouts.orderId, orderId), eq(paypalCheckouts.state, "created")))
    .for("update");
  for (const row of open) {
    await paypalCheckoutMachine.move(tx, row, "cancelled", actor, {
      set: { failure: reason, finishedAt: new Date() },
      details: { reason },
    });
  }
  return open.length;
}
