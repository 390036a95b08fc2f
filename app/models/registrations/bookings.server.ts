// Booking for a delegation (issue 30, decision 0093): several tickets in one order, a name and an
// e-mail per seat, priced by the server. The same rules as a one-ticket registration
// (registrations.server.ts), under the same seat locks, with their audit rows.
import { randomUUID } from "node:crypto";
import { alongside } from "~/db/alongside";
import { getDb } from "~/db/client.server";
import { type Currency, registrations } from "~/db/schema";
import { type Actor, auditWrite } from "~/lib/lifecycle.server";
import {
  accountStanding,
  addHeld,
  checkAccountShare,
  checkAttendeeEmail,
  checkUnpaidHolds,
  confirmIn,
  lockAccount,
  lockSeats,
  openTicketOrder,
  RegistrationError,
  readEventAndTickets,
  refuseUnlessSeatsLeft,
  registrationClosedReason,
  remainingSeats,
  type TicketOption,
} from "./registrations.server";

/** Seats one booking (one order) may take across all its tickets. */
export const MAX_SEATS_PER_BOOKING = 20;

export type BookSeatsInput = {
  eventId: string;
  /** The signed-in person booking (and paying); the buyer of the order. */
  account: { id: string; name: string; email: string };
  /** One entry per seat, in the order shown: its ticket (null: the free ticket) and attendee. */
  seats: Array<{ feeId: string | null; name: string; email: string }>;
  organisationName?: string | null;
  taxId?: string | null;
  request?: Request | null;
  /** The clock (tests inject it). */
  now?: Date;
};

export type BookSeatsResult = {
  bookingId: string;
  /** One registration per seat, in the order of `seats`. */
  registrationIds: string[];
  /** awaiting_payment when some seat is paid (its order holds them), else confirmed. */
  state: "confirmed" | "awaiting_payment";
  orderId: string | null;
  invoiceNumber: string | null;
  /** What the order charges, in minor units, as the server computed it. */
  totalMinor: number;
  currency: Currency | null;
};

/** A booking's tickets counted, and what they cost (never the client's figure). */
export type BookingQuote = {
  lines: Array<{ option: TicketOption; quantity: number; lineTotalMinor: number }>;
  seats: number;
  totalMinor: number;
  currency: Currency | null;
};

/**
 * Counts the seats per ticket and prices them from the tickets on offer: the one place the total
 * is computed (the form's live total shows the same sum, the server recomputes it here).
 */
export function quoteBooking(
  options: TicketOption[],
  seats: Array<{ feeId: string | null }>,
): BookingQuote {
  const lines: BookingQuote["lines"] = [];
  for (const seat of seats) {
    const option = options.find((o) => o.feeId === seat.feeId);
    if (!option) throw new RegistrationError("Choose a ticket that is on sale.", 400, "feeId");
    const line = lines.find((l) => l.option === option);
    if (line) line.quantity++;
    else lines.push({ option, quantity: 1, lineTotalMinor: 0 });
  }
  const currencies = new Set(
    lines.filter((l) => l.option.unitAmountMinor > 0).map((l) => l.option.currency),
  );
  if (currencies.size > 1) {
    throw new RegistrationError(
      "One order is invoiced in one currency: book tickets priced in another currency in a separate order.",
      400,
      "feeId",
    );
  }
  let totalMinor = 0;
  for (const line of lines) {
    line.lineTotalMinor = line.quantity * line.option.unitAmountMinor;
    totalMinor += line.lineTotalMinor;
  }
  if (!Number.isSafeInteger(totalMinor))
    throw new RegistrationError("The total is too large.", 400);
  return { lines, seats: seats.length, totalMinor, currency: [...currencies][0] ?? null };
}

/**
 * Books several seats in one go, of one or more tickets, each seat naming its attendee: one
 * registration per seat (so each attendee gets their own ticket mail with their own QR code), all
 * sharing a booking id and, for the paid seats, one order with a line per ticket whose invoice
 * goes to the buyer. Free seats confirm at once; paid ones wait for the order. Every limit of a
 * single registration applies: sale windows, max_per_order per ticket, MAX_SEATS_PER_BOOKING,
 * stock and capacity under the seat locks (no overselling), the waitlist first, the account's
 * share (one booking counts once), unpaid holds, and other attendees' addresses.
 */
