import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, inject } from "vitest";
import { type DatabaseHandle, openDatabase, setDatabase } from "~/db/client.server";
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
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
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
