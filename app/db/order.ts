import { type AnyColumn, type SQL, sql } from "drizzle-orm";

/**
 * `column DESC NULLS LAST`: the order the created_at indexes are built in. Plain `desc()` means
 * NULLS FIRST, which PostgreSQL cannot read from those indexes (it sorts the whole table instead).
 */
export function newestFirst(column: AnyColumn): SQL {
  return sql`${column} desc nulls last`;
}
