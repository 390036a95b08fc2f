// Event registration (issue 15): every way a registration or a waitlist place can change, one
// exported function per transition. Each runs in one transaction that counts and takes seats under
// the event's seat locks (a booking: shared on the event and exclusive per quota, after its writes;
// every other change: `lockEvent`), so counting the seats held and taking some is atomic on PGlite
// and on PostgreSQL alike, and writes its audit row in that transaction (style.md rule 11,
// decisions 0040 and 0117).
import { randomBytes } from "node:crypto";
import { and, asc, eq, type GetColumnData, inArray, type SQL, sql } from "drizzle-orm";
import { alongside } from "~/db/alongside";
import { type Database, type DbTransaction, getDb } from "~/db/client.server";
import {
  type Currency,
  eventFees,
  events,
  orders,
  type RegistrationRow,
  type RegistrationState,
  registrations,
  tickets,
  user,
  type WaitlistEntryRow,
  type WaitlistState,
  waitlistEntries,
} from "~/db/schema";
import { tooManyAttemptsMessage } from "~/lib/auth.server";
import { publicFeeTypeLabel } from "~/lib/constants";
import { env } from "~/lib/env.server";
import { dayInZone, formatDate } from "~/lib/format";
import {
  type Actor,
  actorId,
  auditIn,
  DomainError,
  type DomainErrorStatus,
  defineMachine,
  isPerson,
} from "~/lib/lifecycle.server";
import { formatMinor } from "~/lib/money";
import { hitRateLimit } from "~/lib/rate-limit.server";
import { clientIp } from "~/lib/request.server";
import { hasRole } from "~/lib/roles";
import { onSaleFromLabel } from "~/models/events/fee-sale";
import { enqueueJob, enqueueMail, jobsInsert } from "~/models/jobs.server";
import { hasMemberBenefits } from "~/models/membership/queries.server";
import { cancelOrder, OrderError, openOrder } from "~/models/orders/orders.server";
import type { OrderClosedReaction } from "~/models/orders/reactions.server";
import { REGISTRATION_JOBS } from "./job-kinds";
import {
  closedRegistrationMail,
  reminderMail,
  waitlistOfferExpiredMail,
  waitlistOfferMail,
} from "./registration-mails";

type Tx = DbTransaction;
type Db = Database | Tx;

/** Seats one registration may take of an event without fees (a fee sets its own max_per_order). */
export const MAX_SEATS_PER_REGISTRATION = 10;
/** Live registrations one account may have for the free ticket of an event without fees. */
export const MAX_REGISTRATIONS_PER_ACCOUNT = 1;
/** Registrations awaiting payment one account may have across the site (decision 0073). */
export const MAX_UNPAID_HOLDS_PER_ACCOUNT = 3;
/** A hold on a ticket whose earlier hold by the same account lapsed lasts at least this long. */
export const REPEAT_HOLD_MINUTES = 60;
/** Distinct addresses other than its own one account may have tickets mailed to, per window. */
export const MAX_OTHER_ATTENDEE_EMAILS = 20;
export const OTHER_ATTENDEE_EMAILS_DAYS = 30;
/** A waitlist request that does not fit is passed over at most this often, then it waits first. */
export const WAITLIST_MAX_SKIPS = 3;
/** Register, join and leave the waitlist: per account and per client address (fixed windows). */
export const REGISTRATION_RATE_LIMIT = {
  perAccount: { max: 5, windowMs: 60_000 },
  perClient: { max: 30, windowMs: 60_000 },
} as const;
/** A freed seat offered to the next person on the waitlist is held for them this long. */
export const WAITLIST_OFFER_HOURS = 24;
/** Attendees cancel online until this long before the start; later, staff do (decision 0042). */
export const SELF_CANCEL_HOURS_BEFORE = 48;

/** The registrations' refusals (the domain error, under the name their routes catch). */
export class RegistrationError extends DomainError {
  declare readonly field: "feeId" | "quantity" | "attendeeEmail" | "form";
  declare readonly code?: "full";
  constructor(
    message: string,
    status: DomainErrorStatus = 409,
    /** The form field the message belongs under. */
    field: "feeId" | "quantity" | "attendeeEmail" | "form" = "form",
    /** "full": no seats for this request, the waitlist is the way on. */
    code?: "full",
  ) {
    super(message, status, field, code);
  }
}

/**
 * Every legal move of a registration. Created awaiting payment (a free one is confirmed in the
 * same transaction); it closes with its order or is cancelled; a closed one whose order is
 * reinstated holds its seats again (issue 26).
 */
export const REGISTRATION_TRANSITIONS: Record<RegistrationState, readonly RegistrationState[]> = {
  awaiting_payment: ["confirmed", "cancelled", "expired"],
  confirmed: ["cancelled"],
  cancelled: ["awaiting_payment"],
  expired: ["awaiting_payment"],
};

/** Every legal move of a waitlist place: offered freed seats, then claimed, left or expired. */
export const WAITLIST_TRANSITIONS: Record<WaitlistState, readonly WaitlistState[]> = {
  waiting: ["offered", "left"],
  offered: ["claimed", "left", "expired"],
  claimed: [],
  left: [],
  expired: [],
};

const registrationError = (message: string, status?: DomainErrorStatus) =>
  new RegistrationError(message, status);

export const registrationMachine = defineMachine<RegistrationState, RegistrationRow>({
  entity: "registration",
  noun: "registration",
  table: registrations,
  transitions: REGISTRATION_TRANSITIONS,
  error: registrationError,
});

export const waitlistMachine = defineMachine<WaitlistState, WaitlistEntryRow>({
  entity: "waitlist",
  noun: "waitlist place",
  table: waitlistEntries,
  transitions: WAITLIST_TRANSITIONS,
  error: registrationError,
});

/**
 * Whether this person may buy the `member` fee: exactly while their membership (own or a
 * corporate seat) gives member benefits — active, renewal open or in grace (issue 16).
 */
export async function mayBuyMemberFee(
  userId: string,
  at: Date = new Date(),
  db: Db = getDb(),
): Promise<boolean> {
  return hasMemberBenefits(userId, at, db);
}

// ---------------------------------------------------------------------------------------------
// Events, tickets and seats
// ---------------------------------------------------------------------------------------------
/** The event columns registration reads (this module and the attendee queries). */
export const eventColumns = {
  id: events.id,
  slug: events.slug,
  title: events.title,
  status: events.status,
  location: events.location,
  startDate: events.startDate,
  endDate: events.endDate,
  timeZone: events.timeZone,
  capacity: events.capacity,
  cancelledAt: events.cancelledAt,
  sequence: events.sequence,
};
export type RegistrationEvent = {
  id: string;
  slug: string;
  title: string;
  status: string;
  location: string;
  startDate: Date;
  endDate: Date;
  timeZone: string;
  capacity: number | null;
  cancelledAt: Date | null;
  sequence: number;
};

/** The class of every seat lock (pg_advisory_xact_lock's first key). */
const SEAT_LOCKS = 0x5ea7;

/**
 * Locks the event for a change to any of its seats (cancelling, closing an order, confirming on
 * payment, waitlist joins, offers and claims, reinstating): its row, then its seat lock
 * exclusively, so no booking counts while it changes them (decision 0117). Lock order: the order,
 * then the account, then the event row, then the seat locks, then the invoice counter.
 */
