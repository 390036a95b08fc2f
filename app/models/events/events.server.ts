import { and, asc, desc, eq, inArray, ne, or, type SQL, sql } from "drizzle-orm";
import { type Database, getDb } from "~/db/client.server";
import { alphabetical } from "~/db/order";
import {
  agendaItems,
  eventCategories,
  eventFees,
  eventSpeakers,
  eventSponsors,
  events,
  eventTypes,
  speakers,
  sponsors,
} from "~/db/schema";
import { recordAudit, recordAuditIn } from "~/lib/audit.server";
import { EVENT_STATUSES } from "~/lib/constants";
import { contentChanged } from "~/lib/content-version.server";
import { dbErrorCode, dbErrorConstraint } from "~/lib/db-errors";
import { slugify } from "~/lib/format";
import type { PersonActor } from "~/lib/lifecycle.server";
import { logger } from "~/lib/logger.server";
import { getStorage, keyFromUrl } from "~/lib/storage.server";
import { listTimeZones } from "~/lib/time-zones";
import { notifyEventChange } from "~/models/registrations/registrations.server";

/** Who is acting: the audit row takes the actor and the request's IP and user agent. */

type EventStatus = (typeof EVENT_STATUSES)[number];

/** What the event form saves (the parsed output of EventFormSchema). */
export type EventInput = {
  title: string;
  description: string | null;
  location: string;
  startDate: Date;
  endDate: Date;
  timeZone: string;
  theme: string | null;
  eventType: string;
  category: string | null;
  industrySector: string | null;
  tags: string[] | null;
  status: EventStatus;
  featured: boolean;
  imageUrl: string | null;
  /** Seats for the whole event; null: no limit. Left out: unchanged. */
  capacity?: number | null;
  /** The online join link (registrants only); null: none. Left out: unchanged. */
  joinUrl?: string | null;
  speakerIds: string[];
  sponsorIds: string[];
  agenda: Array<{
    startTime: Date;
    endTime: Date | null;
    title: string;
    description: string | null;
  }>;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come from URLs: anything that is not a UUID is "not found", never a database error. */
export function isEventId(id: string | null | undefined): id is string {
  return typeof id === "string" && UUID.test(id);
}

export type AdminEventFilters = { search?: string | null; status?: string | null };

export function normaliseStatusFilter(value: string | null | undefined): EventStatus | "all" {
  return (EVENT_STATUSES as readonly string[]).includes(value ?? "")
    ? (value as EventStatus)
    : "all";
}

/** Admin list (spec §5): search in title, location or theme, combined with the status filter. */
export async function listAdminEvents(filters: AdminEventFilters = {}) {
  const conditions: SQL[] = [];
  const status = normaliseStatusFilter(filters.status);
  if (status !== "all") conditions.push(eq(events.status, status));
  const term = filters.search?.trim();
  if (term) {
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      or(
        sql`${events.title} ilike ${pattern}`,
        sql`${events.location} ilike ${pattern}`,
        sql`coalesce(${events.theme}, '') ilike ${pattern}`,
      ) as SQL,
    );
  }
  return getDb()
    .select({
      id: events.id,
      title: events.title,
      slug: events.slug,
      location: events.location,
      theme: events.theme,
      startDate: events.startDate,
      endDate: events.endDate,
      status: events.status,
      featured: events.featured,
      eventType: events.eventType,
      category: events.category,
      imageUrl: events.imageUrl,
      cancelledAt: events.cancelledAt,
    })
    .from(events)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(events.startDate), alphabetical(events.title))
    .limit(500);
}

/** The choices of the event form: types, categories, speakers and sponsors. */
export async function listEventFormOptions() {
  const db = getDb();
  const [types, categories, speakerRows, sponsorRows] = await Promise.all([
    db.select({ name: eventTypes.name }).from(eventTypes).orderBy(asc(eventTypes.name)),
    db
      .select({ name: eventCategories.name })
      .from(eventCategories)
      .orderBy(asc(eventCategories.name)),
    db
      .select({ id: speakers.id, name: speakers.name, organization: speakers.organization })
      .from(speakers)
      .orderBy(asc(speakers.name)),
    db
      .select({ id: sponsors.id, name: sponsors.name, tier: sponsors.tier })
      .from(sponsors)
      .orderBy(asc(sponsors.name)),
  ]);
  return {
    types: types.map((t) => t.name),
    categories: categories.map((c) => c.name),
    speakers: speakerRows,
    sponsors: sponsorRows,
    timeZones: listTimeZones(),
  };
}

