// Attendee-facing reads of registrations: the registration page, "My events", the ticket page and
// what the e-mails need. Nothing here returns other attendees' names or e-mails (issue 15 item 8).
import { and, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import {
  eventFees,
  events,
  invoices,
  orders,
  registrations,
  ticketCheckIns,
  tickets,
  user,
  waitlistEntries,
} from "~/db/schema";
import { formatDate, formatTime } from "~/lib/format";
import {
  eventColumns,
  heldSeats,
  isPastEvent,
  loadTicketOptions,
  type RegistrationEvent,
  registrationClosedReason,
  remainingSeats,
  selfCancelDeadline,
  waitlistPosition,
} from "./registrations.server";

/**
 * What a booking post needs before it books: the published event's id and its tickets in the
 * page's order (null: the free ticket of an event without fees). One round trip instead of the
 * page's five; the booking reads and checks everything again itself (issue 33).
 */
export async function getBookingTarget(slug: string) {
  const rows = await getDb()
    .select({ eventId: events.id, feeId: eventFees.id })
    .from(events)
    .leftJoin(eventFees, eq(eventFees.eventId, events.id))
    .where(and(eq(events.slug, slug), eq(events.status, "published")))
    .orderBy(asc(eventFees.amountMinor), asc(eventFees.createdAt));
  if (rows.length === 0) return null;
  const feeIds = rows.flatMap((row) => (row.feeId ? [row.feeId] : []));
  return { eventId: rows[0].eventId, feeIds: feeIds.length > 0 ? feeIds : [null] };
}

/** The published event by slug with what registering for it takes, for this person. */
export async function getRegistrationPage(slug: string, userId: string, offerId?: string | null) {
  const db = getDb();
  const [event] = await db
    .select(eventColumns)
    .from(events)
    .where(and(eq(events.slug, slug), eq(events.status, "published")));
  if (!event) return null;
  const now = new Date();
  const [options, held, mine, waiting] = await Promise.all([
    loadTicketOptions(db, event, userId, now),
    heldSeats(db, event.id),
    db
      .select({
        id: registrations.id,
        state: registrations.state,
        attendeeName: registrations.attendeeName,
        ticketLabel: registrations.ticketLabel,
        quantity: registrations.quantity,
      })
      .from(registrations)
      .where(
        and(
          eq(registrations.eventId, event.id),
          eq(registrations.userId, userId),
          inArray(registrations.state, ["confirmed", "awaiting_payment"]),
        ),
      )
      .orderBy(asc(registrations.createdAt))
      .limit(20),
    db
      .select()
      .from(waitlistEntries)
      .where(
        and(
          eq(waitlistEntries.eventId, event.id),
          eq(waitlistEntries.userId, userId),
          inArray(waitlistEntries.state, ["waiting", "offered"]),
        ),
      )
      .limit(1),
  ]);
  const entry = waiting[0];
  const offer =
    entry?.state === "offered" &&
    (!offerId || offerId === entry.id) &&
    entry.offerExpiresAt &&
    entry.offerExpiresAt > now
      ? {
          id: entry.id,
          feeId: entry.feeId,
          quantity: entry.quantity,
          expiresAt: entry.offerExpiresAt,
        }
      : null;
  return {
    event,
    closedReason: registrationClosedReason(event, now),
    past: isPastEvent(event, now),
    tickets: options.map((option) => {
      const remaining = remainingSeats(option, event.capacity, held);
      return {
        ...option,
        remaining: Number.isFinite(remaining) ? remaining : null,
        maxPerRegistration: Math.max(1, Math.min(remaining, option.maxPerOrder)),
      };
    }),
    registrations: mine,
    waitlist:
      entry?.state === "waiting"
        ? { id: entry.id, feeId: entry.feeId, position: await waitlistPosition(db, entry) }
        : null,
    offer,
  };
}

export type MyRegistration = Awaited<
  ReturnType<typeof listMyRegistrations>
>["registrations"][number];

/** "My events" on /profile: every registration and live waitlist place, upcoming first. */
export async function listMyRegistrations(userId: string) {
  const db = getDb();
  const now = new Date();
  const [rows, places] = await Promise.all([
    db
      .select({
        id: registrations.id,
        state: registrations.state,
        ticketLabel: registrations.ticketLabel,
        quantity: registrations.quantity,
        orderId: registrations.orderId,
        invoiceNumber: invoices.number,
        eventTitle: events.title,
        eventSlug: events.slug,
        startDate: events.startDate,
        endDate: events.endDate,
        timeZone: events.timeZone,
        eventCancelledAt: events.cancelledAt,
      })
      .from(registrations)
      .innerJoin(events, eq(events.id, registrations.eventId))
      .leftJoin(invoices, eq(invoices.orderId, registrations.orderId))
      .where(eq(registrations.userId, userId))
      .orderBy(
        desc(sql`${events.startDate} > now()`),
        asc(events.startDate),
        desc(registrations.createdAt),
      )
      .limit(100),
    db
      .select({
        id: waitlistEntries.id,
        eventId: waitlistEntries.eventId,
        feeId: waitlistEntries.feeId,
        createdAt: waitlistEntries.createdAt,
        state: waitlistEntries.state,
        quantity: waitlistEntries.quantity,
        offerExpiresAt: waitlistEntries.offerExpiresAt,
        eventTitle: events.title,
        eventSlug: events.slug,
        startDate: events.startDate,
        timeZone: events.timeZone,
      })
      .from(waitlistEntries)
      .innerJoin(events, eq(events.id, waitlistEntries.eventId))
      .where(
        and(
          eq(waitlistEntries.userId, userId),
          inArray(waitlistEntries.state, ["waiting", "offered"]),
        ),
      )
      .orderBy(asc(events.startDate)),
  ]);
  return {
    registrations: rows.map((row) => ({
      ...row,
      past: isPastEvent(row, now),
      cancelDeadline: selfCancelDeadline(row.startDate),
      mayCancel:
        (row.state === "confirmed" || row.state === "awaiting_payment") &&
        now < selfCancelDeadline(row.startDate),
    })),
    waitlist: await Promise.all(
      places.map(async (place) => ({
        ...place,
        position: place.state === "waiting" ? await waitlistPosition(db, place) : null,
      })),
    ),
  };
}

/**
 * The registration with its tickets (the ticket page) for the account that booked it, or for the
 * attendee it names when they are signed in with that (verified) e-mail address — a delegate
 * opens their own ticket from their mail (issue 30) — or null. Only the booker may cancel.
 */
export async function getMyRegistration(registrationId: string, userId: string, now = new Date()) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(registrationId)) {
    return null;
  }
  const db = getDb();
  const [row] = await db
    .select({
      registration: registrations,
      event: eventColumns,
      invoiceNumber: invoices.number,
      orderState: orders.state,
      // Seats the same order holds unpaid: cancelling one unpaid seat cancels its order (0093).
      unpaidOrderSeats: sql<number>`(select count(*)::int from ${registrations} as o
        where o.order_id = ${registrations.orderId} and o.state = 'awaiting_payment')`.mapWith(
        Number,
      ),
      // The online room (the ticket's own link wins over the event's): see joinLinkOf.
      joinUrl: sql<string | null>`coalesce(${eventFees.joinUrl}, ${events.joinUrl})`,
    })
    .from(registrations)
    .innerJoin(events, eq(events.id, registrations.eventId))
    .leftJoin(eventFees, eq(eventFees.id, registrations.feeId))
    .leftJoin(orders, eq(orders.id, registrations.orderId))
    .leftJoin(invoices, eq(invoices.orderId, registrations.orderId))
    .where(
      and(
        eq(registrations.id, registrationId),
        or(
          eq(registrations.userId, userId),
          sql`exists (select 1 from ${user} as u where u.id = ${userId} and u.email_verified
                and lower(u.email) = lower(${registrations.attendeeEmail}))`,
        ),
      ),
    );
  if (!row) return null;
  const { joinUrl, ...found } = row;
  const owner = row.registration.userId === userId;
  const seats =
    row.registration.state === "confirmed"
      ? await db
          .select({
            seat: tickets.seat,
            code: tickets.code,
            admits: tickets.admits,
            // People a group ticket let in on its latest day of admissions.
            admittedLastDay: sql<number>`(select count(*)::int from ${ticketCheckIns} as c
              where c.ticket_id = ${tickets}.id and c.day = (select max(d.day) from ${ticketCheckIns} as d
              where d.ticket_id = ${tickets}.id))`.mapWith(Number),
            // The latest admission (a multi-day pass is admitted each day).
            checkedInAt:
              sql<Date | null>`(select max(c.checked_in_at) from ${ticketCheckIns} as c where c.ticket_id = ${tickets}.id)`.mapWith(
                ticketCheckIns.checkedInAt,
              ),
          })
          .from(tickets)
          .where(eq(tickets.registrationId, registrationId))
          .orderBy(asc(tickets.seat))
      : [];
  return {
    ...found,
    // Read with the registration (one query for the ticket page, issue 27): the booker's, or the
    // delegate's the seat names (a confirmed registrant of their own seat, issue 30).
    join: joinLinkOf({ state: row.registration.state, ...row.event, url: joinUrl }, now),
    tickets: seats,
    past: isPastEvent(row.event, now),
    cancelDeadline: selfCancelDeadline(row.event.startDate),
    owner,
    mayCancel:
      owner &&
      (row.registration.state === "confirmed" || row.registration.state === "awaiting_payment") &&
      now < selfCancelDeadline(row.event.startDate),
  };
}

