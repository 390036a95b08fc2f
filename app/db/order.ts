import { type AnyColumn, type SQL, sql } from "drizzle-orm";

/**
 * `column DESC NULLS LAST`: the order the created_at indexes are built in. Plain `desc()` means
 * NULLS FIRST, which PostgreSQL cannot read from those indexes (it sorts the whole table instead).
 */
export function newestFirst(column: AnyColumn): SQL {
  return sql`${column} desc nulls last`;
}

/**
 * Alphabetical order as people expect it: case-insensitive ('Data and Analytics' before 'Data
 * Ethics', which the C collation of PGlite and many servers puts the other way round).
 */
export function alphabetical(column: AnyColumn): SQL {
  return sql`lower(${column}) asc`;
}
