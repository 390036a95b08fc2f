import { asc, count, eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { eventCategories, events, eventTypes } from "~/db/schema";
import { dbErrorCode } from "~/lib/db-errors";
import type { PersonActor } from "~/lib/lifecycle.server";
import {
  afterMutation,
  containsPattern,
  EntityError,
  ilikeAny,
  isUuid,
} from "../shared/entity-support.server";

/**
 * Event categories and event types share their shape and rules (spec §3, §5): a unique name of at
 * most 100 characters, a #RRGGBB colour, an icon and a description (categories add a sector).
 * Events refer to them by name, so a rename cascades and a delete of one still in use is refused.
 */
export type TaxonomyKind = "category" | "type";

export type TaxonomyInput = {
  name: string;
  color: string;
  icon: string | null;
  description: string | null;
  /** Categories only. */
  industrySector?: string | null;
};

export type TaxonomyItem = {
  id: string;
  name: string;
  color: string;
  icon: string | null;
  description: string | null;
  industrySector: string | null;
  eventCount: number;
};

const TABLES = { category: eventCategories, type: eventTypes } as const;
const EVENT_COLUMN = { category: events.category, type: events.eventType } as const;
const ENTITY = { category: "event_category", type: "event_type" } as const;
const NOUN = { category: "category", type: "type" } as const;

function columnsOf(kind: TaxonomyKind) {
  const table = TABLES[kind];
  return {
    id: table.id,
    name: table.name,
    color: table.color,
    icon: table.icon,
    description: table.description,
    industrySector: kind === "category" ? eventCategories.industrySector : sql<null>`null`,
  };
}

/** All categories or types by name, with how many events use each; `search` filters by text. */
export async function listTaxonomy(kind: TaxonomyKind, search?: string | null) {
  const table = TABLES[kind];
  const pattern = containsPattern(search);
  const searchable =
    kind === "category"
      ? [eventCategories.name, eventCategories.description, eventCategories.industrySector]
      : [eventTypes.name, eventTypes.description];
  const rows = await getDb()
    .select({ ...columnsOf(kind), eventCount: count(events.id) })
    .from(table)
    .leftJoin(events, eq(EVENT_COLUMN[kind], table.name))
    .where(pattern ? ilikeAny(pattern, ...searchable) : undefined)
    .groupBy(table.id)
    .orderBy(asc(table.name));
  return rows as TaxonomyItem[];
}

export async function getTaxonomyItem(kind: TaxonomyKind, id: string) {
  if (!isUuid(id)) return null;
  const table = TABLES[kind];
  const [row] = await getDb().select(columnsOf(kind)).from(table).where(eq(table.id, id)).limit(1);
  return (row as Omit<TaxonomyItem, "eventCount"> | undefined) ?? null;
}

function values(kind: TaxonomyKind, input: TaxonomyInput) {
  const base = {
    name: input.name.trim(),
    color: input.color.toUpperCase(),
    icon: input.icon,
    description: input.description,
  };
  return kind === "category" ? { ...base, industrySector: input.industrySector ?? null } : base;
}

function duplicateName(kind: TaxonomyKind, name: string, error: unknown): never {
  if (dbErrorCode(error) === "23505") {
    throw new EntityError(`A ${NOUN[kind]} named "${name.trim()}" already exists.`, "name");
  }
  throw error;
}

export async function createTaxonomyItem(
  kind: TaxonomyKind,
  input: TaxonomyInput,
  ctx: PersonActor,
) {
  const table = TABLES[kind];
  let row: { id: string; name: string };
  try {
    [row] = await getDb()
      .insert(table)
      .values(values(kind, input))
      .returning({ id: table.id, name: table.name });
  } catch (error) {
    duplicateName(kind, input.name, error);
  }
  await afterMutation(ctx, {
    action: `${ENTITY[kind]}.create`,
    entity: ENTITY[kind],
    entityId: row.id,
    details: { name: row.name },
  });
  return row;
}

/** Updates one item; null when it does not exist. A rename carries over to its events. */
export async function updateTaxonomyItem(
  kind: TaxonomyKind,
  id: string,
  input: TaxonomyInput,
  ctx: PersonActor,
) {
  if (!isUuid(id)) return null;
  const table = TABLES[kind];
  let row: { id: string; name: string } | undefined;
  try {
    [row] = await getDb()
      .update(table)
      .set(values(kind, input))
      .where(eq(table.id, id))
      .returning({ id: table.id, name: table.name });
  } catch (error) {
    duplicateName(kind, input.name, error);
  }
  if (!row) return null;
  await afterMutation(ctx, {
    action: `${ENTITY[kind]}.update`,
    entity: ENTITY[kind],
    entityId: row.id,
    details: { name: row.name },
  });
  return row;
}

/** 'Cannot delete "conference": 12 events use this type.' */
export function inUseMessage(kind: TaxonomyKind, name: string, eventCount: number) {
  const users = eventCount === 1 ? "1 event uses" : `${eventCount} events use`;
  return `Cannot delete "${name}": ${users} this ${NOUN[kind]}.`;
}

async function countEventsUsing(kind: TaxonomyKind, name: string) {
  const [row] = await getDb()
    .select({ n: count() })
    .from(events)
    .where(eq(EVENT_COLUMN[kind], name));
  return row?.n ?? 0;
}

export type DeleteTaxonomyResult =
  | { status: "deleted"; name: string }
  | { status: "in_use"; name: string; eventCount: number; message: string }
  | { status: "not_found" };

/** Deletes an item no event uses; otherwise says how many events use it (nothing is changed). */
export async function deleteTaxonomyItem(
  kind: TaxonomyKind,
  id: string,
  ctx: PersonActor,
): Promise<DeleteTaxonomyResult> {
  const item = await getTaxonomyItem(kind, id);
  if (!item) return { status: "not_found" };
  const refuse = (eventCount: number) =>
    ({
      status: "in_use",
      name: item.name,
      eventCount,
      message: inUseMessage(kind, item.name, eventCount),
    }) as const;

  const used = await countEventsUsing(kind, item.name);
  if (used > 0) return refuse(used);
  const table = TABLES[kind];
  try {
    const deleted = await getDb().delete(table).where(eq(table.id, id)).returning({ id: table.id });
    if (deleted.length === 0) return { status: "not_found" };
  } catch (error) {
    // An event took this name between the count and the delete: the foreign key refused it.
    if (dbErrorCode(error) === "23503")
      return refuse(Math.max(1, await countEventsUsing(kind, item.name)));
    throw error;
  }
  await afterMutation(ctx, {
    action: `${ENTITY[kind]}.delete`,
    entity: ENTITY[kind],
    entityId: id,
    details: { name: item.name },
  });
  return { status: "deleted", name: item.name };
}