/** What a registration e-mail needs (system use: jobs). */
export async function getRegistrationForMail(registrationId: string) {
  const db = getDb();
  const [row] = await db
    .select({ registration: registrations, event: eventColumns, accountEmail: user.email })
    .from(registrations)
    .innerJoin(events, eq(events.id, registrations.eventId))
    .leftJoin(user, eq(user.id, registrations.userId))
    .where(eq(registrations.id, registrationId));
  if (!row) return null;
  const seats = await db
    .select({ seat: tickets.seat, code: tickets.code, admits: tickets.admits })
    .from(tickets)
    .where(eq(tickets.registrationId, registrationId))
    .orderBy(asc(tickets.seat));
  return { ...row, event: row.event as RegistrationEvent, tickets: seats };
}

/** "My events" on /profile, ready to show (the profile loader passes it to the component). */
export async function loadProfileRegistrations(userId: string) {
  const { registrations: rows, waitlist } = await listMyRegistrations(userId);
  const when = (d: Date, zone: string) => formatDate(d, zone);
  return {
    registrations: rows.map((r) => ({
      id: r.id,
      state: r.state,
      eventTitle: r.eventTitle,
      eventSlug: r.eventSlug,
      dateLabel: when(r.startDate, r.timeZone),
      ticket: `${r.ticketLabel} × ${r.quantity}`,
      past: r.past,
      eventCancelled: r.eventCancelledAt !== null,
      orderId: r.orderId,
      invoiceNumber: r.invoiceNumber,
      mayCancel: r.mayCancel && r.eventCancelledAt === null,
      cancelDeadlineLabel: `${when(r.cancelDeadline, r.timeZone)} ${formatTime(r.cancelDeadline, r.timeZone)}`,
    })),
    waitlist: waitlist.map((w) => ({
      id: w.id,
      eventTitle: w.eventTitle,
      eventSlug: w.eventSlug,
      dateLabel: when(w.startDate, w.timeZone),
      position: w.position,
      offered: w.state === "offered",
      offerExpiresLabel: w.offerExpiresAt
        ? `${when(w.offerExpiresAt, w.timeZone)} ${formatTime(w.offerExpiresAt, w.timeZone)}`
        : null,
    })),
  };
}

