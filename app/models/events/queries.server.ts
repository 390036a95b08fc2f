// Public event queries. Every function here returns published events only (spec §4): the
// visibility rule lives in `publishedOnly`, which every query starts from.
import { and, asc, count, desc, eq, gt, gte, lte, type SQL, sql } from "drizzle-orm";
import { getDb, readWithSettings } from "~/db/client.server";
import { alphabetical, newestFirst } from "~/db/order";
import {
  agendaItems,
  eventCategories,
  eventFees,
  eventSpeakers,
  eventSponsors,
  events,
  eventTypes,
  papers,
  speakers,
  sponsors,
} from "~/db/schema";
import { DEFAULT_COLOR } from "~/lib/constants";
import { formatDateRange } from "~/lib/format";
import {
  EVENT_SEARCH_COUNT_CAP,
  EVENTS_PAGE_SIZE,
  type EventFilters,
  type EventSort,
} from "~/models/events/filters";
import { heldSeats, remainingSeats } from "~/models/registrations/registrations.server";
import { contentMemo } from "~/models/shared/content-memo.server";

const publishedOnly = eq(events.status, "published");

/** `%term%` for LIKE against the lower-cased search text, with LIKE's wildcards escaped. */
export function likeContains(term: string) {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Case-insensitive substring match on title, location, description, theme and category, on the
 * stored lower-cased `search_text` column and its trigram GIN index (drizzle/0003), so the
 * search stays fast with 100,000 events.
 */
export function eventSearchCondition(term: string) {
  return sql`${events.searchText} LIKE ${likeContains(term)}`;
}

/** WHERE conditions of the public listing (and of the calendar feed that takes its filters). */
function listingConditions(filters: EventFilters): SQL[] {
  const conditions: SQL[] = [publishedOnly];
  if (filters.search) conditions.push(eventSearchCondition(filters.search));
  if (filters.type !== "all") {
    conditions.push(
      sql`lower(coalesce(${events.eventType}, 'conference')) = ${filters.type.toLowerCase()}`,
    );
  }
  if (filters.category !== "all") {
    conditions.push(sql`lower(${events.category}) = ${filters.category.toLowerCase()}`);
  }
  if (filters.upcoming) conditions.push(sql`${events.startDate} > now()`);
  if (filters.featured) conditions.push(eq(events.featured, true));
  if (filters.virtual) {
    conditions.push(
      sql`(${events.location} ILIKE '%virtual%' OR ${events.location} ILIKE '%online%')`,
    );
  }
  return conditions;
}

function listingOrder(sort: EventSort) {
  // The id breaks ties so pages never overlap or skip rows.
  if (sort === "title") return [alphabetical(events.title), asc(events.title), asc(events.id)];
  if (sort === "location") return [asc(events.location), asc(events.startDate), asc(events.id)];
  return [asc(events.startDate), asc(events.id)];
}

/**
 * The listing by date (its default): events yet to start first, soonest first, then those that
 * have started (running, then past), latest first (issue 15, decision 0044). Two index range
 * scans on (status, start_date), one from now forwards and one from now backwards, instead of
 * one ORDER BY on an expression that no index serves (≥ 120 ms on 100,000 events).
 */
async function upcomingFirstPage(where: SQL | undefined, page: number, pageSize: number) {
  const db = getDb();
  const now = new Date();
  const offset = (page - 1) * pageSize;
  const upcoming = and(where, gt(events.startDate, now));
  const started = and(where, lte(events.startDate, now));
  const rows = await db
    .select(cardColumns)
    .from(events)
    .where(upcoming)
    .orderBy(asc(events.startDate), asc(events.id))
    .limit(pageSize)
    .offset(offset);
  if (rows.length === pageSize) return rows;
  // The page runs past the upcoming events: how many there are tells where the rest begins.
  const upcomingTotal =
    rows.length > 0
      ? offset + rows.length
      : (await db.select({ n: count() }).from(events).where(upcoming))[0].n;
  const rest = await db
    .select(cardColumns)
    .from(events)
    .where(started)
    .orderBy(desc(events.startDate), asc(events.id))
    .limit(pageSize - rows.length)
    .offset(Math.max(0, offset - upcomingTotal));
  return [...rows, ...rest];
}

/** Columns of an event card (spec §2.4); the description is cut short for the card. */
const cardColumns = {
  id: events.id,
  slug: events.slug,
  title: events.title,
  theme: events.theme,
  description: sql<string | null>`left(${events.description}, 320)`,
  location: events.location,
  startDate: events.startDate,
  endDate: events.endDate,
  timeZone: events.timeZone,
  eventType: sql<string>`coalesce(${events.eventType}, 'conference')`,
  category: events.category,
  imageUrl: events.imageUrl,
  featured: events.featured,
  typeName: events.eventType,
  speakerCount: sql<number>`(select count(*)::int from ${eventSpeakers} where ${eventSpeakers.eventId} = ${events.id})`,
};

type EventCardRow = {
  id: string;
  slug: string;
  title: string;
  theme: string | null;
  description: string | null;
  location: string;
  startDate: Date;
  endDate: Date;
  timeZone: string;
  eventType: string;
  category: string | null;
  imageUrl: string | null;
  featured: boolean;
  typeName: string | null;
  speakerCount: number;
};

/** A card's data plus its date line, formatted here so browsers need no date library. */
export type EventCardData = Omit<EventCardRow, "typeName"> & {
  typeColor: string;
  dateLabel: string;
  past: boolean;
};

function toCard({ typeName, ...row }: EventCardRow, colors: Map<string, string>): EventCardData {
  return {
    ...row,
    typeColor: (typeName && colors.get(typeName)) || DEFAULT_COLOR,
    dateLabel: formatDateRange(row.startDate, row.endDate, row.timeZone),
    past: row.endDate.getTime() <= Date.now(),
  };
}

const typeColors = contentMemo<Map<string, string>>();

/** Event type colours by name: a handful of rows, read once per content change, not joined. */
function getEventTypeColors(): Promise<Map<string, string>> {
  return typeColors("all", async () => {
    const rows = await getDb()
      .select({ name: eventTypes.name, color: eventTypes.color })
      .from(eventTypes);
    return new Map(rows.map((r) => [r.name, r.color]));
  });
}

/** One page of the public listing and the number of matching events (two indexed queries). */
export async function listPublishedEvents(
  filters: EventFilters,
  { page = 1, pageSize = EVENTS_PAGE_SIZE }: { page?: number; pageSize?: number } = {},
): Promise<{ events: EventCardData[]; total: number; capped: boolean }> {
  const db = getDb();
  const conditions = listingConditions(filters);
  const where = and(...conditions);
  const [rows, total, colors] = await Promise.all([
    filters.sort === "date"
      ? upcomingFirstPage(where, page, pageSize)
      : db
          .select(cardColumns)
          .from(events)
          .where(where)
          .orderBy(...listingOrder(filters.sort))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
    filters.search
      ? countSearchMatches(where)
      : conditions.length === 1 // `publishedOnly` alone: no filter
        ? // Every published event, already counted for the hero figures.
          getEventListingStats().then((s) => s.totalEvents)
        : db
            .select({ total: count() })
            .from(events)
            .where(where)
            .then((r) => r[0].total),
    getEventTypeColors(),
  ]);
  const capped = Boolean(filters.search) && total > EVENT_SEARCH_COUNT_CAP;
  return {
    events: rows.map((row) => toCard(row, colors)),
    total: capped ? EVENT_SEARCH_COUNT_CAP : total,
    capped,
  };
}

/**
 * Counts a search's matches, stopping past EVENT_SEARCH_COUNT_CAP: an exact count of a common
 * term reads tens of thousands of rows (80 ms on 100,000 events), a capped one through the
 * search index a few thousand (decision 0404). Sequential scans are ruled out for the count, or
 * the planner, misjudging text patterns, reads the whole table for a rare term.
 */
async function countSearchMatches(where: SQL | undefined): Promise<number> {
  const db = getDb();
  const matching = db
    .select({ one: sql`1` })
    .from(events)
    .where(where)
    .limit(EVENT_SEARCH_COUNT_CAP + 1)
    .as("matching");
  // One round trip with the setting, never a transaction that blocks the server (decision 0091).
  const [[total]] = await readWithSettings(
    { enable_seqscan: "off" },
    db.select({ total: sql<number>`count(*)::int` }).from(matching),
  );
  return Number(total);
}

/** Up to `limit` featured events for the home page: upcoming and running ones first. */
export async function listFeaturedEvents(limit = 3): Promise<EventCardData[]> {
  const featured = getDb()
    .select(cardColumns)
    .from(events)
    .where(and(publishedOnly, eq(events.featured, true)))
    .orderBy(
      sql`(${events.endDate} < now())`,
      sql`case when ${events.endDate} >= now() then ${events.startDate} end asc`,
      desc(events.startDate),
      asc(events.id),
    )
    .limit(limit);
  const [rows, colors] = await Promise.all([featured, getEventTypeColors()]);
  return rows.map((row) => toCard(row, colors));
}

// ---------------------------------------------------------------------------------------------
// Figures and filter options that do not depend on the query: kept per content version (every
// back-office change bumps it) and at most a minute, so other instances' changes show up too.
// ---------------------------------------------------------------------------------------------
const listingStats = contentMemo<{ totalEvents: number; locations: number }>();
const filterOptions = contentMemo<{ types: string[]; categories: string[] }>();

/** Listing hero figures (spec §2.4): published events and their distinct locations. */
export function getEventListingStats(): Promise<{ totalEvents: number; locations: number }> {
  return listingStats("all", async () => {
    const [row] = await getDb()
      .select({
        totalEvents: count(),
        locations: sql<number>`count(distinct lower(trim(${events.location})))::int`,
      })
      .from(events)
      .where(publishedOnly);
    return row;
  });
}

/** Names for the Event Type and Category selects. */
export function listEventFilterOptions(): Promise<{ types: string[]; categories: string[] }> {
  return filterOptions("all", async () => {
    const db = getDb();
    const [types, categories] = await Promise.all([
      db.select({ name: eventTypes.name }).from(eventTypes).orderBy(asc(eventTypes.name)),
      db
        .select({ name: eventCategories.name })
        .from(eventCategories)
        .orderBy(asc(eventCategories.name)),
    ]);
    return { types: types.map((t) => t.name), categories: categories.map((c) => c.name) };
  });
}

// ---------------------------------------------------------------------------------------------
// Event page
// ---------------------------------------------------------------------------------------------
export type EventDetail = NonNullable<Awaited<ReturnType<typeof getPublishedEventBySlug>>>;

/** The slug of a published event by id (old `/events/{id}` links redirect to it). */
export async function findPublishedEventSlugById(id: string): Promise<string | null> {
  const [row] = await getDb()
    .select({ slug: events.slug })
    .from(events)
    .where(and(publishedOnly, eq(events.id, id)))
    .limit(1);
  return row?.slug ?? null;
}

// The event page reads its event's content on every visit: kept per content version for the
// most recently read events (decision 0091). Seats are never kept (getSeatsLeft reads them).
const eventDetails = contentMemo<Awaited<ReturnType<typeof readPublishedEventBySlug>>>({
  max: 200,
});

/**
 * A published event with speakers, agenda, fees and sponsors, or null (spec §2.5). The object is
 * shared with other requests until the content changes: read it, never change it.
 */
export function getPublishedEventBySlug(slug: string) {
  return eventDetails(slug, () => readPublishedEventBySlug(slug), {
    keep: (event) => event !== null,
  });
}

async function readPublishedEventBySlug(slug: string) {
  const db = getDb();
  const [event] = await db
    .select({
      id: events.id,
      slug: events.slug,
      title: events.title,
      description: events.description,
      location: events.location,
      startDate: events.startDate,
      endDate: events.endDate,
      timeZone: events.timeZone,
      theme: events.theme,
      eventType: sql<string>`coalesce(${events.eventType}, 'conference')`,
      category: events.category,
      industrySector: events.industrySector,
      tags: events.tags,
      featured: events.featured,
      imageUrl: events.imageUrl,
      sequence: events.sequence,
      capacity: events.capacity,
      cancelledAt: events.cancelledAt,
      createdAt: events.createdAt,
      updatedAt: events.updatedAt,
      typeColor: sql<string>`coalesce(${eventTypes.color}, ${DEFAULT_COLOR})`,
    })
    .from(events)
    .leftJoin(eventTypes, eq(eventTypes.name, events.eventType))
    .where(and(publishedOnly, eq(events.slug, slug)))
    .limit(1);
  if (!event) return null;
  return loadEventDetail(event);
}

async function loadEventDetail<E extends { id: string }>(event: E) {
  const db = getDb();
  // The four related lists in parallel, one query each (never one per speaker or sponsor).
  const [eventSpeakerRows, agenda, fees, sponsorRows] = await Promise.all([
    db
      .select({
        id: speakers.id,
        name: speakers.name,
        title: speakers.title,
        organization: speakers.organization,
        bio: speakers.bio,
        imageUrl: speakers.imageUrl,
      })
      .from(eventSpeakers)
      .innerJoin(speakers, eq(speakers.id, eventSpeakers.speakerId))
      .where(eq(eventSpeakers.eventId, event.id))
      .orderBy(asc(eventSpeakers.position), asc(speakers.name)),
    db
      .select({
        id: agendaItems.id,
        startTime: agendaItems.startTime,
        endTime: agendaItems.endTime,
        title: agendaItems.title,
        description: agendaItems.description,
      })
      .from(agendaItems)
      .where(eq(agendaItems.eventId, event.id))
      .orderBy(asc(agendaItems.startTime), asc(agendaItems.position)),
    db
      .select({
        id: eventFees.id,
        feeType: eventFees.feeType,
        amountMinor: eventFees.amountMinor,
        currency: eventFees.currency,
        description: eventFees.description,
        availableUntil: eventFees.availableUntil,
        saleStartsAt: eventFees.saleStartsAt,
        maxQuantity: eventFees.maxQuantity,
      })
      .from(eventFees)
      .where(eq(eventFees.eventId, event.id))
      .orderBy(asc(eventFees.amountMinor), asc(eventFees.feeType)),
    db
      .select({
        id: sponsors.id,
        name: sponsors.name,
        tier: sponsors.tier,
        logoUrl: sponsors.logoUrl,
        websiteUrl: sponsors.websiteUrl,
      })
      .from(eventSponsors)
      .innerJoin(sponsors, eq(sponsors.id, eventSponsors.sponsorId))
      .where(eq(eventSponsors.eventId, event.id))
      .orderBy(
        sql`array_position(array['platinum','gold','silver','bronze']::sponsor_tier[], ${sponsors.tier})`,
        asc(sponsors.name),
      ),
  ]);
  return { ...event, speakers: eventSpeakerRows, agenda, fees, sponsors: sponsorRows };
}

/**
 * Seats left per ticket of a published event, with the registration model's own count (seats
 * confirmed, awaiting payment or offered to the waitlist) against each fee's stock and the
 * event's capacity (decision 0084). Keyed by fee id; `free` is the free registration an event
 * without fees offers. Null: no limit.
 */
export async function getSeatsLeft(event: {
  id: string;
  capacity: number | null;
  fees: Array<{ id: string; maxQuantity: number | null }>;
}): Promise<{ byFee: Map<string, number | null>; free: number | null }> {
  const held = await heldSeats(getDb(), event.id);
  const left = (feeId: string | null, stock: number | null) => {
    const n = remainingSeats({ feeId, stock }, event.capacity, held);
    return Number.isFinite(n) ? n : null;
  };
  return {
    byFee: new Map(event.fees.map((fee) => [fee.id, left(fee.id, fee.maxQuantity)])),
    free: left(null, null),
  };
}

// ---------------------------------------------------------------------------------------------
// Calendars, feeds and the sitemap
// ---------------------------------------------------------------------------------------------
const calendarColumns = {
  id: events.id,
  slug: events.slug,
  title: events.title,
  description: events.description,
  theme: events.theme,
  location: events.location,
  startDate: events.startDate,
  endDate: events.endDate,
  timeZone: events.timeZone,
  eventType: sql<string>`coalesce(${events.eventType}, 'conference')`,
  category: events.category,
  sequence: events.sequence,
  cancelledAt: events.cancelledAt,
  createdAt: events.createdAt,
  updatedAt: events.updatedAt,
};
export type CalendarEvent = {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  theme: string | null;
  location: string;
  startDate: Date;
  endDate: Date;
  timeZone: string;
  eventType: string;
  category: string | null;
  sequence: number;
  /** A called-off event stays in calendars and feeds, as STATUS:CANCELLED. */
  cancelledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

export const CALENDAR_LIMIT = 500;

/**
 * Events for `/events.ics`: the listing's filters; `scope: 'current'` keeps only events that have
 * not ended (the subscribable feed), `scope: 'all'` is the listing's result set (Export Calendar).
 */
export async function listCalendarEvents(
  filters: EventFilters,
  { scope, limit = CALENDAR_LIMIT }: { scope: "current" | "all"; limit?: number },
): Promise<CalendarEvent[]> {
  const conditions = listingConditions(filters);
  if (scope === "current") conditions.push(gte(events.endDate, sql`now()`));
  return getDb()
    .select(calendarColumns)
    .from(events)
    .where(and(...conditions))
    .orderBy(...listingOrder(filters.sort))
    .limit(limit);
}

/** One published event for its own `.ics`, or null. */
export async function getCalendarEventBySlug(slug: string): Promise<CalendarEvent | null> {
  const [row] = await getDb()
    .select(calendarColumns)
    .from(events)
    .where(and(publishedOnly, eq(events.slug, slug)))
    .limit(1);
  return row ?? null;
}

/** The most recently added published events, newest first (the RSS feed). */
export async function listRecentPublishedEvents(limit = 50): Promise<CalendarEvent[]> {
  return getDb()
    .select(calendarColumns)
    .from(events)
    .where(publishedOnly)
    .orderBy(newestFirst(events.createdAt), asc(events.id))
    .limit(limit);
}

export type SitemapEntry = { path: string; lastModified: Date };

/** Every published event and published paper page, for /sitemap.xml. */
export async function listSitemapEntries(): Promise<SitemapEntry[]> {
  const db = getDb();
  const [eventRows, paperRows] = await Promise.all([
    db
      .select({ slug: events.slug, lastModified: events.updatedAt })
      .from(events)
      .where(publishedOnly)
      .orderBy(asc(events.startDate), asc(events.id)),
    db
      .select({ slug: papers.slug, lastModified: papers.updatedAt })
      .from(papers)
      .where(eq(papers.status, "published"))
      .orderBy(newestFirst(papers.createdAt), asc(papers.id)),
  ]);
  return [
    ...eventRows.map((e) => ({
      path: `/events/${encodeURIComponent(e.slug)}`,
      lastModified: e.lastModified,
    })),
    ...paperRows.map((p) => ({
      path: `/papers/${encodeURIComponent(p.slug)}`,
      lastModified: p.lastModified,
    })),
  ];
}
