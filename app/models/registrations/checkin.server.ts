// Check-in at the door: every way a ticket becomes "checked in", in one place (style.md rule 11).
// A ticket is checked in once: the UPDATE only touches a row whose checked_in_at is still NULL and
// whose registration is confirmed, so twenty phones scanning one code at once record one check-in
// (decision 0045). The audit row commits with it.
import { and, asc, eq, ilike, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { events, type RegistrationState, registrations, tickets, user } from "~/db/schema";
import { recordAuditIn } from "~/lib/audit.server";
import { formatDate, formatTime } from "~/lib/format";
import { hasRole, type Role } from "~/lib/roles";
import { likePattern } from "~/models/users/users.server";

/** The editor or admin at the door (the request gives the audit row its IP and user agent). */
export type CheckInActor = { id: string; role: Role; request?: Request | null };

export type CheckInRefusal =
  | "unknown"
  | "other_event"
  | "event_cancelled"
  | "cancelled"
  | "unpaid"
  | "expired";

/** The person and seat a scanned ticket stands for: what the door staff read back. */
export type TicketSummary = {
  id: string;
  attendeeName: string;
  ticketLabel: string;
  seat: number;
  seats: number;
};

export type CheckInResult =
  | { outcome: "checked_in"; ticket: TicketSummary; checkedInAt: Date; message: string }
  | {
      outcome: "already";
      ticket: TicketSummary;
      checkedInAt: Date;
      checkedInBy: string;
      message: string;
    }
  | { outcome: "refused"; reason: CheckInRefusal; ticket: TicketSummary | null; message: string };

export class CheckInError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 403 | 404 = 400,
  ) {
    super(message);
  }
}

const REFUSALS: Record<Exclude<CheckInRefusal, "other_event">, string> = {
  unknown: "No ticket has this code. Check the code, or search by name.",
  event_cancelled: "This event is cancelled: no one can be checked in.",
  cancelled: "This registration was cancelled: the ticket is not valid.",
  unpaid: "This registration is not paid yet: the ticket is valid once payment is recorded.",
  expired: "This registration expired unpaid: the ticket is not valid.",
};

const REFUSAL_BY_STATE: Record<Exclude<RegistrationState, "confirmed">, CheckInRefusal> = {
  cancelled: "cancelled",
  awaiting_payment: "unpaid",
  expired: "expired",
};

const MAX_CODE = 200;

/**
 * What a scanner or a typist handed us → the ticket code. Keyboard-wedge scanners add spaces or
 * line ends; a QR code that carries a link to the ticket is read by its last path segment or its
 * `code` parameter.
 */
export function normaliseTicketCode(input: string): string {
  const text = input.trim().slice(0, 2 * MAX_CODE);
  if (/^https?:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      const fromQuery = url.searchParams.get("code");
      if (fromQuery) return fromQuery.trim().slice(0, MAX_CODE);
      const last = url.pathname.split("/").filter(Boolean).pop();
      return decodeURIComponent(last ?? "").slice(0, MAX_CODE);
    } catch {
      return text.slice(0, MAX_CODE);
    }
  }
  return text.replace(/\s+/g, "").slice(0, MAX_CODE);
}

/** "9:05 AM on Mar 1, 2027" in the event's zone: what the door staff's wall clock says. */
export function checkInTimeLabel(at: Date, timeZone: string) {
  return `${formatTime(at, timeZone)} on ${formatDate(at, timeZone)}`;
}

function requireStaff(actor: CheckInActor) {
  if (!hasRole(actor.role, "editor")) {
    throw new CheckInError("Only editors and admins can check people in.", 403);
  }
}

/** The ticket with its registration, event and earlier check-in, found by code or by id. */
async function findTicket(by: { code: string } | { id: string }) {
  const [row] = await getDb()
    .select({
      id: tickets.id,
      eventId: tickets.eventId,
      registrationId: tickets.registrationId,
      seat: tickets.seat,
      checkedInAt: tickets.checkedInAt,
      checkedInBy: user.name,
      state: registrations.state,
      attendeeName: registrations.attendeeName,
      ticketLabel: registrations.ticketLabel,
      seats: registrations.quantity,
      eventTitle: events.title,
      timeZone: events.timeZone,
      eventCancelledAt: events.cancelledAt,
    })
    .from(tickets)
    .innerJoin(registrations, eq(registrations.id, tickets.registrationId))
    .innerJoin(events, eq(events.id, tickets.eventId))
    .leftJoin(user, eq(user.id, tickets.checkedInBy))
    .where("code" in by ? eq(tickets.code, by.code) : eq(tickets.id, by.id))
    .limit(1);
  return row;
}