export type ProfileRegistrationsData = Awaited<ReturnType<typeof loadProfileRegistrations>>;

/** The online join link appears this long before the start (on the ticket page). */
export const JOIN_LINK_OPENS_BEFORE_MINUTES = 60;

export type JoinLink =
  | { state: "open"; url: string }
  | { state: "later"; opensAt: Date }
  | { state: "none" };

const NO_JOIN_LINK: JoinLink = { state: "none" };

/**
 * The online join link of the person's own registration (issue 30): only while it is confirmed,
 * from JOIN_LINK_OPENS_BEFORE_MINUTES before the start until the end; the ticket's own link wins
 * over the event's. Never read by any public loader, feed or calendar. The ticket page has it
 * from getMyRegistration's one read (`join`).
 */
export async function joinLinkFor(
  registrationId: string,
  userId: string,
  now = new Date(),
): Promise<JoinLink> {
  return (await getMyRegistration(registrationId, userId, now))?.join ?? NO_JOIN_LINK;
}

/** The join link rule on a registration already read with its event and room. */
function joinLinkOf(
  row: {
    state: string;
    startDate: Date;
    endDate: Date;
    cancelledAt: Date | null;
    url: string | null;
  },
  now: Date,
): JoinLink {
  if (!row.url || row.state !== "confirmed" || row.cancelledAt || now >= row.endDate) {
    return NO_JOIN_LINK;
  }
  const opensAt = new Date(row.startDate.getTime() - JOIN_LINK_OPENS_BEFORE_MINUTES * 60_000);
  return now >= opensAt ? { state: "open", url: row.url } : { state: "later", opensAt };
}