export async function lockEvent(tx: Tx, eventId: string): Promise<RegistrationEvent> {
  const [event] = await tx
    .select(eventColumns)
    .from(events)
    .where(eq(events.id, eventId))
    .for("no key update");
  if (!event) throw new RegistrationError("Event not found", 404);
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(${SEAT_LOCKS}, hashtext(${`event:${eventId}`}))`,
  );
  return event;
}

/**
 * A booking's seat locks (issue 33 item 3, decision 0117), held to the commit: the event's shared
 * (bookings pass each other; `lockEvent` waits for them all), then exclusively the event's
 * capacity when it has one and each ticket with a stock of its own, in a fixed order, as pretix
 * locks its quotas. Bookings of different tickets of an event without an overall capacity do not
 * wait for each other, and nobody locks the event row to book. Taken after the booking's writes:
 * only the count and the commit happen under them. Returns the seats as they are now.
 */
export async function lockSeats(
  tx: Tx,
  seen: RegistrationEvent,
  tickets: Array<Pick<TicketOption, "feeId" | "stock">>,
): Promise<CountedSeats> {
  const quotas = [
    ...new Set([
      ...(seen.capacity === null ? [] : [`capacity:${seen.id}`]),
      ...tickets.filter((t) => t.stock !== null && t.feeId).map((t) => `fee:${t.feeId}`),
    ]),
  ].sort();
  // One round trip; unnest yields the keys in order, so the locks are taken in that order.
  await tx.execute(sql`SELECT CASE WHEN t.i = 1
      THEN pg_advisory_xact_lock_shared(${SEAT_LOCKS}, hashtext(t.k))
      ELSE pg_advisory_xact_lock(${SEAT_LOCKS}, hashtext(t.k)) END
    FROM unnest(ARRAY[${sql.join(
      [`event:${seen.id}`, ...quotas].map((key) => sql`${key}`),
      sql`, `,
    )}]::text[]) WITH ORDINALITY AS t(k, i)`);
  const counted = await countSeats(tx, seen.id);
  // An organiser gave the event a capacity while this booking was under way: its lock was not in
  // the order above, so it is only tried (waiting could deadlock with a booking that has it).
  if (seen.capacity === null && counted.event.capacity !== null) {
    const result = await tx.execute(
      sql`SELECT pg_try_advisory_xact_lock(${SEAT_LOCKS}, hashtext(${`capacity:${seen.id}`})) AS locked`,
    );
    if (!(result as unknown as { rows: Array<{ locked: boolean }> }).rows[0]?.locked) {
      throw new RegistrationError(
        "The seats of this event changed just now. Please try again.",
        409,
      );
    }
    // Counted again under the capacity's lock.
    return countSeats(tx, seen.id);
  }
  return counted;
}

export function isPastEvent(event: { endDate: Date }, now = new Date()) {
  return event.endDate.getTime() <= now.getTime();
}

/** Why an event takes no registrations now, or null when it does. */
export function registrationClosedReason(
  event: Pick<RegistrationEvent, "status" | "startDate" | "cancelledAt">,
  now = new Date(),
): string | null {
  if (event.cancelledAt) return "This event has been cancelled and takes no registrations.";
  if (event.status !== "published") return "This event is not open for registration.";
  if (event.startDate.getTime() <= now.getTime()) {
    return "This event has started or ended and takes no registrations.";
  }
  return null;
}

/** A ticket: one event fee, or the single free ticket of an event without fees. */
export type TicketOption = {
  feeId: string | null;
  feeType: string | null;
  label: string;
  description: string | null;
  unitAmountMinor: number;
  currency: Currency | null;
  amountLabel: string;
  /** Seats of this ticket in total (the fee's max_quantity); null: no limit of its own. */
  stock: number | null;
  /** Seats one registration may take (the fee's max_per_order). */
  maxPerOrder: number;
  /** Live registrations (held or confirmed) one account may have (the fee's max_per_account). */
  maxPerAccount: number;
  /** People one ticket admits (a group ticket: more than 1); each takes a place of the capacity. */
  admits: number;
  availableUntil: string | null;
  /** On sale now for this person (sale started, available_until not passed, member fee allowed). */
  onSale: boolean;
  offSaleReason: string | null;
};

/** The fee columns a ticket option is made of. */
const feeColumns = {
  id: eventFees.id,
  feeType: eventFees.feeType,
  unitAmountMinor: eventFees.amountMinor, // integer minor units (decision 0081)
  currency: eventFees.currency,
  description: eventFees.description,
  maxQuantity: eventFees.maxQuantity,
  maxPerOrder: eventFees.maxPerOrder,
  maxPerAccount: eventFees.maxPerAccount,
  availableUntil: eventFees.availableUntil,
  saleStartsAt: eventFees.saleStartsAt,
  admits: eventFees.admits,
};
type FeeRow = { [K in keyof typeof feeColumns]: GetColumnData<(typeof feeColumns)[K]> };
const feeOrder = [asc(eventFees.amountMinor), asc(eventFees.createdAt)];

export async function loadTicketOptions(
  db: Db,
  event: Pick<RegistrationEvent, "id" | "timeZone">,
  userId: string | null,
  now = new Date(),
): Promise<TicketOption[]> {
  const fees = await db
    .select(feeColumns)
    .from(eventFees)
    .where(eq(eventFees.eventId, event.id))
    .orderBy(...feeOrder);
  return ticketOptionsOf(db, event, fees, userId, now);
}

/**
 * The event as it is now, without a lock, and its tickets for this person, in one round trip: what
 * a booking checks before it takes its seat locks (its tickets and the account's own limits).
 * Anything that counts seats reads the event again under them.
 */
export async function readEventAndTickets(
  tx: Tx,
  eventId: string,
  userId: string | null,
  now = new Date(),
): Promise<{ event: RegistrationEvent; options: TicketOption[] }> {
  const rows = await tx
    .select({ event: eventColumns, fee: feeColumns })
    .from(events)
    .leftJoin(eventFees, eq(eventFees.eventId, events.id))
    .where(eq(events.id, eventId))
    .orderBy(...feeOrder);
  if (rows.length === 0) throw new RegistrationError("Event not found", 404);
  const event = rows[0].event;
  const fees = rows.flatMap((row) => (row.fee ? [row.fee] : []));
  return { event, options: await ticketOptionsOf(tx, event, fees, userId, now) };
}

async function ticketOptionsOf(
  db: Db,
  event: Pick<RegistrationEvent, "id" | "timeZone">,
  fees: FeeRow[],
  userId: string | null,
  now: Date,
): Promise<TicketOption[]> {
  if (fees.length === 0) {
    return [
      {
        feeId: null,
        feeType: null,
        label: "Free registration",
        description: null,
        unitAmountMinor: 0,
        currency: null,
        amountLabel: "Free",
        stock: null,
        maxPerOrder: MAX_SEATS_PER_REGISTRATION,
        maxPerAccount: MAX_REGISTRATIONS_PER_ACCOUNT,
        admits: 1,
        availableUntil: null,
        onSale: true,
        offSaleReason: null,
      },
    ];
  }
  const today = dayInZone(now, event.timeZone);
  // Membership is looked up only for an event with a members' fee.
  const member =
    userId && fees.some((fee) => fee.feeType === "member")
      ? await mayBuyMemberFee(userId, now, db)
      : false;
  return fees.map((fee) => {
    const { unitAmountMinor } = fee;
    const offSaleReason =
      fee.availableUntil && fee.availableUntil < today
        ? `On sale until ${formatDate(new Date(`${fee.availableUntil}T12:00:00Z`), "UTC")}`
        : fee.saleStartsAt && fee.saleStartsAt > now
          ? onSaleFromLabel(fee.saleStartsAt, event.timeZone)
          : fee.feeType === "member" && !member
            ? "For members only"
            : null;
    return {
      feeId: fee.id,
      feeType: fee.feeType,
      label: publicFeeTypeLabel(fee.feeType),
      description: fee.description,
      unitAmountMinor,
      currency: fee.currency,
      amountLabel: unitAmountMinor === 0 ? "Free" : formatMinor(unitAmountMinor, fee.currency),
      stock: fee.maxQuantity,
      maxPerOrder: fee.maxPerOrder,
      maxPerAccount: fee.maxPerAccount,
      admits: fee.admits,
      availableUntil: fee.availableUntil,
      onSale: offSaleReason === null,
      offSaleReason,
    };
  });
}

const feeKey = (feeId: string | null) => feeId ?? "";

/**
 * Seats held: confirmed + awaiting payment (until its order closes) + offered to the waitlist.
 * `byFee` counts tickets (a fee's stock); `total` counts people against the event's capacity, a
 * group ticket as many as it admits (decision 0093).
 */
export type HeldSeats = { total: number; byFee: Map<string, number> };

/** The seats held by fee: bookings that hold seats, then waitlist offers (one statement). */
function heldRows(eventId: SQL) {
  return sql`select ${registrations.feeId} as fee_id, sum(${registrations.quantity})::int as seats,
      coalesce(max(${eventFees.admits}), 1)::int as admits
    from ${registrations} left join ${eventFees} on ${eventFees.id} = ${registrations.feeId}
    where ${registrations.eventId} = ${eventId}
      and ${registrations.state} in ('confirmed', 'awaiting_payment')
    group by ${registrations.feeId}
    union all
    select ${waitlistEntries.feeId}, sum(${waitlistEntries.quantity})::int,
      coalesce(max(${eventFees.admits}), 1)::int
    from ${waitlistEntries} left join ${eventFees} on ${eventFees.id} = ${waitlistEntries.feeId}
    where ${waitlistEntries.eventId} = ${eventId} and ${waitlistEntries.state} = 'offered'
    group by ${waitlistEntries.feeId}`;
}

type HeldRow = { fee_id: string | null; seats: number; admits: number };

function heldFrom(rows: HeldRow[]): HeldSeats {
  const held: HeldSeats = { total: 0, byFee: new Map() };
  for (const row of rows) addHeld(held, row.fee_id, Number(row.seats), Number(row.admits));
  return held;
}

export async function heldSeats(db: Db, eventId: string): Promise<HeldSeats> {
  // One round trip (the event page asks on every visit).
  const result = await db.execute(heldRows(sql`${eventId}`));
  return heldFrom((result as unknown as { rows: HeldRow[] }).rows);
}

/** An event's seats as counted under its locks, and who waits for them. */
export type CountedSeats = {
  event: RegistrationEvent;
  held: HeldSeats;
  /** Whether people wait for seats of this ticket (they go first). */
  waitsFor(feeId: string | null): boolean;
};

/**
 * The event as it is now, the seats held and the tickets people wait for, in one statement: what
 * a booking reads under its seat locks (each statement there is time every other booking of the
 * event waits).
 */
export async function countSeats(tx: Tx, eventId: string): Promise<CountedSeats> {
  const [row] = await tx
    .select({
      ...eventColumns,
      held: sql<string>`(select coalesce(json_agg(h), '[]'::json)::text from (${heldRows(sql`${events.id}`)}) h)`,
      waiting: sql<string>`(select coalesce(json_agg(distinct coalesce(${waitlistEntries.feeId}::text, '')), '[]'::json)::text
        from ${waitlistEntries}
        where ${waitlistEntries.eventId} = ${events.id} and ${waitlistEntries.state} = 'waiting')`,
    })
    .from(events)
    .where(eq(events.id, eventId));
  if (!row) throw new RegistrationError("Event not found", 404);
  const { held, waiting, ...event } = row;
  const waitingFees = new Set(JSON.parse(waiting) as string[]);
  return {
    event,
    held: heldFrom(JSON.parse(held) as HeldRow[]),
    // With an overall capacity every ticket draws on the same seats.
    waitsFor: (feeId) =>
      event.capacity === null ? waitingFees.has(feeKey(feeId)) : waitingFees.size > 0,
  };
}

export function addHeld(held: HeldSeats, feeId: string | null, seats: number, admits = 1) {
  held.total += seats * admits;
  held.byFee.set(feeKey(feeId), (held.byFee.get(feeKey(feeId)) ?? 0) + seats);
}

/** Seats of this ticket still free: its own stock and the event's capacity both cap it. */
export function remainingSeats(
  option: Pick<TicketOption, "feeId" | "stock"> & { admits?: number },
  capacity: number | null,
  held: HeldSeats,
): number {
  const byTicket =
    option.stock === null
      ? Number.POSITIVE_INFINITY
      : option.stock - (held.byFee.get(feeKey(option.feeId)) ?? 0);
  // A group ticket needs room for everyone it admits.
  const byEvent =
    capacity === null
      ? Number.POSITIVE_INFINITY
      : Math.floor((capacity - held.total) / Math.max(1, option.admits ?? 1));
  return Math.max(0, Math.min(byTicket, byEvent));
}

/**
 * The refusals of a booking once its seats are counted: people waiting go first, then sold out,
 * then fewer left than asked for. `label` names the ticket when a booking has several.
 */
export function refuseUnlessSeatsLeft(input: {
  waiting: boolean;
  remaining: number;
  quantity: number;
  label?: string;
}) {
  const { waiting, remaining, quantity, label } = input;
  if (waiting) {
    throw new RegistrationError(
      `People are waiting for ${label ? `${label} seats` : "these seats"}. Join the waitlist to be offered the next free seat.`,
      409,
      "form",
      "full",
    );
  }
  if (remaining === 0) {
    throw new RegistrationError(
      `${label ? `${label} is sold out` : "Sold out"}. Join the waitlist to be offered a freed seat.`,
      409,
      "form",
      "full",
    );
  }
  if (quantity > remaining) {
    const left = `${remaining} ${remaining === 1 ? "seat is" : "seats are"} left.`;
    throw new RegistrationError(label ? `${label}: only ${left}` : `Only ${left}`, 400, "quantity");
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come from URLs and forms: anything that is not a uuid names nothing. */
function requireId(id: string, what: string) {
  if (!UUID.test(id)) throw new RegistrationError(`${what} not found`, 404);
}

export function eventUrl(slug: string) {
  return `${env().BASE_URL}/events/${encodeURIComponent(slug)}`;
}

export function ticketUrl(registrationId: string) {
  return `${env().BASE_URL}/registrations/${registrationId}`;
}

function ticketCode() {
  return randomBytes(20).toString("base64url"); // 160 bits: unguessable
}

/**
 * Confirms a (locked) registration: one ticket per seat, the confirmation e-mail as a job.
 * `admits`: what its fee admits when the caller has just read it (a booking), else it is read.
 */
export async function confirmIn(
  tx: Tx,
  registration: RegistrationRow,
  actor: Actor,
  admits?: number,
) {
  await registrationMachine.move(tx, registration, "confirmed", actor, {
    set: { confirmedAt: new Date(), holdUntil: null },
    action: "registration.confirm",
    details: { eventId: registration.eventId, quantity: registration.quantity },
  });
  // A group ticket admits the number of people its fee states (fixed when the ticket is issued).
  const [fee] =
    admits !== undefined
      ? [{ admits }]
      : registration.feeId
        ? await tx
            .select({ admits: eventFees.admits })
            .from(eventFees)
            .where(eq(eventFees.id, registration.feeId))
        : [];
  // The tickets and their mail's job in one statement.
  await alongside(tx, [
    jobsInsert(tx, [
      {
        kind: REGISTRATION_JOBS.confirmationMail,
        payload: { registrationId: registration.id },
        uniqueKey: `registration:${registration.id}:confirmation`,
      },
    ]),
  ])
    .insert(tickets)
    .values(
      Array.from({ length: registration.quantity }, (_, i) => ({
        registrationId: registration.id,
        eventId: registration.eventId,
        seat: i + 1,
        code: ticketCode(),
        admits: fee?.admits ?? 1,
      })),
    );
}

// ---------------------------------------------------------------------------------------------
// Fair shares (issue 26, decision 0073): what one account may take, hold and have mailed
// ---------------------------------------------------------------------------------------------
/**
 * Locks the account's row (after the event's): its limits across events — unpaid holds, the
 * addresses it had mailed — are counted and taken under it, so parallel requests queue here.
 */
export async function lockAccount(tx: Tx, accountId: string) {
  const [row] = await tx
    .select({ id: user.id, email: user.email })
    .from(user)
    .where(eq(user.id, accountId))
    .for("no key update");
  if (!row) throw new RegistrationError("Please sign in again.", 403);
  return row;
}

/** What an account already has, counted under its lock (decision 0115). */
export type AccountStanding = {
  /** Its live bookings of each ticket of the event, by fee key: a delegation counts once. */
  bookings: Map<string, number>;
  /** Its unpaid holds on event seats in any event: an unpaid invoice is one, however many seats. */
  unpaidHolds: number;
  /** Per paid ticket, when its latest hold on the ticket that lapsed unpaid would have ended. */
  lapsedHoldEnds: Map<string, Date>;
};

/**
 * The account's standing for a booking of these tickets, in one statement under its lock: what
 * checkAccountShare, checkUnpaidHolds and holdFor judge. Every statement of a booking is time
 * spent in its transaction; a paid booking asked three times (decision 0119).
 */
export async function accountStanding(
  tx: Tx,
  accountId: string,
  eventId: string,
  tickets: Array<{ feeId: string | null; paid: boolean }>,
): Promise<AccountStanding> {
  const keys = JSON.stringify([...new Set(tickets.map((t) => feeKey(t.feeId)))]);
  const paid = [...new Set(tickets.flatMap((t) => (t.paid && t.feeId ? [t.feeId] : [])))];
  const unpaid =
    paid.length === 0
      ? sql`0`
      : sql`(select count(distinct coalesce(${registrations.orderId}, ${registrations.id}))::int
          from ${registrations}
          where ${registrations.userId} = ${accountId}
            and ${registrations.state} = 'awaiting_payment')`;
  const lapsed =
    paid.length === 0
      ? sql`'{}'`
      : sql`(select coalesce(json_object_agg(fee, ends), '{}'::json)::text from (
          select ${registrations.feeId}::text as fee, max(${orders.expiresAt}) as ends
          from ${registrations} join ${orders} on ${orders.id} = ${registrations.orderId}
          where ${registrations.userId} = ${accountId}
            and ${registrations.feeId}::text in (select json_array_elements_text(${JSON.stringify(paid)}::json))
            and ${registrations.state} in ('expired', 'cancelled')
            and ${registrations.confirmedAt} is null
          group by 1) l)`;
  const result = await tx.execute(sql`select
    (select coalesce(json_object_agg(fee, n), '{}'::json)::text from (
      select coalesce(${registrations.feeId}::text, '') as fee,
        count(distinct coalesce(${registrations.bookingId}, ${registrations.id}))::int as n
      from ${registrations}
      where ${registrations.eventId} = ${eventId}
        and ${registrations.userId} = ${accountId}
        and ${registrations.state} in ('confirmed', 'awaiting_payment')
        and coalesce(${registrations.feeId}::text, '') in (select json_array_elements_text(${keys}::json))
      group by 1) b) as bookings,
    ${unpaid} as unpaid,
    ${lapsed} as lapsed`);
  const [row] = (
    result as unknown as { rows: { bookings: string; unpaid: number; lapsed: string }[] }
  ).rows;
  const bookings = JSON.parse(row.bookings) as Record<string, number>;
  const lapsedEnds = JSON.parse(row.lapsed) as Record<string, string>;
  return {
    bookings: new Map(Object.entries(bookings).map(([fee, n]) => [fee, Number(n)])),
    unpaidHolds: Number(row.unpaid),
    lapsedHoldEnds: new Map(Object.entries(lapsedEnds).map(([fee, end]) => [fee, new Date(end)])),
  };
}

/** Refuses a registration past the ticket's max_per_account live registrations for this account. */
export function checkAccountShare(
  standing: AccountStanding,
  option: Pick<TicketOption, "feeId" | "label" | "maxPerAccount">,
) {
  if ((standing.bookings.get(feeKey(option.feeId)) ?? 0) >= option.maxPerAccount) {
    throw new RegistrationError(accountShareMessage(option), 409, "feeId");
  }
}

export function accountShareMessage(option: Pick<TicketOption, "label" | "maxPerAccount">) {
  return option.maxPerAccount === 1
    ? `You already have a registration for ${option.label}; one account can have one for this ticket.`
    : `You already have ${option.maxPerAccount} registrations for ${option.label}, the most one account can have for this ticket.`;
}

export function checkUnpaidHolds(standing: AccountStanding) {
  if (standing.unpaidHolds >= MAX_UNPAID_HOLDS_PER_ACCOUNT) {
    throw new RegistrationError(
      `You have ${MAX_UNPAID_HOLDS_PER_ACCOUNT} unpaid invoices for event seats. Pay or cancel one of them before registering for more.`,
      409,
    );
  }
}

/** Caps the distinct other addresses this account had tickets mailed to in the window. */
export async function checkAttendeeEmail(
  tx: Tx,
  account: { id: string; email: string },
  attendeeEmail: string,
  now: Date,
) {
  const own = account.email.trim().toLowerCase();
  const email = attendeeEmail.trim().toLowerCase();
  if (email === own) return;
  const since = new Date(now.getTime() - OTHER_ATTENDEE_EMAILS_DAYS * 86_400_000);
  const others = await tx
    .selectDistinct({ email: sql<string>`lower(${registrations.attendeeEmail})` })
    .from(registrations)
    .where(
      and(
        eq(registrations.userId, account.id),
        sql`${registrations.createdAt} > ${since.toISOString()}::timestamptz`,
        sql`lower(${registrations.attendeeEmail}) <> ${own}`,
      ),
    );
  if (others.length >= MAX_OTHER_ATTENDEE_EMAILS && !others.some((o) => o.email === email)) {
    throw new RegistrationError(
      `Tickets from one account can go to at most ${MAX_OTHER_ATTENDEE_EMAILS} other e-mail addresses in ${OTHER_ATTENDEE_EMAILS_DAYS} days. Enter your own e-mail address, or ask the attendee to register themselves.`,
      409,
      "attendeeEmail",
    );
  }
}

/**
 * How long a new unpaid order holds its seats: ORDER_HOLD_HOURS, shortened when the account let a
 * hold on one of these tickets lapse before (booking again does not buy a new clock), never below
 * REPEAT_HOLD_MINUTES.
 */
export function holdFor(standing: AccountStanding, feeIds: string[], now: Date) {
  let holdMs = env().ORDER_HOLD_HOURS * 3_600_000;
  let repeatHold = false;
  for (const feeId of feeIds) {
    const lapsedUntil = standing.lapsedHoldEnds.get(feeId);
    if (!lapsedUntil) continue;
    holdMs = Math.min(
      holdMs,
      Math.max(REPEAT_HOLD_MINUTES * 60_000, lapsedUntil.getTime() - now.getTime()),
    );
    repeatHold = true;
  }
  return { holdMs, repeatHold };
}

/**
 * The order of a booking's paid seats (its lines, invoice mail, expiry and reminder jobs), opened
 * before the seat locks are taken: a refusal under them rolls it back with everything else, and
 * its invoice number is drawn once the seats are counted (`issueInvoice`, decisions 0113 and
 * 0117). No paid lines, no order.
 */
export async function openTicketOrder(
  tx: Tx,
  input: {
    buyer: { id: string; name: string; email: string };
    organisationName?: string | null;
    taxId?: string | null;
    eventTitle: string;
    lines: Array<{ option: TicketOption; quantity: number }>;
    standing: AccountStanding;
    now: Date;
  },
) {
  const paid = input.lines.filter(
    ({ option }) => option.unitAmountMinor > 0 && option.feeId && option.currency,
  );
  const currency = paid[0]?.option.currency;
  if (paid.length === 0 || !currency) return { opened: null, repeatHold: false };
  const feeIds = paid.map(({ option }) => option.feeId as string);
  const hold = holdFor(input.standing, feeIds, input.now);
  const opened = await openOrder(
    {
      buyer: input.buyer,
      organisationName: input.organisationName,
      taxId: input.taxId,
      currency,
      holdMs: hold.holdMs,
      lines: paid.map(({ option, quantity }) => ({
        kind: "event_ticket" as const,
        referenceId: option.feeId as string,
        description: `${input.eventTitle} — ${option.label}`,
        quantity,
        unitAmountMinor: option.unitAmountMinor,
      })),
    },
    tx,
  );
  return { opened, repeatHold: hold.repeatHold };
}

/**
 * Counts one registration or waitlist action against the account and the client address;
 * returns the message to show (HTTP 429) when either is over its limit, else null.
 */
export async function limitRegistrationActions(
  accountId: string,
  request: Request,
): Promise<{ message: string; retryAfterSeconds: number; persistent: boolean } | null> {
  const limits = [REGISTRATION_RATE_LIMIT.perAccount, REGISTRATION_RATE_LIMIT.perClient];
  const hits = await Promise.all([
    hitRateLimit(`registration:account:${accountId}`, limits[0]),
    hitRateLimit(`registration:client:${clientIp(request)}`, limits[1]),
  ]);
  const refused = hits.filter((r) => !r.allowed);
  if (refused.length === 0) return null;
  const retryAfterSeconds = Math.max(...refused.map((r) => r.retryAfterSeconds));
  return {
    message: tooManyAttemptsMessage(retryAfterSeconds),
    retryAfterSeconds,
    // This account was told to wait as many times as it was allowed to try, and still posts
    // (decision 0116). Never the address alone: people behind one address are not one client.
    persistent: hits[0].count >= 2 * limits[0].max,
  };
}

// ---------------------------------------------------------------------------------------------
// Registering (and claiming a waitlist offer)
// ---------------------------------------------------------------------------------------------
export type RegisterInput = {
  eventId: string;
  /** The ticket; null only for an event without fees. */
  feeId: string | null;
  quantity: number;
  /** The signed-in person registering (and paying). */
  account: { id: string; name: string; email: string };
  attendee: { name: string; email: string };
  organisationName?: string | null;
  taxId?: string | null;
  /** The waitlist offer being claimed. */
  offerId?: string | null;
  request?: Request | null;
  /** The clock (tests inject it). */
  now?: Date;
};

export type RegisterResult = {
  registrationId: string;
  state: "confirmed" | "awaiting_payment";
  orderId: string | null;
  invoiceNumber: string | null;
};

/**
 * Books seats: free tickets confirm at once; paid ones create an order with its invoice whose
 * hold holds the seats until it is paid (confirmed) or closes (seats freed, waitlist offered).
 */
export async function registerForEvent(input: RegisterInput): Promise<RegisterResult> {
  const actor: Actor = { id: input.account.id, role: "user", request: input.request ?? null };
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
    // One account registers up to the ticket's max_per_account times (a colleague, a second
    // ticket), each naming its attendee; limits across events are counted under the account lock.
    const option = options.find((o) => o.feeId === input.feeId);
    if (!option) throw new RegistrationError("Choose a ticket that is on sale.", 400, "feeId");
    if (!option.onSale) {
      throw new RegistrationError(`${option.label}: ${option.offSaleReason}.`, 400, "feeId");
    }
    if (
      !Number.isInteger(input.quantity) ||
      input.quantity < 1 ||
      (!input.offerId && input.quantity > option.maxPerOrder)
    ) {
      throw new RegistrationError(
        `Choose between 1 and ${option.maxPerOrder} seats.`,
        400,
        "quantity",
      );
    }
    const free = option.unitAmountMinor === 0;
    const standing = await accountStanding(tx, account.id, seen.id, [
      { feeId: option.feeId, paid: !free },
    ]);
    checkAccountShare(standing, option);
    await checkAttendeeEmail(tx, account, input.attendee.email, now);
    if (!free) checkUnpaidHolds(standing);

    // A claim races its offer's expiry, which takes the event's lock first: so does a claim.
    let claimed: RegistrationEvent | null = null;
    let offer: typeof waitlistEntries.$inferSelect | undefined;
    if (input.offerId) {
      claimed = await lockEvent(tx, input.eventId);
      const closed = registrationClosedReason(claimed, now);
      if (closed) throw new RegistrationError(closed, 409);
      [offer] = await tx
        .select()
        .from(waitlistEntries)
        .where(and(eq(waitlistEntries.id, input.offerId), eq(waitlistEntries.eventId, seen.id)))
        .for("update");
      if (!offer || offer.userId !== input.account.id || offer.state !== "offered") {
        throw new RegistrationError("This offer is no longer open.", 409);
      }
      // The expiry job may run late: the time on the offer decides, not the job.
      if (!offer.offerExpiresAt || offer.offerExpiresAt.getTime() <= now.getTime()) {
        throw new RegistrationError(
          "This offer has expired; its seats go to the next person on the waitlist.",
          409,
        );
      }
      if (offer.feeId !== input.feeId) {
        throw new RegistrationError(`Your offer is for the ticket you waited for.`, 400, "feeId");
      }
      if (input.quantity > offer.quantity) {
        throw new RegistrationError(
          `Your offer holds ${offer.quantity} ${offer.quantity === 1 ? "seat" : "seats"}.`,
          400,
          "quantity",
        );
      }
    }

    // Everything is written before the seats are counted (decision 0117): a refusal below rolls
    // it all back, and the seat locks are held only for the count and the commit.
    const { opened, repeatHold } = await openTicketOrder(tx, {
      buyer: input.account,
      organisationName: input.organisationName,
      taxId: input.taxId,
      eventTitle: seen.title,
      lines: free ? [] : [{ option, quantity: input.quantity }],
      standing,
      now,
    });
    const order = opened?.order ?? null;
    const [registration] = await tx
      .insert(registrations)
      .values({
        eventId: seen.id,
        feeId: option.feeId,
        ticketLabel: option.label,
        unitAmountMinor: option.unitAmountMinor,
        currency: option.currency,
        userId: input.account.id,
        attendeeName: input.attendee.name,
        attendeeEmail: input.attendee.email,
        quantity: input.quantity,
        state: "awaiting_payment",
        orderId: order?.id ?? null,
        holdUntil: order?.expiresAt ?? null,
      })
      .returning();
    // The invoice, drawn last, names its order.
    await auditIn(tx, actor, "registration.create", registration.id, {
      eventId: seen.id,
      feeId: option.feeId,
      quantity: input.quantity,
      to: free ? "confirmed" : "awaiting_payment",
      ...(order ? { orderId: order.id } : {}),
      ...(repeatHold ? { repeatHold: true } : {}),
      ...(offer ? { waitlistEntryId: offer.id } : {}),
    });
    if (offer) {
      await waitlistMachine.move(tx, offer, "claimed", actor, {
        set: { registrationId: registration.id },
        action: "waitlist.claim",
        details: { eventId: seen.id, registrationId: registration.id, quantity: input.quantity },
      });
    }
    if (free) await confirmIn(tx, registration, actor, option.admits);

    // A claim holds the event's exclusive lock already; a booking takes its seat locks now.
    const seats = claimed ? await countSeats(tx, seen.id) : await lockSeats(tx, seen, [option]);
    const { event, held } = seats;
    const closed = registrationClosedReason(event, now);
    if (closed) throw new RegistrationError(closed, 409);
    // This booking's own seats are among those counted.
    addHeld(held, option.feeId, -input.quantity, option.admits);
    refuseUnlessSeatsLeft({
      // A claimed offer's seats are its own; anyone else waits behind the waitlist.
      waiting: !offer && seats.waitsFor(option.feeId),
      remaining: remainingSeats(option, event.capacity, held),
      quantity: input.quantity,
    });
    // Seats offered but not taken go on to the next person.
    if (offer && input.quantity < offer.quantity) await offerFreedSeats(tx, event);
    // The gap-free invoice number last (decision 0113): the counter row is held to the commit.
    const invoiceNumber = opened ? await opened.issueInvoice() : null;
    return {
      registrationId: registration.id,
      state: free ? "confirmed" : "awaiting_payment",
      orderId: order?.id ?? null,
      invoiceNumber,
    };
  });
}

/** awaiting_payment → confirmed once its order is paid (the order's unlock job; idempotent). */
export async function confirmPaidRegistration(orderId: string) {
  if (!UUID.test(orderId)) return false;
  return getDb().transaction(async (tx) => {
    // A delegation's order pays for several registrations (one per seat): each is confirmed and
    // each attendee gets their own ticket mail.
    const rows = await tx
      .select({ id: registrations.id, eventId: registrations.eventId })
      .from(registrations)
      .where(eq(registrations.orderId, orderId))
      .orderBy(asc(registrations.createdAt), asc(registrations.id));
    if (rows.length === 0) return false;
    await lockEvent(tx, rows[0].eventId);
    let confirmed = false;
    for (const row of rows) {
      const registration = await registrationMachine.lock(tx, row.id);
      if (registration.state !== "awaiting_payment") continue;
      await confirmIn(tx, registration, { system: "order-paid" });
      confirmed = true;
    }
    return confirmed;
  });
}

/**
 * An unpaid registration closes with its order (expired at the end of the hold, or cancelled by
 * the buyer or staff), in the order's transaction: its seats go to the waitlist at once.
 */
export const closeRegistrationsOfOrder: OrderClosedReaction = async (tx, order, change) => {
  const { to, actor, reason } = change;
  const rows = await tx
    .select({ id: registrations.id, eventId: registrations.eventId })
    .from(registrations)
    .where(and(eq(registrations.orderId, order.id), eq(registrations.state, "awaiting_payment")));
  for (const row of rows) {
    const event = await lockEvent(tx, row.eventId);
    const registration = await registrationMachine.lock(tx, row.id);
    if (registration.state !== "awaiting_payment") continue;
    await closeRegistration(tx, event, registration, to, actor, reason);
  }
};

async function closeRegistration(
  tx: Tx,
  event: RegistrationEvent,
  registration: RegistrationRow,
  to: "cancelled" | "expired",
  actor: Actor,
  reason?: string,
  messageToAttendee?: string,
) {
  const refundDue = registration.state === "confirmed" && registration.unitAmountMinor > 0;
  await registrationMachine.move(tx, registration, to, actor, {
    set: {
      holdUntil: null,
      ...(to === "cancelled"
        ? { cancelledAt: new Date(), cancelledBy: actorId(actor), cancelReason: reason ?? null }
        : {}),
    },
    action: to === "cancelled" ? "registration.cancel" : "registration.expire",
    details: {
      eventId: event.id,
      quantity: registration.quantity,
      ...(reason ? { reason } : {}),
      // Money back is staff work (decision 0042): the audit row says it is due.
      ...(refundDue ? { refundDue: true } : {}),
    },
  });
  // A confirmed attendee had a ticket and is told it is void; an unpaid hold never reached the
  // attendee (no mail before payment), so the account that made it is told instead.
  const recipient =
    registration.state === "confirmed"
      ? registration.attendeeEmail
      : registration.userId && (await accountEmail(tx, registration.userId));
  // The reason is internal (kept with the registration and in the audit row) and never mailed;
  // only a message staff wrote for the attendee goes out (issue 30), never a registrant's words.
  const staffReason =
    isPerson(actor) && hasRole(actor.role, "editor") ? messageToAttendee : undefined;
  if (recipient) {
    await enqueueMail(tx, `registration:${registration.id}:${to}`, {
      to: recipient,
      ...closedRegistrationMail({
        eventTitle: event.title,
        to,
        ticketLabel: registration.ticketLabel,
        quantity: registration.quantity,
        staffReason,
        refundDue,
        eventUrl: eventUrl(event.slug),
      }),
    });
  }
  await offerFreedSeats(tx, event);
}

// ---------------------------------------------------------------------------------------------
// Cancelling
// ---------------------------------------------------------------------------------------------
/** Until when the attendee may cancel online. */
export function selfCancelDeadline(startDate: Date) {
  return new Date(startDate.getTime() - SELF_CANCEL_HOURS_BEFORE * 3_600_000);
}

/**
 * Cancels a registration (the attendee until the deadline, staff at any time): frees its seats,
 * offers them to the waitlist, and cancels an unpaid order. Refunds are staff work.
 */
export async function cancelRegistration(
  registrationId: string,
  actor: Actor,
  reason?: string,
  /** Staff only: an optional message mailed to the attendee (the reason is never mailed). */
  messageToAttendee?: string,
): Promise<void> {
  requireId(registrationId, "Registration");
  const [row] = await getDb()
    .select({
      id: registrations.id,
      userId: registrations.userId,
      orderId: registrations.orderId,
      state: registrations.state,
      startDate: events.startDate,
    })
    .from(registrations)
    .innerJoin(events, eq(events.id, registrations.eventId))
    .where(eq(registrations.id, registrationId));
  if (!row) throw new RegistrationError("Registration not found", 404);
  if (isPerson(actor) && !hasRole(actor.role, "editor")) {
    if (row.userId !== actor.id) throw new RegistrationError("Registration not found", 404);
    if (Date.now() >= selfCancelDeadline(row.startDate).getTime()) {
      throw new RegistrationError(
        `Registrations can be cancelled online until ${SELF_CANCEL_HOURS_BEFORE} hours before the event. Please contact us.`,
        403,
      );
    }
  }
  if (row.state === "cancelled" || row.state === "expired") {
    throw new RegistrationError("This registration is already cancelled.", 409);
  }
  const orderId = row.orderId;
  if (row.state === "awaiting_payment" && orderId) {
    try {
      // The order is locked first (as when it expires), then the event, by the closed handler.
      await getDb().transaction((tx) => cancelOrder(orderId, actor, reason, tx));
      return;
    } catch (error) {
      if (!(error instanceof OrderError) || error.status !== 409) throw error;
      // Part-paid: the attendee is told why (staff cancel through the order, then refund).
      if (error.code === "part_paid") throw new RegistrationError(error.message);
      // Otherwise paid a moment ago: cancel the now confirmed registration below.
    }
  }
  await getDb().transaction(async (tx) => {
    const [current] = await tx
      .select({ eventId: registrations.eventId })
      .from(registrations)
      .where(eq(registrations.id, registrationId));
    const event = await lockEvent(tx, current.eventId);
    const registration = await registrationMachine.lock(tx, registrationId);
    if (registration.state !== "confirmed") {
      throw new RegistrationError(
        registration.state === "awaiting_payment"
          ? "This registration changed meanwhile; please try again."
          : "This registration is already cancelled.",
        409,
      );
    }
    await closeRegistration(tx, event, registration, "cancelled", actor, reason, messageToAttendee);
  });
}

// ---------------------------------------------------------------------------------------------
// Waitlist
// ---------------------------------------------------------------------------------------------
export type JoinWaitlistInput = {
  eventId: string;
  feeId: string | null;
  quantity: number;
  account: { id: string; name: string; email: string };
  name: string;
  email: string;
  request?: Request | null;
};

/** Takes a place on the waitlist of a full ticket (or full event); returns the place number. */
export async function joinWaitlist(input: JoinWaitlistInput) {
  const actor: Actor = { id: input.account.id, role: "user", request: input.request ?? null };
  return getDb().transaction(async (tx) => {
    // Lock order as for bookings: the account, then the event.
    await lockAccount(tx, input.account.id);
    const event = await lockEvent(tx, input.eventId);
    const closed = registrationClosedReason(event);
    if (closed) throw new RegistrationError(closed, 409);
    const options = await loadTicketOptions(tx, event, input.account.id);
    const option = options.find((o) => o.feeId === input.feeId);
    if (!option?.onSale)
      throw new RegistrationError("Choose a ticket that is on sale.", 400, "feeId");
    // A place asks for no more than one registration may take (the ticket's max_per_order).
    const most = Math.min(
      option.maxPerOrder,
      option.stock ?? option.maxPerOrder,
      event.capacity ?? option.maxPerOrder,
    );
    if (!Number.isInteger(input.quantity) || input.quantity < 1 || input.quantity > most) {
      throw new RegistrationError(`Choose between 1 and ${most} seats.`, 400, "quantity");
    }
    // Claiming the offer would be refused: the account already has its share of this ticket.
    checkAccountShare(
      await accountStanding(tx, input.account.id, event.id, [{ feeId: option.feeId, paid: false }]),
      option,
    );
    const [live] = await tx
      .select({ id: waitlistEntries.id })
      .from(waitlistEntries)
      .where(
        and(
          eq(waitlistEntries.eventId, event.id),
          eq(waitlistEntries.userId, input.account.id),
          inArray(waitlistEntries.state, ["waiting", "offered"]),
        ),
      )
      .limit(1);
    if (live) throw new RegistrationError("You are already on the waitlist for this event.", 409);
    const seats = await countSeats(tx, event.id);
    const remaining = remainingSeats(option, seats.event.capacity, seats.held);
    if (remaining >= input.quantity && !seats.waitsFor(option.feeId)) {
      throw new RegistrationError("Seats are available: register instead.", 409);
    }
    const [entry] = await tx
      .insert(waitlistEntries)
      .values({
        eventId: event.id,
        feeId: option.feeId,
        userId: input.account.id,
        name: input.name,
        email: input.email,
        quantity: input.quantity,
      })
      .returning();
    await auditIn(tx, actor, "waitlist.join", entry.id, {
      eventId: event.id,
      feeId: option.feeId,
      quantity: input.quantity,
    });
    return { entryId: entry.id, position: await waitlistPosition(tx, entry) };
  });
}

/** 1 for the next person offered a seat of this ticket. */
export async function waitlistPosition(
  db: Db,
  entry: { id: string; eventId: string; feeId: string | null; createdAt: Date },
) {
  const [row] = await db
    .select({ ahead: sql<number>`count(*)::int` })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.eventId, entry.eventId),
        eq(waitlistEntries.state, "waiting"),
        entry.feeId === null
          ? sql`${waitlistEntries.feeId} IS NULL`
          : eq(waitlistEntries.feeId, entry.feeId),
        sql`(${waitlistEntries.createdAt}, ${waitlistEntries.id}) < (${entry.createdAt.toISOString()}::timestamptz, ${entry.id}::uuid)`,
      ),
    );
  return Number(row?.ahead ?? 0) + 1;
}

/** Leaves the waitlist (the person, or staff); a pending offer passes on at once. */
export async function leaveWaitlist(entryId: string, actor: Actor) {
  requireId(entryId, "Waitlist place");
  await getDb().transaction(async (tx) => {
    const [row] = await tx
      .select({ eventId: waitlistEntries.eventId })
      .from(waitlistEntries)
      .where(eq(waitlistEntries.id, entryId));
    if (!row) throw new RegistrationError("Waitlist place not found", 404);
    const event = await lockEvent(tx, row.eventId);
    const entry = await waitlistMachine.lock(tx, entryId);
    if (isPerson(actor) && !hasRole(actor.role, "editor") && entry.userId !== actor.id) {
      throw new RegistrationError("Waitlist place not found", 404);
    }
    if (!waitlistMachine.canMove(entry.state, "left")) {
      throw new RegistrationError("You are no longer on this waitlist.", 409);
    }
    await waitlistMachine.move(tx, entry, "left", actor, {
      action: "waitlist.leave",
      details: { eventId: event.id },
    });
    if (entry.state === "offered") await offerFreedSeats(tx, event);
  });
}

/**
 * Offers free seats to the people waiting, in order: each gets the seats they asked for, held
 * until the offer expires. A request that does not fit yet is passed over for later ones that do,
 * but at most WAITLIST_MAX_SKIPS times; from then on nobody behind it in its queue (the ticket's,
 * or with an overall capacity the whole event's) is offered seats before it (decision 0073).
 */
async function offerFreedSeats(tx: Tx, event: RegistrationEvent, now = new Date()) {
  if (registrationClosedReason(event, now)) return;
  const sharedQueue = event.capacity !== null;
  // How often each waiting request was passed over: later requests of its queue offered seats.
  // (Outer columns written out: Drizzle leaves selected columns unqualified, which the subquery's
  // own table would capture.)
  const waiting = await tx
    .select({
      entry: waitlistEntries,
      skips: sql<number>`(
        select count(*)::int from waitlist_entries as later
        where later.event_id = "waitlist_entries"."event_id"
          and later.offered_at is not null
          and (later.created_at, later.id) > ("waitlist_entries"."created_at", "waitlist_entries"."id")
          and (${sharedQueue} or later.fee_id is not distinct from "waitlist_entries"."fee_id")
      )`,
    })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.eventId, event.id), eq(waitlistEntries.state, "waiting")))
    .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id));
  if (waiting.length === 0) return;
  const held = await heldSeats(tx, event.id);
  const options = new Map(
    (await loadTicketOptions(tx, event, null, now)).map((o) => [feeKey(o.feeId), o]),
  );
  const queueOf = (feeId: string | null) => (sharedQueue ? "" : feeKey(feeId));
  // A request short of the event's seats holds the whole queue; short of its ticket, that ticket's.
  const ALL = "*";
  const reserved = new Set<string>();
  const admitsOf = (feeId: string | null) => options.get(feeKey(feeId))?.admits ?? 1;
  const reserve = (feeId: string | null, quantity: number) =>
    reserved.add(
      event.capacity !== null && event.capacity - held.total < quantity * admitsOf(feeId)
        ? ALL
        : feeKey(feeId),
    );
  const passedOver: { queue: string; feeId: string | null; quantity: number; skips: number }[] = [];
  const offerExpiresAt = new Date(now.getTime() + WAITLIST_OFFER_HOURS * 3_600_000);
  for (const { entry, skips } of waiting) {
    const queue = queueOf(entry.feeId);
    const option = options.get(feeKey(entry.feeId));
    if (!option || reserved.has(ALL) || reserved.has(feeKey(entry.feeId))) continue;
    if (remainingSeats(option, event.capacity, held) < entry.quantity) {
      if (Number(skips) >= WAITLIST_MAX_SKIPS) reserve(entry.feeId, entry.quantity);
      else
        passedOver.push({
          queue,
          feeId: entry.feeId,
          quantity: entry.quantity,
          skips: Number(skips),
        });
      continue;
    }
    addHeld(held, entry.feeId, entry.quantity, option.admits);
    for (const other of passedOver) {
      if (other.queue !== queue || ++other.skips < WAITLIST_MAX_SKIPS) continue;
      reserve(other.feeId, other.quantity);
    }
    await waitlistMachine.move(
      tx,
      entry,
      "offered",
      { system: "waitlist" },
      {
        set: { offeredAt: now, offerExpiresAt },
        action: "waitlist.offer",
        details: {
          eventId: event.id,
          quantity: entry.quantity,
          offerExpiresAt: offerExpiresAt.toISOString(),
        },
      },
    );
    await enqueueJob(tx, {
      kind: REGISTRATION_JOBS.offerExpiry,
      payload: { entryId: entry.id },
      runAt: offerExpiresAt,
      uniqueKey: `waitlist:${entry.id}:offer-expiry`,
    });
    // To the account that waits (only it can claim), in a fixed text.
    const to = entry.userId ? await accountEmail(tx, entry.userId) : null;
    if (!to) continue;
    await enqueueMail(tx, `waitlist:${entry.id}:offer`, {
      to,
      ...waitlistOfferMail({
        eventTitle: event.title,
        timeZone: event.timeZone,
        ticketLabel: option.label,
        quantity: entry.quantity,
        offerExpiresAt,
        claimUrl: `${eventUrl(event.slug)}/register?offer=${entry.id}`,
      }),
    });
  }
}

async function accountEmail(db: Db, userId: string) {
  const [row] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId));
  return row?.email ?? null;
}

/** offered → expired when the offer ran out unclaimed (its job); the seats pass on. */
export async function expireWaitlistOffer(entryId: string, now = new Date()) {
  if (!UUID.test(entryId)) return false;
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .select({ eventId: waitlistEntries.eventId })
      .from(waitlistEntries)
      .where(eq(waitlistEntries.id, entryId));
    if (!row) return false;
    const event = await lockEvent(tx, row.eventId);
    const entry = await waitlistMachine.lock(tx, entryId);
    if (entry.state !== "offered" || !entry.offerExpiresAt || entry.offerExpiresAt > now) {
      return false;
    }
    await waitlistMachine.move(
      tx,
      entry,
      "expired",
      { system: "waitlist-offer-expiry" },
      {
        action: "waitlist.expire",
        details: { eventId: event.id, quantity: entry.quantity },
      },
    );
    // The account that waited is told, with the way back onto the list (issue 30).
    const to = entry.userId ? await accountEmail(tx, entry.userId) : null;
    if (to) {
      await enqueueMail(tx, `waitlist:${entry.id}:expired`, {
        to,
        ...waitlistOfferExpiredMail({
          eventTitle: event.title,
          registerUrl: `${eventUrl(event.slug)}/register`,
        }),
      });
    }
    await offerFreedSeats(tx, event, now);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// Telling attendees
// ---------------------------------------------------------------------------------------------
/**
 * Tells everyone registered (confirmed or awaiting payment) that the event moved, changed place
 * or was cancelled: one e-mail each, sent once per key (a repeated call for the same change, i.e.
 * the same event sequence, sends nothing more).
 */
export async function notifyEventChange(
  eventId: string,
  change: "time" | "place" | "cancelled",
): Promise<void> {
  await getDb().transaction(async (tx) => {
    const [event] = await tx
      .select({ sequence: events.sequence })
      .from(events)
      .where(eq(events.id, eventId));
    if (!event) return;
    const live = await tx
      .select({ id: registrations.id })
      .from(registrations)
      .where(
        and(
          eq(registrations.eventId, eventId),
          inArray(registrations.state, ["confirmed", "awaiting_payment"]),
        ),
      );
    for (const { id } of live) {
      const key =
        change === "cancelled"
          ? `registration:${id}:event-cancelled`
          : `registration:${id}:event-${change}:${event.sequence}`;
      await enqueueJob(tx, {
        kind: REGISTRATION_JOBS.changeMail,
        payload: { registrationId: id, change, key },
        uniqueKey: key,
      });
    }
  });
}

/**
 * Enqueues the reminders due now (the reminders schedule): 7 days and 1 day before the start,
 * once each per registration, and only to people who registered before that point.
 */
export async function enqueueDueReminders(now = new Date()) {
  const db = getDb();
  let enqueued = 0;
  for (const [label, days] of [
    ["7 days", 7],
    ["1 day", 1],
  ] as const) {
    const horizon = new Date(now.getTime() + days * 86_400_000);
    const floor = days === 7 ? new Date(now.getTime() + 86_400_000) : now;
    const due = await db
      .select({
        id: registrations.id,
        email: registrations.attendeeEmail,
        title: events.title,
        slug: events.slug,
        location: events.location,
        startDate: events.startDate,
        timeZone: events.timeZone,
        // A ticket's own join link wins over the event's (online events, issue 30).
        joinUrl: sql<string | null>`coalesce(${eventFees.joinUrl}, ${events.joinUrl})`,
      })
      .from(registrations)
      .innerJoin(events, eq(events.id, registrations.eventId))
      .leftJoin(eventFees, eq(eventFees.id, registrations.feeId))
      .where(
        and(
          eq(registrations.state, "confirmed"),
          sql`${events.cancelledAt} IS NULL`,
          sql`${events.startDate} > ${floor.toISOString()}::timestamptz`,
          sql`${events.startDate} <= ${horizon.toISOString()}::timestamptz`,
          sql`${registrations.confirmedAt} < ${events.startDate} - ${days} * interval '1 day'`,
        ),
      );
    for (const r of due) {
      const { created } = await enqueueMail(db, `registration:${r.id}:reminder:${days}d`, {
        to: r.email,
        ...reminderMail({
          ...r,
          startsIn: label,
          ticketUrl: ticketUrl(r.id),
          // The day-before reminder carries the join link; the week-before one does not yet.
          joinUrl: days === 1 ? r.joinUrl : null,
        }),
      });
      if (created) enqueued++;
    }
  }
  return enqueued;
}