type FoundTicket = NonNullable<Awaited<ReturnType<typeof findTicket>>>;

function summaryOf(row: FoundTicket): TicketSummary {
  return {
    id: row.id,
    attendeeName: row.attendeeName,
    ticketLabel: row.ticketLabel,
    seat: row.seat,
    seats: row.seats,
  };
}

function alreadyResult(row: FoundTicket, checkedInAt: Date): CheckInResult {
  const by = row.checkedInBy ?? "a staff member whose account was removed";
  return {
    outcome: "already",
    ticket: summaryOf(row),
    checkedInAt,
    checkedInBy: by,
    message: `Already checked in at ${checkInTimeLabel(checkedInAt, row.timeZone)} by ${by}`,
  };
}

/** Why this ticket cannot be checked in now, or null when it can. */
function refusalOf(row: FoundTicket, eventId: string): CheckInResult | null {
  const refuse = (reason: CheckInRefusal, message = REFUSALS[reason as keyof typeof REFUSALS]) =>
    ({ outcome: "refused", reason, ticket: summaryOf(row), message }) as const;
  if (row.eventId !== eventId) {
    return refuse("other_event", `This ticket is for another event: ${row.eventTitle}.`);
  }
  if (row.eventCancelledAt) return refuse("event_cancelled");
  if (row.checkedInAt) return alreadyResult(row, row.checkedInAt);
  if (row.state !== "confirmed") return refuse(REFUSAL_BY_STATE[row.state]);
  return null;
}

/**
 * Checks in one ticket of `eventId`. The conditional UPDATE is the only guard that counts: two
 * scans of one code race to it, one wins, the other re-reads and answers "Already checked in".
 */
async function checkIn(
  eventId: string,
  by: { code: string } | { id: string },
  actor: CheckInActor,
  via: "code" | "search",
): Promise<CheckInResult> {
  requireStaff(actor);
  const row = await findTicket(by);
  if (!row) {
    return { outcome: "refused", reason: "unknown", ticket: null, message: REFUSALS.unknown };
  }
  const refusal = refusalOf(row, eventId);
  if (refusal) return refusal;

  const checkedInAt = await getDb().transaction(async (tx) => {
    const [updated] = await tx
      .update(tickets)
      .set({ checkedInAt: new Date(), checkedInBy: actor.id })
      .where(
        and(
          eq(tickets.id, row.id),
          isNull(tickets.checkedInAt),
          // Spelt out: drizzle writes an UPDATE's columns unqualified, ambiguous in a subquery.
          sql`exists (select 1 from ${registrations} as r where r.id = ${tickets}.registration_id and r.state = 'confirmed')`,
        ),
      )
      .returning({ checkedInAt: tickets.checkedInAt });
    if (!updated?.checkedInAt) return null;
    await recordAuditIn(tx, actor.request ?? null, {
      action: "ticket.check_in",
      actorId: actor.id,
      entity: "ticket",
      entityId: row.id,
      details: {
        eventId,
        registrationId: row.registrationId,
        attendee: row.attendeeName,
        seat: row.seat,
        via,
      },
    });
    return updated.checkedInAt;
  });

  if (!checkedInAt) {
    // Someone else got there first (or the registration changed meanwhile): say what happened.
    const now = await findTicket({ id: row.id });
    const lost = now ? refusalOf(now, eventId) : null;
    if (lost) return lost;
    throw new CheckInError("The ticket could not be checked in. Please try again.");
  }
  return {
    outcome: "checked_in",
    ticket: summaryOf(row),
    checkedInAt,
    message: `Checked in: ${row.attendeeName} · ${row.ticketLabel}${
      row.seats > 1 ? ` · seat ${row.seat} of ${row.seats}` : ""
    }`,
  };
}