export async function bookSeats(input: BookSeatsInput): Promise<BookSeatsResult> {
  const actor: Actor = { id: input.account.id, role: "user", request: input.request ?? null };
  if (input.seats.length === 0) {
    throw new RegistrationError("Choose at least one seat.", 400, "quantity");
  }
  if (input.seats.length > MAX_SEATS_PER_BOOKING) {
    throw new RegistrationError(
      `One order can have at most ${MAX_SEATS_PER_BOOKING} seats.`,
      400,
      "quantity",
    );
  }
  return getDb().transaction(async (tx) => {
    const now = input.now ?? new Date();
    // What depends on this account alone is checked under its lock, before any seat lock
    // (decisions 0115 and 0117).
    const account = await lockAccount(tx, input.account.id);
    const { event: seen, options } = await readEventAndTickets(
      tx,
      input.eventId,
      input.account.id,
      now,
    );
    const closedBefore = registrationClosedReason(seen, now);
    if (closedBefore) throw new RegistrationError(closedBefore, 409);
    const quote = quoteBooking(options, input.seats);
    for (const { option, quantity } of quote.lines) {
      if (!option.onSale) {
        throw new RegistrationError(`${option.label}: ${option.offSaleReason}.`, 400, "feeId");
      }
      if (quantity > option.maxPerOrder) {
        throw new RegistrationError(
          `${option.label}: at most ${option.maxPerOrder} ${option.maxPerOrder === 1 ? "seat" : "seats"} per order.`,
          400,
          "quantity",
        );
      }
    }
    const paidLines = quote.lines.filter((l) => l.option.unitAmountMinor > 0);
    const standing = await accountStanding(
      tx,
      account.id,
      seen.id,
      quote.lines.map(({ option }) => ({
        feeId: option.feeId,
        paid: option.unitAmountMinor > 0,
      })),
    );
    for (const { option } of quote.lines) checkAccountShare(standing, option);
    if (paidLines.length > 0) checkUnpaidHolds(standing);
    const { opened, repeatHold } = await openTicketOrder(tx, {
      buyer: input.account,
      organisationName: input.organisationName,
      taxId: input.taxId,
      eventTitle: seen.title,
      lines: paidLines,
      standing,
      now,
    });

    const order = opened?.order ?? null;

    // Everything is written before the seats are counted (decision 0117): a refusal below rolls
    // it all back, and the seat locks are held only for the count and the commit.
    const bookingId = randomUUID();
    const registrationIds: string[] = [];
    for (const seat of input.seats) {
      const option = options.find((o) => o.feeId === seat.feeId) as TicketOption;
      const free = option.unitAmountMinor === 0;
      // Other people's addresses are capped per account (earlier seats of this booking count).
      await checkAttendeeEmail(tx, account, seat.email, now);
      // The registration and its audit row in one statement.
      const id = randomUUID();
      const [registration] = await alongside(tx, [
        auditWrite(tx, actor, "registration.create", id, {
          eventId: seen.id,
          feeId: option.feeId,
          quantity: 1,
          bookingId,
          to: free ? "confirmed" : "awaiting_payment",
          ...(order && !free ? { orderId: order.id } : {}),
          ...(repeatHold && !free ? { repeatHold: true } : {}),
        }),
      ])
        .insert(registrations)
        .values({
          id,
          eventId: seen.id,
          feeId: option.feeId,
          ticketLabel: option.label,
          unitAmountMinor: option.unitAmountMinor,
          currency: option.currency,
          userId: account.id,
          attendeeName: seat.name,
          attendeeEmail: seat.email,
          quantity: 1,
          state: "awaiting_payment",
          orderId: free ? null : (order?.id ?? null),
          holdUntil: free ? null : (order?.expiresAt ?? null),
          bookingId,
        })
        .returning();
      if (free) await confirmIn(tx, registration, actor, option.admits);
      registrationIds.push(registration.id);
    }

    const { event, held, waitsFor } = await lockSeats(
      tx,
      seen,
      quote.lines.map((line) => line.option),
    );
    const closed = registrationClosedReason(event, now);
    if (closed) throw new RegistrationError(closed, 409);
    // Seats under the seat locks: each ticket's stock, and the capacity all of them share. This
    // booking's own seats are among those counted: each line is checked against what the lines
    // before it left.
    for (const { option, quantity } of quote.lines) {
      addHeld(held, option.feeId, -quantity, option.admits);
    }
    for (const { option, quantity } of quote.lines) {
      refuseUnlessSeatsLeft({
        waiting: waitsFor(option.feeId),
        remaining: remainingSeats(option, event.capacity, held),
        quantity,
        label: option.label,
      });
      addHeld(held, option.feeId, quantity, option.admits);
    }
    // The gap-free invoice number last (decision 0113): the counter row is held to the commit.
    const invoiceNumber = opened ? await opened.issueInvoice() : null;
    return {
      bookingId,
      registrationIds,
      state: order ? "awaiting_payment" : "confirmed",
      orderId: order?.id ?? null,
      invoiceNumber,
      totalMinor: quote.totalMinor,
      currency: quote.currency,
    };
  });
}
