import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, inject } from "vitest";
import { type DatabaseHandle, openDatabase, queryRows, setDatabase } from "~/db/client.server";
import { adminQuery } from "./template-database";

let pgliteTemplate: Uint8Array | undefined;

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a brand-new
 * PostgreSQL database when TEST_DATABASE_URL is set (dropped again afterwards). Both are copies
 * of the run's migrated template (tests/helpers/template-database.ts).
 */
export async function createTestDatabase(): Promise<DatabaseHandle & { url?: string }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const templateFile = inject("pgliteTemplate");
    pgliteTemplate ??= templateFile ? readFileSync(templateFile) : undefined;
    // A copy per database: the worker thread takes the bytes it is given.
    const handle = await openDatabase({ memory: true, from: pgliteTemplate?.slice() });
    if (!pgliteTemplate) await handle.migrate();
    return handle;
  }
  const name = `kongamano_test_${randomBytes(6).toString("hex")}`;
  const template = inject("postgresTemplate");
  await adminQuery(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // The concurrency tests queue a hundred transactions or more on these 4 connections: on a
  // machine busy with other test files, the last of them may wait longer than production's 5 s
  // for a connection, which says nothing about what they test (no seat sold twice, no gap).
  const handle = await openDatabase({
    databaseUrl: url.toString(),
    poolSize: 4,
    connectionTimeoutMs: 25_000,
  });
  if (!template) await handle.migrate();
  return {
    ...handle,
    url: url.toString(),
    async close() {
      await handle.close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Installs a fresh database as the process-wide one for the current test file. */
export function useTestDatabase() {
  const ref: { handle?: DatabaseHandle } = {};
  beforeAll(async () => {
    ref.handle = await createTestDatabase();
    setDatabase(ref.handle);
  });
  afterAll(async () => {
    setDatabase(undefined);
    await ref.handle?.close();
  });
  return {
    get db() {
      if (!ref.handle) throw new Error("test database not ready");
      return ref.handle.db;
    },
    get handle() {
      if (!ref.handle) throw new Error("test database not ready");
      return ref.handle;
    },
  };
}

/**
 * A digest of every table's rows (sessions, rate-limit counters and verifications aside): what a
 * refused request must leave unchanged.
 */
export async function databaseFingerprint() {
  const tables = await queryRows<{ table_name: string }>(
    sql`select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'
          and table_name not in ('session', 'rate_limit', 'verification', '__drizzle_migrations')
        order by table_name`,
  );
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const [row] = await queryRows<{ digest: string | null }>(
      sql`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest
          from ${sql.identifier(table_name)} t`,
    );
    parts.push(`${table_name}:${row.digest}`);
  }
  return parts.join("\n");
}