/** One event with its links, agenda and fees, for the edit screen; null when it does not exist. */
export async function getEventForEdit(id: string) {
  if (!isEventId(id)) return null;
  const db = getDb();
  const [event] = await db.select().from(events).where(eq(events.id, id)).limit(1);
  if (!event) return null;
  const [speakerLinks, sponsorLinks, agenda, fees] = await Promise.all([
    db
      .select({ id: eventSpeakers.speakerId })
      .from(eventSpeakers)
      .where(eq(eventSpeakers.eventId, id))
      .orderBy(asc(eventSpeakers.position)),
    db
      .select({ id: eventSponsors.sponsorId })
      .from(eventSponsors)
      .where(eq(eventSponsors.eventId, id)),
    db
      .select({
        startTime: agendaItems.startTime,
        endTime: agendaItems.endTime,
        title: agendaItems.title,
        description: agendaItems.description,
      })
      .from(agendaItems)
      .where(eq(agendaItems.eventId, id))
      .orderBy(asc(agendaItems.position), asc(agendaItems.startTime)),
    db
      .select()
      .from(eventFees)
      .where(eq(eventFees.eventId, id))
      .orderBy(asc(eventFees.amountMinor), asc(eventFees.createdAt)),
  ]);
  return {
    ...event,
    speakerIds: speakerLinks.map((l) => l.id),
    sponsorIds: sponsorLinks.map((l) => l.id),
    agenda,
    fees,
  };
}

/** A slug from the title that no other event uses: `title`, else `title-2`, `title-3`, ... */
export async function uniqueEventSlug(db: Database, title: string, exceptId?: string) {
  const base = slugify(title);
  const escaped = base.replace(/[\\%_]/g, (c) => `\\${c}`);
  const taken = await db
    .select({ slug: events.slug })
    .from(events)
    .where(
      and(
        or(eq(events.slug, base), sql`${events.slug} like ${`${escaped}-%`}`),
        exceptId ? ne(events.id, exceptId) : undefined,
      ),
    );
  const used = new Set(taken.map((r) => r.slug));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}

function eventColumns(input: EventInput) {
  return {
    title: input.title,
    description: input.description,
    location: input.location,
    startDate: input.startDate,
    endDate: input.endDate,
    timeZone: input.timeZone,
    theme: input.theme,
    eventType: input.eventType,
    category: input.category,
    industrySector: input.industrySector,
    tags: input.tags,
    status: input.status,
    featured: input.featured,
    imageUrl: input.imageUrl,
    ...(input.capacity !== undefined ? { capacity: input.capacity } : {}),
    ...(input.joinUrl !== undefined ? { joinUrl: input.joinUrl } : {}),
  };
}

/** Replaces the event's speakers, sponsors and agenda inside the caller's transaction. */
async function replaceLinks(tx: Database, eventId: string, input: EventInput) {
  await tx.delete(eventSpeakers).where(eq(eventSpeakers.eventId, eventId));
  await tx.delete(eventSponsors).where(eq(eventSponsors.eventId, eventId));
  await tx.delete(agendaItems).where(eq(agendaItems.eventId, eventId));
  if (input.speakerIds.length) {
    await tx
      .insert(eventSpeakers)
      .values(input.speakerIds.map((speakerId, position) => ({ eventId, speakerId, position })));
  }
  if (input.sponsorIds.length) {
    await tx
      .insert(eventSponsors)
      .values(input.sponsorIds.map((sponsorId) => ({ eventId, sponsorId })));
  }
  if (input.agenda.length) {
    await tx
      .insert(agendaItems)
      .values(input.agenda.map((item, position) => ({ ...item, eventId, position })));
  }
}

/** Retries once when only the slug collided with a concurrent save (the title is still free). */
async function withSlugRetry<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (dbErrorCode(error) === "23505" && dbErrorConstraint(error)?.includes("slug")) return run();
    throw error;
  }
}

/** Creates the event with its links and agenda in one transaction; audit row + cache refresh. */
export async function createEvent(actor: PersonActor, input: EventInput) {
  const created = await withSlugRetry(() =>
    getDb().transaction(async (tx) => {
      const slug = await uniqueEventSlug(tx, input.title);
      const [row] = await tx
        .insert(events)
        .values({ ...eventColumns(input), slug, createdBy: actor.id })
        .returning({ id: events.id, slug: events.slug, title: events.title });
      await replaceLinks(tx, row.id, input);
      return row;
    }),
  );
  await recordAudit(actor.request ?? null, {
    action: "event.create",
    actorId: actor.id,
    entity: "event",
    entityId: created.id,
    details: { title: created.title, status: input.status },
  });
  contentChanged();
  return created;
}

/**
 * Updates the event, its links and agenda in one transaction and bumps its iCalendar SEQUENCE.
 * The slug follows a new title only while the event has never been public, so shared links of
 * a published event keep working. Returns null when the event does not exist.
 */
