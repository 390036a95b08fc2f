import { and, asc, count, eq } from "drizzle-orm";
import { type Database, getDb } from "~/db/client.server";
import { eventCategories, events, eventTypes } from "~/db/schema";
import { contentMemo } from "~/models/shared/content-memo.server";

export type NavTaxonomy = { name: string; color: string | null; count: number };
export type MegaMenuData = { types: NavTaxonomy[]; categories: NavTaxonomy[] };

/** Event types and categories for the mega menu, with counts of published events (spec §2.2). */
export async function listMegaMenuTaxonomies(db: Database = getDb()): Promise<MegaMenuData> {
  const published = eq(events.status, "published");
  const [types, categories] = await Promise.all([
    db
      .select({ name: eventTypes.name, color: eventTypes.color, count: count(events.id) })
      .from(eventTypes)
      .leftJoin(events, and(eq(events.eventType, eventTypes.name), published))
      .groupBy(eventTypes.id)
      .orderBy(asc(eventTypes.name)),
    db
      .select({ name: eventCategories.name, color: eventCategories.color, count: count(events.id) })
      .from(eventCategories)
      .leftJoin(events, and(eq(events.category, eventCategories.name), published))
      .groupBy(eventCategories.id)
      .orderBy(asc(eventCategories.name)),
  ]);
  return { types, categories };
}

// The root loader asks for this on every page: the counts are kept until the content changes
// (contentChanged() after any back-office write) or, as a safety net for changes made by another
// instance without Redis, for at most a minute (contentMemo, decision 0091).
const megaMenu = contentMemo<MegaMenuData>();

export function getMegaMenuData(now = Date.now()): Promise<MegaMenuData> {
  return megaMenu("all", () => listMegaMenuTaxonomies(getDb()), { now });
}
