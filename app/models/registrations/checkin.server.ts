// Check-in at the door: every way a ticket is admitted, in one place (style.md rule 11).
// A ticket is admitted once per event day (issue 30): the INSERT into ticket_check_ins only
// happens for a confirmed registration and its unique (ticket, day) index is the guard, so twenty
// phones scanning one code at once record one admission (decision 0045, 0089). The door opens a
// set time before the start (organisers may open it earlier) and closes when the last day ends.
// The audit row commits with the admission. A group ticket admits its stated number of people
// (tickets.admits) on each day: admissions are numbered 1..admits and the unique (ticket, day,
// admission) index is the guard (decision 0093).
import { and, asc, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import { getDb, queryRows } from "~/db/client.server";
import {
  events,
  type RegistrationState,
  registrations,
  ticketCheckIns,
  tickets,
  user,
} from "~/db/schema";
import { formatDate, formatTime } from "~/lib/format";
import { auditIn, DomainError, type PersonActor } from "~/lib/lifecycle.server";
import { hasRole } from "~/lib/roles";
import { dayInZone, instantInZone } from "~/lib/time-zones";
import { likePattern } from "~/models/users/users.server";

/** Unless an organiser says otherwise, the door opens this long before the event starts. */
export const CHECK_IN_OPENS_BEFORE_MINUTES = 120;

export type CheckInRefusal =
  | "unknown"
  | "other_event"
  | "event_cancelled"
  | "not_open"
  | "closed"
  | "cancelled"
  | "unpaid"
  | "expired";

/** What the door needs of an event to know whether, and for which day, it admits people. */
export type DoorEvent = {
  startDate: Date;
  endDate: Date;
  timeZone: string;
  checkInOpensAt: Date | null;
};

function nextDay(day: string) {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/** The event's days ('yyyy-MM-dd' in its zone), first to last. */
export function eventDays(event: DoorEvent): string[] {
  const last = dayInZone(event.endDate, event.timeZone);
  const days = [dayInZone(event.startDate, event.timeZone)];
  while (days.length < 366 && days[days.length - 1] < last)
    days.push(nextDay(days[days.length - 1]));
  return days;
}

/**
 * When the door opens and closes, and the event day an admission at `now` counts for (the first
 * day before the event starts, the last day after it ends; null when the door is shut).
 */
export function doorAt(event: DoorEvent, now: Date) {
  const days = eventDays(event);
  const opensAt =
    event.checkInOpensAt ??
    new Date(event.startDate.getTime() - CHECK_IN_OPENS_BEFORE_MINUTES * 60_000);
  const closesAt = instantInZone(nextDay(days[days.length - 1]), 0, 0, event.timeZone);
  const today = dayInZone(now, event.timeZone);
  // 'yyyy-MM-dd' strings sort as dates: the middle of the three is today clamped to the event.
  const day = [days[0], today, days[days.length - 1]].sort()[1];
  const open = now >= opensAt && now < closesAt;
  return { opensAt, closesAt, days, day: open ? day : null, open };
}

/** 'Tue, Mar 2' for a day's heading on a multi-day event. */
export function eventDayLabel(day: string) {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, date, 12)).toLocaleDateString("en-US", {
    weekday: "short",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}

/** The person and seat a scanned ticket stands for: what the door staff read back. */
export type TicketSummary = {
  id: string;
  attendeeName: string;
  ticketLabel: string;
  seat: number;
  seats: number;
  /** People this ticket admits per day (a group ticket: more than 1). */
  admits: number;
  /** People let in on it today (the door's day), this admission included. */
  admitted: number;
};

/** "Admits 6 — 2 of 6 in": what a group ticket's page and the door show. */
export function admitsLabel(admits: number, admitted: number) {
  return `Admits ${admits} — ${admitted} of ${admits} in`;
}

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

const REFUSALS: Record<Exclude<CheckInRefusal, "other_event" | "not_open" | "closed">, string> = {
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

function requireStaff(actor: PersonActor) {
  if (!hasRole(actor.role, "editor")) {
    throw new DomainError("Only editors and admins can check people in.", 403);
  }
}

/**
 * The ticket with its registration and event, and its admission on the day the door admits for at
 * `now` (if any), found by code or by id.
 */
async function findTicket(by: { code: string } | { id: string }, now: Date) {
  const [found] = await getDb()
    .select({
      id: tickets.id,
      eventId: tickets.eventId,
      registrationId: tickets.registrationId,
      seat: tickets.seat,
      state: registrations.state,
      attendeeName: registrations.attendeeName,
      ticketLabel: registrations.ticketLabel,
      seats: registrations.quantity,
      admits: tickets.admits,
      eventTitle: events.title,
      timeZone: events.timeZone,
      startDate: events.startDate,
      endDate: events.endDate,
      checkInOpensAt: events.checkInOpensAt,
      eventCancelledAt: events.cancelledAt,
    })
    .from(tickets)
    .innerJoin(registrations, eq(registrations.id, tickets.registrationId))
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where("code" in by ? eq(tickets.code, by.code) : eq(tickets.id, by.id))
    .limit(1);
  if (!found) return undefined;
  const door = doorAt(found, now);
  // Today's admissions, the latest first (a group ticket may have several).
  const admissions = door.day
    ? await getDb()
        .select({ checkedInAt: ticketCheckIns.checkedInAt, checkedInBy: user.name })
        .from(ticketCheckIns)
        .leftJoin(user, eq(user.id, ticketCheckIns.checkedInBy))
        .where(and(eq(ticketCheckIns.ticketId, found.id), eq(ticketCheckIns.day, door.day)))
        .orderBy(desc(ticketCheckIns.admission))
    : [];
  const [latest] = admissions;
  return {
    ...found,
    door,
    admitted: admissions.length,
    checkedInAt: latest?.checkedInAt ?? null,
    checkedInBy: latest?.checkedInBy ?? null,
  };
}

type FoundTicket = NonNullable<Awaited<ReturnType<typeof findTicket>>>;

function summaryOf(row: FoundTicket): TicketSummary {
  return {
    id: row.id,
    attendeeName: row.attendeeName,
    ticketLabel: row.ticketLabel,
    seat: row.seat,
    seats: row.seats,
    admits: row.admits,
    admitted: row.admitted,
  };
}

function alreadyResult(row: FoundTicket, checkedInAt: Date): CheckInResult {
  const by = row.checkedInBy ?? "a staff member whose account was removed";
  const today = row.door.days.length > 1 ? " today" : "";
  const when = `${checkInTimeLabel(checkedInAt, row.timeZone)} by ${by}`;
  return {
    outcome: "already",
    ticket: summaryOf(row),
    checkedInAt,
    checkedInBy: by,
    message:
      row.admits > 1
        ? `All ${row.admits} people on this group ticket are already in${today} (${admitsLabel(row.admits, row.admitted)}); the last at ${when}`
        : `Already checked in${today} at ${when}`,
  };
}

/** Why this ticket cannot be checked in now, or null when it can. */
function refusalOf(row: FoundTicket, eventId: string, now: Date): CheckInResult | null {
  const refuse = (reason: CheckInRefusal, message = REFUSALS[reason as keyof typeof REFUSALS]) =>
    ({ outcome: "refused", reason, ticket: summaryOf(row), message }) as const;
  if (row.eventId !== eventId) {
    return refuse("other_event", `This ticket is for another event: ${row.eventTitle}.`);
  }
  if (row.eventCancelledAt) return refuse("event_cancelled");
  if (!row.door.open) {
    const at = (d: Date) => checkInTimeLabel(d, row.timeZone);
    return now >= row.door.closesAt
      ? refuse("closed", `Check-in for this event closed at ${at(row.door.closesAt)}.`)
      : refuse("not_open", `Check-in opens at ${at(row.door.opensAt)}.`);
  }
  if (row.checkedInAt && row.admitted >= row.admits) return alreadyResult(row, row.checkedInAt);
  if (row.state !== "confirmed") return refuse(REFUSAL_BY_STATE[row.state]);
  return null;
}

/**
 * Admits one ticket of `eventId` (one person of a group ticket) for the day the door admits for at
 * `now`. The conditional INSERT is the only guard that counts: it takes the next admission number
 * while fewer than the ticket's admits are in, and two scans of one code race to the unique
 * (ticket, day, admission) index; the loser tries the next number, or, when the ticket is full,
 * re-reads and answers "Already checked in".
 */
async function checkIn(
  eventId: string,
  by: { code: string } | { id: string },
  actor: PersonActor,
  via: "code" | "search",
  now: Date,
): Promise<CheckInResult> {
  requireStaff(actor);
  const row = await findTicket(by, now);
  if (!row) {
    return { outcome: "refused", reason: "unknown", ticket: null, message: REFUSALS.unknown };
  }
  const refusal = refusalOf(row, eventId, now);
  if (refusal) return refusal;
  const day = row.door.day as string;

  let admittedRow: { checkedInAt: Date; admission: number } | null = null;
  // One attempt per free place at most: each lost race means one more person is in.
  for (let attempt = 0; attempt < Math.max(1, row.admits) && !admittedRow; attempt++) {
    admittedRow = await getDb().transaction(async (tx) => {
      const [admitted] = await queryRows<{ checked_in_at: Date | string; admission: number }>(
        sql`insert into ${ticketCheckIns} (ticket_id, event_id, day, checked_in_at, checked_in_by, admission)
            select t.id, t.event_id, ${day}::date, ${now.toISOString()}::timestamptz, ${actor.id}, n.next
            from ${tickets} as t join ${registrations} as r on r.id = t.registration_id
            cross join lateral (
              select count(*)::int + 1 as next from ${ticketCheckIns} as c
              where c.ticket_id = t.id and c.day = ${day}::date
            ) as n
            where t.id = ${row.id} and r.state = 'confirmed' and n.next <= t.admits
            on conflict (ticket_id, day, admission) do nothing
            returning checked_in_at, admission`,
        tx,
      );
      if (!admitted) return null;
      await auditIn(tx, actor, "ticket.check_in", row.id, {
        eventId,
        registrationId: row.registrationId,
        attendee: row.attendeeName,
        seat: row.seat,
        day,
        via,
        ...(row.admits > 1 ? { admission: Number(admitted.admission), admits: row.admits } : {}),
      });
      return {
        checkedInAt: new Date(admitted.checked_in_at),
        admission: Number(admitted.admission),
      };
    });
    if (!admittedRow) {
      const again = await findTicket({ id: row.id }, now);
      if (!again || again.admitted >= again.admits || again.state !== "confirmed") break;
    }
  }

  if (!admittedRow) {
    // Someone else got there first (or the registration changed meanwhile): say what happened.
    const again = await findTicket({ id: row.id }, now);
    const lost = again ? refusalOf(again, eventId, now) : null;
    if (lost) return lost;
    throw new DomainError("The ticket could not be checked in. Please try again.", 409);
  }
  const dayNote = row.door.days.length > 1 ? ` · ${eventDayLabel(day)}` : "";
  const { checkedInAt, admission } = admittedRow;
  return {
    outcome: "checked_in",
    ticket: { ...summaryOf(row), admitted: admission },
    checkedInAt,
    message: `Checked in: ${row.attendeeName} · ${row.ticketLabel}${
      row.seats > 1 ? ` · seat ${row.seat} of ${row.seats}` : ""
    }${row.admits > 1 ? ` · ${admitsLabel(row.admits, admission)}` : ""}${dayNote}`,
  };
}

/** A scanned (QR, keyboard-wedge) or typed ticket code. */
export async function checkInByCode(
  eventId: string,
  input: string,
  actor: PersonActor,
  now = new Date(),
) {
  const code = normaliseTicketCode(input);
  if (!code) throw new DomainError("Scan a ticket or type its code.", 400);
  return checkIn(eventId, { code }, actor, "code", now);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A ticket picked from the name search. */
export async function checkInTicket(
  eventId: string,
  ticketId: string,
  actor: PersonActor,
  now = new Date(),
): Promise<CheckInResult> {
  if (!UUID.test(ticketId)) {
    requireStaff(actor);
    return { outcome: "refused", reason: "unknown", ticket: null, message: REFUSALS.unknown };
  }
  return checkIn(eventId, { id: ticketId }, actor, "search", now);
}

/**
 * Opens the door now (an organiser's override of "a set time before the start"), with its audit
 * row. Opening an already open door changes nothing.
 */
export async function openCheckInNow(eventId: string, actor: PersonActor, now = new Date()) {
  requireStaff(actor);
  return getDb().transaction(async (tx) => {
    const [event] = await tx
      .select({
        startDate: events.startDate,
        endDate: events.endDate,
        timeZone: events.timeZone,
        checkInOpensAt: events.checkInOpensAt,
        cancelledAt: events.cancelledAt,
      })
      .from(events)
      .where(eq(events.id, eventId))
      .for("update");
    if (!event) throw new DomainError("Event not found", 404);
    if (event.cancelledAt) throw new DomainError(REFUSALS.event_cancelled, 409);
    const door = doorAt(event, now);
    if (now >= door.closesAt) {
      throw new DomainError("This event is over: check-in cannot be opened again.", 409);
    }
    if (door.open) return { opened: false };
    await tx.update(events).set({ checkInOpensAt: now }).where(eq(events.id, eventId));
    await auditIn(tx, actor, "event.check_in_opened", eventId, {
      before: door.opensAt.toISOString(),
      after: now.toISOString(),
    });
    return { opened: true };
  });
}

export type CheckInSearchResult = {
  registrationId: string;
  attendeeName: string;
  ticketLabel: string;
  state: RegistrationState;
  tickets: Array<{
    id: string;
    seat: number;
    /** People this ticket admits per day, and how many are in on the door's day. */
    admits: number;
    admitted: number;
    /** The latest admission on the door's day. */
    checkedInAt: Date | null;
    checkedInBy: string | null;
  }>;
};

const SEARCH_LIMIT = 20;

/**
 * Registrations of the event whose attendee name or e-mail contains `query`, with their tickets
 * and each ticket's admission on `day` (the door's day; null when the door is shut): the name
 * search of the check-in screen (everyone is listed, so a refused ticket is explained).
 */
export async function searchCheckInTickets(
  eventId: string,
  query: string,
  day: string | null,
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
  const rows = await db
    .select({
      id: tickets.id,
      registrationId: tickets.registrationId,
      seat: tickets.seat,
      admits: tickets.admits,
      admission: ticketCheckIns.admission,
      checkedInAt: ticketCheckIns.checkedInAt,
      checkedInBy: user.name,
    })
    .from(tickets)
    .leftJoin(
      ticketCheckIns,
      and(eq(ticketCheckIns.ticketId, tickets.id), eq(ticketCheckIns.day, day ?? "0001-01-01")),
    )
    .leftJoin(user, eq(user.id, ticketCheckIns.checkedInBy))
    .where(
      inArray(
        tickets.registrationId,
        matches.map((m) => m.id),
      ),
    )
    .orderBy(asc(tickets.seat), desc(ticketCheckIns.admission));
  // One entry per ticket: its latest admission today and how many are in.
  const seats: Array<(typeof rows)[number] & { admitted: number }> = [];
  for (const r of rows) {
    const seen = seats.find((s) => s.id === r.id);
    if (seen) seen.admitted += r.admission === null ? 0 : 1;
    else seats.push({ ...r, admitted: r.admission === null ? 0 : 1 });
  }
  return matches.map((m) => ({
    registrationId: m.id,
    attendeeName: m.attendeeName,
    ticketLabel: m.ticketLabel,
    state: m.state,
    tickets: seats
      .filter((s) => s.registrationId === m.id)
      .map(({ id, seat, admits, admitted, checkedInAt, checkedInBy }) => ({
        id,
        seat,
        admits,
        admitted,
        checkedInAt,
        checkedInBy,
      })),
  }));
}

/**
 * The door's tally: people the tickets of confirmed registrations admit (a group ticket counts its
 * admits), how many are admitted on `day` (the door's day, or the last day with admissions once it
 * is shut), and the count for each day of the event.
 */
export async function checkInTally(eventId: string, days: string[], day: string | null) {
  const db = getDb();
  const [[valid], perDay] = await Promise.all([
    db
      .select({ n: sql<number>`coalesce(sum(${tickets.admits}), 0)::int` })
      .from(tickets)
      .innerJoin(registrations, eq(registrations.id, tickets.registrationId))
      .where(and(eq(tickets.eventId, eventId), eq(registrations.state, "confirmed"))),
    db
      .select({ day: ticketCheckIns.day, n: sql<number>`count(*)::int` })
      .from(ticketCheckIns)
      .innerJoin(tickets, eq(tickets.id, ticketCheckIns.ticketId))
      .innerJoin(registrations, eq(registrations.id, tickets.registrationId))
      .where(and(eq(ticketCheckIns.eventId, eventId), eq(registrations.state, "confirmed")))
      .groupBy(ticketCheckIns.day),
  ]);
  const countOn = (d: string) => perDay.find((r) => r.day === d)?.n ?? 0;
  const shown = day ?? [...days].reverse().find((d) => countOn(d) > 0) ?? days[0];
  return {
    valid: valid?.n ?? 0,
    day: shown,
    checkedIn: countOn(shown),
    days: days.map((d) => ({ day: d, label: eventDayLabel(d), checkedIn: countOn(d) })),
  };
}

/** The last admissions at this event, newest first (the screen's "recent" list). */
export function recentCheckIns(eventId: string, limit = 5) {
  return getDb()
    .select({
      ticketId: tickets.id,
      attendeeName: registrations.attendeeName,
      ticketLabel: registrations.ticketLabel,
      seat: tickets.seat,
      checkedInAt: ticketCheckIns.checkedInAt,
    })
    .from(ticketCheckIns)
    .innerJoin(tickets, eq(tickets.id, ticketCheckIns.ticketId))
    .innerJoin(registrations, eq(registrations.id, tickets.registrationId))
    .where(eq(ticketCheckIns.eventId, eventId))
    .orderBy(desc(ticketCheckIns.checkedInAt))
    .limit(limit);
}
