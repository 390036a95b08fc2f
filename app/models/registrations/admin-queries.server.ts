// What organisers read about an event's registrations: the list with search, status filter and
// pages, the counts per ticket and capacity left, and the CSV export. Read-only: every change to
// a registration lives in registrations.server.ts.
import { and, asc, desc, eq, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import {
  eventFees,
  events,
  type RegistrationState,
  registrations,
  ticketCheckIns,
  tickets,
  waitlistEntries,
} from "~/db/schema";
import { FEE_TYPE_ADMIN_LABELS, type FeeType } from "~/lib/constants";
import { type CsvValue, csvDocument } from "~/lib/csv";
import { isoInZone } from "~/lib/format";
import { minorToDecimal } from "~/lib/money";
import { isEventId } from "~/models/events/events.server";
import { likePattern } from "~/models/users/users.server";
import { REGISTRATION_STATE_LABELS, REGISTRATION_STATES } from "./registration-states";

export const REGISTRATIONS_PAGE_SIZE = 25;

export type RegistrationFilters = {
  /** Part of the attendee's name or e-mail. */
  search: string;
  status: RegistrationState | "all";
  page: number;
};

/** The list's filters from the URL query; anything unknown means "no filter". */
export function registrationFiltersFrom(params: URLSearchParams): RegistrationFilters {
  const status = params.get("status") ?? "";
  const page = Number.parseInt(params.get("page") ?? "1", 10);
  return {
    search: (params.get("search") ?? "").trim().slice(0, 200),
    status: (REGISTRATION_STATES as readonly string[]).includes(status)
      ? (status as RegistrationState)
      : "all",
    page: Number.isSafeInteger(page) && page > 0 ? page : 1,
  };
}

/** The event an organiser screen is about; null when the id names none. */
export async function getRegistrationEvent(id: string) {
  if (!isEventId(id)) return null;
  const [event] = await getDb()
    .select({
      id: events.id,
      title: events.title,
      slug: events.slug,
      status: events.status,
      startDate: events.startDate,
      endDate: events.endDate,
      timeZone: events.timeZone,
      location: events.location,
      capacity: events.capacity,
      cancelledAt: events.cancelledAt,
      checkInOpensAt: events.checkInOpensAt,
    })
    .from(events)
    .where(eq(events.id, id))
    .limit(1);
  return event ?? null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The registration of this event the id names (ids come from forms), or null. */
export async function findEventRegistration(eventId: string, registrationId: string) {
  if (!UUID.test(registrationId)) return null;
  const [row] = await getDb()
    .select({ id: registrations.id, attendeeName: registrations.attendeeName })
    .from(registrations)
    .where(and(eq(registrations.id, registrationId), eq(registrations.eventId, eventId)))
    .limit(1);
  return row ?? null;
}

function whereFor(eventId: string, filters: Pick<RegistrationFilters, "search" | "status">) {
  const conditions: SQL[] = [eq(registrations.eventId, eventId)];
  if (filters.status !== "all") conditions.push(eq(registrations.state, filters.status));
  const term = filters.search.trim();
  if (term) {
    conditions.push(
      or(
        ilike(registrations.attendeeName, likePattern(term)),
        ilike(registrations.attendeeEmail, likePattern(term)),
      )!,
    );
  }
  return and(...conditions);
}

// Drizzle writes the columns of a select unqualified ("id"), which inside this subquery would
// mean the ticket's id: the correlation is spelt out with the tables' names.
// A seat counts as checked in once it has been admitted on any day of the event.
const checkedInSeats = sql<number>`(select count(distinct c.ticket_id)::int from ${tickets} as t join ${ticketCheckIns} as c on c.ticket_id = t.id where t.registration_id = ${registrations}.id)`;

const listColumns = {
  id: registrations.id,
  attendeeName: registrations.attendeeName,
  attendeeEmail: registrations.attendeeEmail,
  ticketLabel: registrations.ticketLabel,
  quantity: registrations.quantity,
  state: registrations.state,
  unitAmountMinor: registrations.unitAmountMinor,
  currency: registrations.currency,
  orderId: registrations.orderId,
  holdUntil: registrations.holdUntil,
  createdAt: registrations.createdAt,
  confirmedAt: registrations.confirmedAt,
  cancelledAt: registrations.cancelledAt,
  cancelReason: registrations.cancelReason,
  checkedIn: checkedInSeats,
};

export type AdminRegistrationRow = {
  id: string;
  attendeeName: string;
  attendeeEmail: string;
  ticketLabel: string;
  quantity: number;
  state: RegistrationState;
  unitAmountMinor: number;
  currency: string | null;
  orderId: string | null;
  holdUntil: Date | null;
  createdAt: Date;
  confirmedAt: Date | null;
  cancelledAt: Date | null;
  cancelReason: string | null;
  checkedIn: number;
};

/** One page of the event's registrations, newest first, with the total that matched. */
export async function listEventRegistrations(eventId: string, filters: RegistrationFilters) {
  const db = getDb();
  const where = whereFor(eventId, filters);
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(registrations)
    .where(where);
  const pageCount = Math.max(1, Math.ceil(total / REGISTRATIONS_PAGE_SIZE));
  const page = Math.min(filters.page, pageCount);
  const rows: AdminRegistrationRow[] = await db
    .select(listColumns)
    .from(registrations)
    .where(where)
    .orderBy(desc(registrations.createdAt), desc(registrations.id))
    .limit(REGISTRATIONS_PAGE_SIZE)
    .offset((page - 1) * REGISTRATIONS_PAGE_SIZE);
  return { rows, total, page, pageSize: REGISTRATIONS_PAGE_SIZE };
}

export type TicketCount = {
  /** The fee id; null for registrations whose ticket was removed (or a free event without fees). */
  feeId: string | null;
  label: string;
  maxQuantity: number | null;
  confirmed: number;
  /** Seats of registrations awaiting payment (held until their order is paid or closes). */
  held: number;
  /** Seats offered to the waitlist and not yet claimed or expired. */
  offered: number;
  /** What is still free on this ticket; null when it has no limit of its own. */
  left: number | null;
  waiting: number;
  checkedIn: number;
};

export type RegistrationCounts = {
  tickets: TicketCount[];
  capacity: number | null;
  /** Seats taken across the event: confirmed, held and offered. */
  taken: number;
  /** Null when the event has no overall limit. */
  capacityLeft: number | null;
  /** People waiting for a seat (entries waiting, not yet offered). */
  waitlist: number;
  byState: Record<RegistrationState, number>;
  checkedIn: number;
  validTickets: number;
};

function feeLabel(feeType: string, description: string | null) {
  const label = FEE_TYPE_ADMIN_LABELS[feeType as FeeType] ?? feeType;
  return description ? `${label} (${description})` : label;
}

/**
 * Seats per ticket and for the whole event. A seat counts as taken when its registration is
 * confirmed or awaiting payment, or it is offered to someone on the waitlist: the same seats
 * registrations.server.ts's heldSeats counts before it takes more, so "left" here is what a new
 * registration can still get.
 */
export async function registrationCounts(eventId: string): Promise<RegistrationCounts> {
  const db = getDb();
  const [event] = await db
    .select({ capacity: events.capacity })
    .from(events)
    .where(eq(events.id, eventId));
  const [fees, seatRows, stateRows, offerRows, waitRows, checkRows] = await Promise.all([
    db
      .select({
        id: eventFees.id,
        feeType: eventFees.feeType,
        description: eventFees.description,
        maxQuantity: eventFees.maxQuantity,
      })
      .from(eventFees)
      .where(eq(eventFees.eventId, eventId))
      .orderBy(asc(eventFees.amountMinor), asc(eventFees.createdAt)),
    db
      .select({
        feeId: registrations.feeId,
        confirmed: sql<number>`coalesce(sum(${registrations.quantity}) filter (where ${registrations.state} = 'confirmed'), 0)::int`,
        held: sql<number>`coalesce(sum(${registrations.quantity}) filter (where ${registrations.state} = 'awaiting_payment'), 0)::int`,
      })
      .from(registrations)
      .where(
        and(
          eq(registrations.eventId, eventId),
          inArray(registrations.state, ["confirmed", "awaiting_payment"]),
        ),
      )
      .groupBy(registrations.feeId),
    db
      .select({ state: registrations.state, n: sql<number>`count(*)::int` })
      .from(registrations)
      .where(eq(registrations.eventId, eventId))
      .groupBy(registrations.state),
    db
      .select({
        feeId: waitlistEntries.feeId,
        seats: sql<number>`coalesce(sum(${waitlistEntries.quantity}), 0)::int`,
      })
      .from(waitlistEntries)
      .where(and(eq(waitlistEntries.eventId, eventId), eq(waitlistEntries.state, "offered")))
      .groupBy(waitlistEntries.feeId),
    db
      .select({ feeId: waitlistEntries.feeId, n: sql<number>`count(*)::int` })
      .from(waitlistEntries)
      .where(and(eq(waitlistEntries.eventId, eventId), eq(waitlistEntries.state, "waiting")))
      .groupBy(waitlistEntries.feeId),
    db
      .select({
        feeId: registrations.feeId,
        valid: sql<number>`count(*)::int`,
        checkedIn: sql<number>`count(*) filter (where exists (select 1 from ${ticketCheckIns} as c where c.ticket_id = ${tickets}.id))::int`,
      })
      .from(tickets)
      .innerJoin(registrations, eq(registrations.id, tickets.registrationId))
      .where(and(eq(tickets.eventId, eventId), eq(registrations.state, "confirmed")))
      .groupBy(registrations.feeId),
  ]);

  const find = <T extends { feeId: string | null }>(rows: T[], feeId: string | null) =>
    rows.find((r) => r.feeId === feeId);
  const countFor = (feeId: string | null, label: string, maxQuantity: number | null) => {
    const confirmed = find(seatRows, feeId)?.confirmed ?? 0;
    const held = find(seatRows, feeId)?.held ?? 0;
    const offered = find(offerRows, feeId)?.seats ?? 0;
    return {
      feeId,
      label,
      maxQuantity,
      confirmed,
      held,
      offered,
      left: maxQuantity === null ? null : Math.max(0, maxQuantity - confirmed - held - offered),
      waiting: find(waitRows, feeId)?.n ?? 0,
      checkedIn: find(checkRows, feeId)?.checkedIn ?? 0,
    };
  };
  const ticketCounts: TicketCount[] = fees.map((fee) =>
    countFor(fee.id, feeLabel(fee.feeType, fee.description), fee.maxQuantity),
  );
  // Registrations without a (remaining) fee: a free event without fees, or a fee since removed.
  const orphan = countFor(null, fees.length ? "Removed ticket" : "Free registration", null);
  if (orphan.confirmed || orphan.held || orphan.offered || orphan.waiting || !fees.length) {
    ticketCounts.push(orphan);
  }

  const taken = ticketCounts.reduce((sum, t) => sum + t.confirmed + t.held + t.offered, 0);
  const capacity = event?.capacity ?? null;
  const byState = Object.fromEntries(REGISTRATION_STATES.map((s) => [s, 0])) as Record<
    RegistrationState,
    number
  >;
  for (const row of stateRows) byState[row.state] = row.n;
  return {
    tickets: ticketCounts,
    capacity,
    taken,
    capacityLeft: capacity === null ? null : Math.max(0, capacity - taken),
    waitlist: waitRows.reduce((sum, r) => sum + r.n, 0),
    byState,
    checkedIn: checkRows.reduce((sum, r) => sum + r.checkedIn, 0),
    validTickets: checkRows.reduce((sum, r) => sum + r.valid, 0),
  };
}

export const REGISTRATIONS_CSV_HEADER = [
  "Registration ID",
  "Name",
  "Email",
  "Ticket",
  "Seats",
  "Status",
  "Unit amount",
  "Currency",
  "Registered at",
  "Confirmed at",
  "Seats checked in",
  "Cancelled at",
  "Cancellation reason",
] as const;

const CSV_LIMIT = 100_000;

/**
 * The event's registrations matching the list's search and status (all pages) as CSV, times in
 * the event's zone with their offset. Cells a spreadsheet would run as a formula are defused by
 * csvCell.
 */
export async function registrationsCsv(
  event: { id: string; timeZone: string },
  filters: Pick<RegistrationFilters, "search" | "status">,
) {
  return (await registrationsCsvExport(event, filters)).csv;
}

/** The CSV with the number of registrations in it (the export's audit row records it). */
export async function registrationsCsvExport(
  event: { id: string; timeZone: string },
  filters: Pick<RegistrationFilters, "search" | "status">,
) {
  const rows: AdminRegistrationRow[] = await getDb()
    .select(listColumns)
    .from(registrations)
    .where(whereFor(event.id, filters))
    .orderBy(asc(registrations.createdAt), asc(registrations.id))
    .limit(CSV_LIMIT);
  const time = (d: Date | null) => (d ? isoInZone(d, event.timeZone) : null);
  const records = rows.map(
    (r) =>
      [
        r.id,
        r.attendeeName,
        r.attendeeEmail,
        r.ticketLabel,
        r.quantity,
        REGISTRATION_STATE_LABELS[r.state],
        // A registration without a currency is a free one.
        r.currency ? minorToDecimal(r.unitAmountMinor, r.currency) : "0.00",
        r.currency,
        time(r.createdAt),
        time(r.confirmedAt),
        r.checkedIn,
        time(r.cancelledAt),
        r.cancelReason,
      ] satisfies CsvValue[],
  );
  return { csv: csvDocument(REGISTRATIONS_CSV_HEADER, records), rows: rows.length };
}

/** Registrations that still stand (confirmed or awaiting payment): who hears of a change. */
export async function liveRegistrationCount(eventId: string) {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(registrations)
    .where(
      and(
        eq(registrations.eventId, eventId),
        inArray(registrations.state, ["confirmed", "awaiting_payment"]),
      ),
    );
  return row?.n ?? 0;
}
