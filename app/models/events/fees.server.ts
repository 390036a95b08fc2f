import { and, asc, eq, inArray } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { eventFees, events } from "~/db/schema";
import { recordAudit } from "~/lib/audit.server";
import type { CURRENCIES, FeeType } from "~/lib/constants";
import { contentChanged } from "~/lib/content-version.server";
import type { PersonActor } from "~/lib/lifecycle.server";
import { isEventId } from "./events.server";
import { endOfSaleDay, SALE_START_AFTER_EVENT_START, SALE_START_AFTER_UNTIL } from "./fee-sale";

export type FeeInput = {
  /** A fee already saved keeps its id (its registrations and waitlist stay linked to it). */
  id?: string;
  feeType: FeeType;
  currency: (typeof CURRENCIES)[number];
  /** The price in the currency's minor units (app/lib/money.ts). */
  amountMinor: number;
  maxQuantity: number | null;
  /** Seats one registration may take of this ticket (default 10). */
  maxPerOrder?: number;
  /** Live registrations one account may have for this ticket (default 1). */
  maxPerAccount?: number;
  /** People one ticket admits (a group ticket, decision 0093; default 1). */
  admits?: number;
  /** yyyy-MM-dd */
  availableUntil: string | null;
  /**
   * Start of sale (decision 0084): before it the ticket is shown but not on sale. Null: on sale
   * at once; left out: a saved fee keeps its own.
   */
  saleStartsAt?: Date | null;
  /** The ticket's own online join link (decision 0090); left out: a saved fee keeps its own. */
  joinUrl?: string | null;
  description: string | null;
};

/** Spec §5: fees belong to a saved event. */
export const SAVE_EVENT_FIRST = "Please save the event first before adding fees";

/** A refusal the fees card shows under 'Error' (spec §8). */
export class FeeError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 = 400,
  ) {
    super(message);
    this.name = "FeeError";
  }
}

/** The event's own time zone, which the fees card's sale starts are read in (null: no event). */
export async function eventTimeZone(eventId: string): Promise<string | null> {
  if (!isEventId(eventId)) return null;
  const [row] = await getDb()
    .select({ timeZone: events.timeZone })
    .from(events)
    .where(eq(events.id, eventId));
  return row?.timeZone ?? null;
}

/** The event's fees, cheapest first (spec §7). */
export function listEventFees(eventId: string) {
  if (!isEventId(eventId)) return Promise.resolve([]);
  return getDb()
    .select()
    .from(eventFees)
    .where(eq(eventFees.eventId, eventId))
    .orderBy(asc(eventFees.amountMinor), asc(eventFees.createdAt));
}

/**
 * 'Save All Fees' (spec §2.15, §7): the event's fees become the given rows, in ONE transaction, so
 * readers see either the old set or the new one. Rows with the id of a saved fee update it in
 * place: deleting and re-inserting would unlink its registrations (their seats and per-account
 * counts) and drop its waitlist.
 */
export async function replaceEventFees(
  actor: PersonActor,
  eventId: string | null,
  fees: FeeInput[],
) {
  if (!eventId || !isEventId(eventId)) throw new FeeError(SAVE_EVENT_FIRST);
  const saved = await getDb().transaction(async (tx) => {
    const [event] = await tx
      .select({
        id: events.id,
        title: events.title,
        timeZone: events.timeZone,
        startDate: events.startDate,
      })
      .from(events)
      .where(eq(events.id, eventId))
      .for("update");
    if (!event) throw new FeeError(SAVE_EVENT_FIRST);
    // The rule the form shows, enforced here too (a post that skips the form is refused alike).
    for (const fee of fees) {
      if (!fee.saleStartsAt) continue;
      if (fee.availableUntil && fee.saleStartsAt > endOfSaleDay(fee.availableUntil, event.timeZone))
        throw new FeeError(SALE_START_AFTER_UNTIL);
      if (fee.saleStartsAt >= event.startDate) throw new FeeError(SALE_START_AFTER_EVENT_START);
    }
    const existing = new Set(
      (
        await tx.select({ id: eventFees.id }).from(eventFees).where(eq(eventFees.eventId, eventId))
      ).map((row) => row.id),
    );
    const kept = new Set(fees.flatMap((fee) => (fee.id && existing.has(fee.id) ? [fee.id] : [])));
    const gone = [...existing].filter((id) => !kept.has(id));
    if (gone.length) await tx.delete(eventFees).where(inArray(eventFees.id, gone));
    const rows = [];
    for (const { id, ...fee } of fees) {
      const [row] =
        id && kept.has(id)
          ? await tx.update(eventFees).set(fee).where(eq(eventFees.id, id)).returning()
          : await tx
              .insert(eventFees)
              .values({ ...fee, eventId })
              .returning();
      rows.push(row);
    }
    rows.sort(
      (a, b) => a.amountMinor - b.amountMinor || a.createdAt.getTime() - b.createdAt.getTime(),
    );
    return { event, rows };
  });
  await recordAudit(actor.request ?? null, {
    action: "event.fees_replace",
    actorId: actor.id,
    entity: "event",
    entityId: eventId,
    details: { title: saved.event.title, fees: saved.rows.length },
  });
  contentChanged();
  return saved.rows;
}

/** Removes one fee of the event ('Fee removed successfully'); false when it was not there. */
export async function deleteEventFee(actor: PersonActor, eventId: string, feeId: string) {
  if (!isEventId(eventId) || !isEventId(feeId)) return false;
  const [row] = await getDb()
    .delete(eventFees)
    .where(and(eq(eventFees.id, feeId), eq(eventFees.eventId, eventId)))
    .returning({ id: eventFees.id, feeType: eventFees.feeType });
  if (!row) return false;
  await recordAudit(actor.request ?? null, {
    action: "event.fee_delete",
    actorId: actor.id,
    entity: "event",
    entityId: eventId,
    details: { feeId, feeType: row.feeType },
  });
  contentChanged();
  return true;
}
