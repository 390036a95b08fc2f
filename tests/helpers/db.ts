import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { type DatabaseHandle, openDatabase, setDatabase } from "~/db/client.server";

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a brand-new
 * PostgreSQL database when TEST_DATABASE_URL is set (dropped again afterwards).
 */
export async function createTestDatabase(): Promise<DatabaseHandle & { url?: string }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const handle = await openDatabase({ memory: true });
    await handle.migrate();
    return handle;
  }
  const name = `kongamano_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
  await handle.migrate();
  return {
    ...handle,
    url: url.toString(),
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
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
