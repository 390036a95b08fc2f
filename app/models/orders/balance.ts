// What an order still asks for and what it holds beyond what it sold (issue 26, decision 0072):
// shared by the order page, the documents, the mails and the Payments screen.
import type { OrderState } from "~/db/schema";

export type OrderAmounts = {
  state: OrderState;
  totalMinor: number;
  paidMinor: number;
  refundedMinor: number;
};

/**
 * `dueMinor`: still to pay (only while the order awaits payment). `creditMinor`: money held that
 * the order does not keep — everything on a closed order, the excess on a paid one — which staff
 * refund or (for a closed order) use to reinstate it.
 */
export function orderBalance(order: OrderAmounts) {
  const heldMinor = order.paidMinor - order.refundedMinor;
  const keptMinor =
    order.state === "paid" || order.state === "awaiting_payment"
      ? Math.min(order.totalMinor, heldMinor)
      : 0;
  return {
    heldMinor,
    dueMinor: order.state === "awaiting_payment" ? Math.max(order.totalMinor - heldMinor, 0) : 0,
    creditMinor: Math.max(heldMinor - keptMinor, 0),
  };
}
