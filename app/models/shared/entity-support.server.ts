import { type AnyColumn, count, eq, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { getDb } from "~/db/client.server";
import { recordAudit } from "~/lib/audit.server";
import { contentChanged } from "~/lib/content-version.server";
import type { PersonActor } from "~/lib/lifecycle.server";
import { logger } from "~/lib/logger.server";
import { getStorage, keyFromUrl } from "~/lib/storage.server";

/**
 * Helpers shared by the back-office models of categories, types, papers, speakers, sponsors and
 * offices: the audit row of a change (who acts is the kit's PersonActor), search patterns, id
 * checks and upload clean-up.
 */
/** Writes the audit row of a back-office mutation and tells the public page cache. */
export async function afterMutation(
  actor: PersonActor,
  entry: { action: string; entity: string; entityId: string; details?: Record<string, unknown> },
) {
  await recordAudit(actor.request ?? null, { ...entry, actorId: actor.id });
  contentChanged();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come from URLs: anything that is not a UUID is simply "not found" (never a 22P02 error). */
export function isUuid(id: string | null | undefined): id is string {
  return typeof id === "string" && UUID.test(id);
}

/** `%term%` for ILIKE with the LIKE wildcards of the term escaped; null for an empty term. */
export function containsPattern(term: string | null | undefined) {
  const trimmed = term?.trim();
  if (!trimmed) return null;
  return `%${trimmed.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Case-insensitive "column contains term" for text columns that may be null. */
export function ilikeAny(pattern: string, ...columns: Array<AnyColumn | SQL>) {
  return sql.join(
    columns.map((c) => sql`coalesce(${c}, '') ilike ${pattern}`),
    sql` or `,
  );
}

export const PAGE_SIZE = 24;

/** The requested page, or the last one when the list has become shorter than that. */
export function clampPage(page: number, total: number, pageSize: number) {
  return Math.max(1, Math.min(page, Math.ceil(total / pageSize)));
}

/** A 1-based page number from a query parameter (anything odd is page 1). */
export function pageNumber(value: string | null | undefined) {
  const n = Number.parseInt(value ?? "", 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, 100_000) : 1;
}

/**
 * Removes one of our stored uploads once no row of `table` points at it any more. External URLs
 * are left alone; a failure is only logged (an orphaned file is harmless, a failed save is not).
 */
export async function releaseUpload(
  url: string | null | undefined,
  table: PgTable,
  column: AnyColumn,
) {
  const key = keyFromUrl(url);
  if (!key || !url) return;
  try {
    const [row] = await getDb().select({ n: count() }).from(table).where(eq(column, url));
    if ((row?.n ?? 0) > 0) return;
    await getStorage().delete(key);
  } catch (error) {
    logger.warn({ err: error, key }, "could not remove a released upload");
  }
}

/** Empty or blank optional text is stored as null (spec §5). */
export function nullIfBlank(value: string | null | undefined) {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** An expected, user-facing refusal (duplicate name, still in use); `field` names the form field. */
export class EntityError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "EntityError";
  }
}
