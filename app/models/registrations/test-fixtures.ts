// Rows for the organiser-side tests: events, fees, registrations and their tickets inserted
// directly (the registration flow itself is tested with registrations.server.ts).
import { randomBytes, randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { eventFees, events, type RegistrationState, registrations, tickets } from "~/db/schema";

export async function insertEvent(
  db: Database,
  overrides: Partial<typeof events.$inferInsert> = {},
) {
  const id = randomUUID();
  const [event] = await db
    .insert(events)
    .values({
      title: `Records Day ${id.slice(0, 8)}`,
      slug: `records-day-${id.slice(0, 8)}`,
      location: "Nairobi, Kenya",
      startDate: new Date("2027-03-01T06:00:00Z"),
      endDate: new Date("2027-03-02T14:00:00Z"),
      status: "published",
      ...overrides,
    })
    .returning();
  return event;
}

export async function insertFee(
  db: Database,
  eventId: string,
  overrides: Partial<typeof eventFees.$inferInsert> = {},
) {
  const [fee] = await db
    .insert(eventFees)
    .values({
      eventId,
      feeType: "conference_only",
      amountMinor: 5000,
      currency: "USD",
      ...overrides,
    })
    .returning();
  return fee;
}

export function ticketCode() {
  return randomBytes(16).toString("base64url");
}

/** A registration with one ticket per seat; returns it with its tickets' ids and codes. */
export async function insertRegistration(
  db: Database,
  input: {
    eventId: string;
    feeId?: string | null;
    name: string;
    email?: string;
    quantity?: number;
    state?: RegistrationState;
    ticketLabel?: string;
    holdUntil?: Date | null;
    createdAt?: Date;
  },
) {
  const quantity = input.quantity ?? 1;
  const state = input.state ?? "confirmed";
  const [registration] = await db
    .insert(registrations)
    .values({
      eventId: input.eventId,
      feeId: input.feeId ?? null,
      ticketLabel: input.ticketLabel ?? "Conference Only",
      unitAmountMinor: 5000,
      currency: "USD",
      attendeeName: input.name,
      attendeeEmail: input.email ?? `${input.name.toLowerCase().replace(/\W+/g, ".")}@example.test`,
      quantity,
      state,
      holdUntil: input.holdUntil ?? null,
      confirmedAt: state === "confirmed" ? new Date() : null,
      cancelledAt: state === "cancelled" ? new Date() : null,
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    })
    .returning();
  const seats = await db
    .insert(tickets)
    .values(
      Array.from({ length: quantity }, (_, i) => ({
        registrationId: registration.id,
        eventId: input.eventId,
        seat: i + 1,
        code: ticketCode(),
      })),
    )
    .returning({ id: tickets.id, code: tickets.code, seat: tickets.seat });
  return { ...registration, tickets: seats.sort((a, b) => a.seat - b.seat) };
}

/** Seats an event's registrations hold or have confirmed. */
export async function seatsTaken(db: Database, eventId: string) {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${registrations.quantity}), 0)::int` })
    .from(registrations)
    .where(
      and(
        eq(registrations.eventId, eventId),
        inArray(registrations.state, ["confirmed", "awaiting_payment"]),
      ),
    );
  return Number(row.n);
}
