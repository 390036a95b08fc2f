// The registration side of reinstating a closed order (issue 26): money arrived for an order that
// had expired or been cancelled, and staff reinstate it. Its seats are taken back under the
// event's exclusive lock (`lockEvent`: no booking counts meanwhile), and only if they are
// still free; the paid order's unlock job then confirms the registration (tickets, mail). The
// wiring module makes this the event ticket's reinstate reaction.
import { and, eq, inArray } from "drizzle-orm";
import { registrations } from "~/db/schema";
import { OrderError } from "~/models/orders/orders.server";
import type { OrderReinstateReaction } from "~/models/orders/reactions.server";
import {
  heldSeats,
  isPastEvent,
  loadTicketOptions,
  lockEvent,
  registrationMachine,
  remainingSeats,
} from "./registrations.server";

/**
 * Takes back the seats of a closed order's registrations (cancelled or expired → awaiting
 * payment, holding their seats again) when they are still free; refuses otherwise.
 */
export const holdSeatsAgain: OrderReinstateReaction = async (tx, order, actor) => {
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
    const registration = await registrationMachine.lock(tx, row.id);
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
    await registrationMachine.move(tx, registration, "awaiting_payment", actor, {
      set: { holdUntil: null, cancelledAt: null, cancelledBy: null, cancelReason: null },
      action: "registration.reinstate",
      details: { eventId: event.id, orderId: order.id, quantity: registration.quantity },
    });
  }
};