export async function updateEvent(actor: PersonActor, id: string, input: EventInput) {
  if (!isEventId(id)) return null;
  const result = await withSlugRetry(() =>
    getDb().transaction(async (tx) => {
      const [current] = await tx
        .select({
          title: events.title,
          status: events.status,
          imageUrl: events.imageUrl,
          startDate: events.startDate,
          endDate: events.endDate,
          location: events.location,
        })
        .from(events)
        .where(eq(events.id, id))
        .for("update");
      if (!current) return null;
      const renamed = current.title !== input.title;
      const slug =
        renamed && current.status === "draft" ? await uniqueEventSlug(tx, input.title, id) : null;
      const [row] = await tx
        .update(events)
        .set({
          ...eventColumns(input),
          ...(slug ? { slug } : {}),
          sequence: sql`${events.sequence} + 1`,
        })
        .where(eq(events.id, id))
        .returning({ id: events.id, slug: events.slug, title: events.title });
      await replaceLinks(tx, id, input);
      const published = current.status === "published" || input.status === "published";
      return {
        row,
        previousImage: current.imageUrl,
        changes: {
          time:
            published &&
            (current.startDate.getTime() !== input.startDate.getTime() ||
              current.endDate.getTime() !== input.endDate.getTime()),
          place: published && current.location.trim() !== input.location.trim(),
        },
      };
    }),
  );
  if (!result) return null;
  await recordAudit(actor.request ?? null, {
    action: "event.update",
    actorId: actor.id,
    entity: "event",
    entityId: id,
    details: {
      title: result.row.title,
      status: input.status,
      ...(result.changes.time ? { timeChanged: true } : {}),
      ...(result.changes.place ? { placeChanged: true } : {}),
    },
  });
  contentChanged();
  if (result.previousImage !== input.imageUrl) await releaseImage(result.previousImage);
  // People registered for a published event hear when it moves (after the save committed).
  if (result.changes.time) await tellAttendees(id, "time");
  if (result.changes.place) await tellAttendees(id, "place");
  return result.row;
}

/** Enqueues the change e-mails; a failure is logged, never undoes the save already made. */
async function tellAttendees(eventId: string, change: "time" | "place" | "cancelled") {
  try {
    await notifyEventChange(eventId, change);
  } catch (error) {
    logger.error({ err: error, eventId, change }, "could not enqueue the event change e-mails");
  }
}

/**
 * Calls the event off (editors and admins): it takes no more registrations, check-in refuses
 * its tickets, and everyone registered is e-mailed. Null when the event does not exist; a
 * second call changes nothing and tells nobody again (`alreadyCancelled`).
 */
export async function cancelEvent(actor: PersonActor, id: string) {
  if (!isEventId(id)) return null;
  const result = await getDb().transaction(async (tx) => {
    const [current] = await tx
      .select({ title: events.title, cancelledAt: events.cancelledAt })
      .from(events)
      .where(eq(events.id, id))
      .for("update");
    if (!current) return null;
    if (current.cancelledAt) return { title: current.title, alreadyCancelled: true };
    await tx
      .update(events)
      .set({ cancelledAt: new Date(), sequence: sql`${events.sequence} + 1` })
      .where(eq(events.id, id));
    await recordAuditIn(tx, actor.request ?? null, {
      action: "event.cancel",
      actorId: actor.id,
      entity: "event",
      entityId: id,
      details: { title: current.title },
    });
    return { title: current.title, alreadyCancelled: false };
  });
  if (!result) return null;
  if (!result.alreadyCancelled) {
    contentChanged();
    await tellAttendees(id, "cancelled");
  }
  return result;
}

/** Deletes the event (fees, links and agenda go with it by cascade). Null when not found. */
export async function deleteEvent(actor: PersonActor, id: string) {
  if (!isEventId(id)) return null;
  const [row] = await getDb()
    .delete(events)
    .where(eq(events.id, id))
    .returning({ id: events.id, title: events.title, imageUrl: events.imageUrl });
  if (!row) return null;
  await recordAudit(actor.request ?? null, {
    action: "event.delete",
    actorId: actor.id,
    entity: "event",
    entityId: id,
    details: { title: row.title },
  });
  contentChanged();
  await releaseImage(row.imageUrl);
  return { id: row.id, title: row.title };
}

/** Removes a stored image nothing points at any more (an orphan is harmless; a failure only logs). */
async function releaseImage(url: string | null) {
  const key = keyFromUrl(url);
  if (!key || !url) return;
  try {
    const [{ n }] = await getDb()
      .select({ n: sql<number>`count(*)::int` })
      .from(events)
      .where(eq(events.imageUrl, url));
    if (n === 0) await getStorage().delete(key);
  } catch (error) {
    logger.warn({ err: error, key }, "could not remove a released event image");
  }
}

/** The given ids that still exist, in their order (a stale form may offer a deleted one). */
export async function existingSpeakerAndSponsorIds(speakerIds: string[], sponsorIds: string[]) {
  const db = getDb();
  const [s, p] = await Promise.all([
    speakerIds.length
      ? db.select({ id: speakers.id }).from(speakers).where(inArray(speakers.id, speakerIds))
      : [],
    sponsorIds.length
      ? db.select({ id: sponsors.id }).from(sponsors).where(inArray(sponsors.id, sponsorIds))
      : [],
  ]);
  const speakerSet = new Set(s.map((r) => r.id));
  const sponsorSet = new Set(p.map((r) => r.id));
  return {
    speakerIds: speakerIds.filter((id) => speakerSet.has(id)),
    sponsorIds: sponsorIds.filter((id) => sponsorSet.has(id)),
  };
}