/** A scanned (QR, keyboard-wedge) or typed ticket code. */
export async function checkInByCode(eventId: string, input: string, actor: CheckInActor) {
  const code = normaliseTicketCode(input);
  if (!code) throw new CheckInError("Scan a ticket or type its code.");
  return checkIn(eventId, { code }, actor, "code");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A ticket picked from the name search. */
export async function checkInTicket(
  eventId: string,
  ticketId: string,
  actor: CheckInActor,
): Promise<CheckInResult> {
  if (!UUID.test(ticketId)) {
    requireStaff(actor);
    return { outcome: "refused", reason: "unknown", ticket: null, message: REFUSALS.unknown };
  }
  return checkIn(eventId, { id: ticketId }, actor, "search");
}

export type CheckInSearchResult = {
  registrationId: string;
  attendeeName: string;
  ticketLabel: string;
  state: RegistrationState;
  tickets: Array<{
    id: string;
    seat: number;
    checkedInAt: Date | null;
    checkedInBy: string | null;
  }>;
};

const SEARCH_LIMIT = 20;

/**
 * Registrations of the event whose attendee name or e-mail contains `query`, with their tickets:
 * the name search of the check-in screen (everyone is listed, so a refused ticket is explained).
 */
export async function searchCheckInTickets(
  eventId: string,
  query: string,
): Promise<CheckInSearchResult[]> {
  const term = query.trim().slice(0, 100);
  if (term.length < 2) return [];
  const db = getDb();
  const matches = await db
    .select({
      id: registrations.id,
      attendeeName: registrations.attendeeName,
      ticketLabel: registrations.ticketLabel,
      state: registrations.state,
    })
    .from(registrations)
    .where(
      and(
        eq(registrations.eventId, eventId),
        or(
          ilike(registrations.attendeeName, likePattern(term)),
          ilike(registrations.attendeeEmail, likePattern(term)),
        ),
      ),
    )
    // Confirmed first: those are the people at the door.
    .orderBy(
      sql`${registrations.state} <> 'confirmed'`,
      asc(registrations.attendeeName),
      asc(registrations.createdAt),
    )
    .limit(SEARCH_LIMIT);
  if (matches.length === 0) return [];
  const seats = await db
    .select({
      id: tickets.id,
      registrationId: tickets.registrationId,
      seat: tickets.seat,
      checkedInAt: tickets.checkedInAt,
      checkedInBy: user.name,
    })
    .from(tickets)
    .leftJoin(user, eq(user.id, tickets.checkedInBy))
    .where(
      inArray(
        tickets.registrationId,
        matches.map((m) => m.id),
      ),
    )
    .orderBy(asc(tickets.seat));
  return matches.map((m) => ({
    registrationId: m.id,
    attendeeName: m.attendeeName,
    ticketLabel: m.ticketLabel,
    state: m.state,
    tickets: seats
      .filter((s) => s.registrationId === m.id)
      .map(({ id, seat, checkedInAt, checkedInBy }) => ({ id, seat, checkedInAt, checkedInBy })),
  }));
}

/** Tickets of confirmed registrations, and how many of them are checked in: the door's tally. */
export async function checkInTally(eventId: string) {
  const [row] = await getDb()
    .select({
      valid: sql<number>`count(*)::int`,
      checkedIn: sql<number>`count(${tickets.checkedInAt})::int`,
    })
    .from(tickets)
    .innerJoin(registrations, eq(registrations.id, tickets.registrationId))
    .where(and(eq(tickets.eventId, eventId), eq(registrations.state, "confirmed")));
  return { valid: row?.valid ?? 0, checkedIn: row?.checkedIn ?? 0 };
}

/** The last check-ins at this event, newest first (the screen's "recent" list). */
export function recentCheckIns(eventId: string, limit = 5) {
  return getDb()
    .select({
      ticketId: tickets.id,
      attendeeName: registrations.attendeeName,
      ticketLabel: registrations.ticketLabel,
      seat: tickets.seat,
      checkedInAt: tickets.checkedInAt,
    })
    .from(tickets)
    .innerJoin(registrations, eq(registrations.id, tickets.registrationId))
    .where(and(eq(tickets.eventId, eventId), isNotNull(tickets.checkedInAt)))
    .orderBy(sql`${tickets.checkedInAt} desc`)
    .limit(limit);
}
