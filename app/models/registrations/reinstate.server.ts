// The registration side of reinstating a closed order (issue 26): money arrived for an order that
// had expired or been cancelled, and staff reinstate it. Its seats are taken back under the same
// event row lock every registration takes (SELECT … FOR UPDATE on the event), and only if they are
// still free; the paid order's unlock job then confirms the registration (tickets, mail).
import { and, eq, inArray } from "drizzle-orm";
import type { DbTransaction } from "~/db/client.server";
import { type OrderRow, registrations } from "~/db/schema";
import { recordAuditIn } from "~/lib/audit.server";
import {
  type Actor,
  OrderError,
  type ReinstateSide,
  reinstateOrder,
} from "~/models/orders/orders.server";
import {
  heldSeats,
  isPastEvent,
  loadTicketOptions,
  lockEvent,
  remainingSeats,
} from "./registrations.server";

type Tx = DbTransaction;

/**
 * Takes back the seats of a closed order's registrations (cancelled or expired → awaiting
 * payment, holding their seats again) when they are still free; refuses otherwise.
 */
export const holdSeatsAgain: ReinstateSide = async (tx: Tx, order: OrderRow, actor: Actor) => {
  const closed = await tx
    .select({ id: registrations.id, eventId: registrations.eventId })
    .from(registrations)
    .where(
      and(
        eq(registrations.orderId, order.id),
        inArray(registrations.state, ["cancelled", "expired"]),
      ),
    );
  if (closed.length === 0) {
    throw new OrderError("This order has no registration to reinstate; refund it instead.");
  }
  for (const row of closed) {
    // The seat lock every registration takes: counting free seats and taking them is atomic.
    const event = await lockEvent(tx, row.eventId);
    if (event.cancelledAt || isPastEvent(event)) {
      throw new OrderError(
        `${event.title} has been ${event.cancelledAt ? "cancelled" : "held"}; refund the payment instead.`,
      );
    }
    const [registration] = await tx
      .select()
      .from(registrations)
      .where(eq(registrations.id, row.id))
      .for("update");
    if (registration.state !== "cancelled" && registration.state !== "expired") continue;
    const options = await loadTicketOptions(tx, event, null);
    const option = options.find((o) => o.feeId === registration.feeId);
    const remaining = option
      ? remainingSeats(option, event.capacity, await heldSeats(tx, event.id))
      : 0;
    if (remaining < registration.quantity) {
      throw new OrderError(
        `The ${registration.quantity === 1 ? "seat" : `${registration.quantity} seats`} of this order ${registration.quantity === 1 ? "is" : "are"} no longer free (${remaining} left); refund the payment instead.`,
      );
    }
    await tx
      .update(registrations)
      .set({
        state: "awaiting_payment",
        holdUntil: null,
        cancelledAt: null,
        cancelledBy: null,
        cancelReason: null,
      })
      .where(eq(registrations.id, registration.id));
    await recordAuditIn(tx, "id" in actor ? (actor.request ?? null) : null, {
      action: "registration.reinstate",
      actorId: "id" in actor ? actor.id : null,
      entity: "registration",
      entityId: registration.id,
      details: {
        from: registration.state,
        to: "awaiting_payment",
        eventId: event.id,
        orderId: order.id,
        quantity: registration.quantity,
      },
    });
  }
};

/** Reinstates a closed order whose payments cover it, with its seats taken back (see above). */
export function reinstateClosedOrder(orderId: string, actor: Actor) {
  return reinstateOrder(orderId, actor, { event_ticket: holdSeatsAgain });
}
