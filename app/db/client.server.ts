import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { PgliteThread } from "./pglite-thread.server";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The `tx` handed to `db.transaction(async (tx) => …)`: functions taking one join the caller's. */
export type DbTransaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<boolean>;
  migrate(): Promise<void>;
  /**
   * One read query in a transaction of its own with transaction-local settings (`set_config(…,
   * true)`), its rows as arrays: what `SET LOCAL` + a query did in a Drizzle transaction, as one
   * round trip to PGlite's thread (readWithSettings).
   */
  queryWithSettings(
    settings: Record<string, string>,
    query: { sql: string; params: unknown[] },
  ): Promise<unknown[][]>;
  /** Embedded database only: its data directory as a tarball, to open copies of it (tests). */
  dump?(): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Where the pool reports an idle client's error: the caller's logger (db sits below lib). */
export type PoolLog = { warn(fields: { err: unknown }, message: string): void };

export type DatabaseOptions =
  | {
      databaseUrl: string;
      poolSize?: number;
      log?: PoolLog;
      /** How long a request waits for a free connection before it fails (default 5 s). */
      connectionTimeoutMs?: number;
    }
  | { dataDir: string } // embedded PGlite persisted on disk
  | { memory: true; from?: Uint8Array }; // embedded PGlite in memory (tests), maybe from a dump

const MIGRATION_LOCK_KEY = 727_274_2023; // any constant shared by every instance of the app

export function migrationsFolder() {
  return process.env.MIGRATIONS_DIR ?? path.resolve("drizzle");
}

export class DatabaseLockedError extends Error {}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ("databaseUrl" in options) {
    return openPostgres(
      options.databaseUrl,
      options.poolSize ?? 10,
      options.log ?? consoleLog,
      options.connectionTimeoutMs ?? 5_000,
    );
  }
  if ("dataDir" in options) return openPglite(options.dataDir);
  return openPglite(undefined, options.from);
}

const consoleLog: PoolLog = { warn: ({ err }, message) => console.warn(message, err) };

async function openPostgres(
  connectionString: string,
  max: number,
  log: PoolLog,
  connectionTimeoutMillis: number,
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis,
    idleTimeoutMillis: 30_000,
    // A query stuck behind a dead server fails instead of holding the request forever.
    query_timeout: 15_000,
  });
  // Without this listener an idle client's error (e.g. PostgreSQL restarting) crashes the process.
  pool.on("error", (error) => log.warn({ err: error }, "postgres pool client error"));
  const db = drizzlePg({ client: pool, schema }) as unknown as Database;
  return {
    db,
    kind: "postgres",
    ping: () => ping(db),
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        try {
          await migratePg(drizzlePg({ client }), { migrationsFolder: migrationsFolder() });
        } finally {
          await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
    },
    async queryWithSettings(settings, query) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        try {
          for (const [name, value] of Object.entries(settings)) {
            await client.query("select set_config($1, $2, true)", [name, value]);
          }
          const result = await client.query<unknown[]>({
            text: query.sql,
            values: query.params,
            rowMode: "array",
          });
          await client.query("COMMIT");
          return result.rows;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => {});
          throw error;
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

async function openPglite(
  dataDir: string | undefined,
  loadDataDir?: Uint8Array,
): Promise<DatabaseHandle> {
  let releaseLock = () => {};
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    releaseLock = acquireDirectoryLock(dataDir);
  }
  // PGlite gets a thread of its own, so queries do not hold up rendering (decision 0014).
  let thread: PgliteThread;
  try {
    thread = await PgliteThread.create({
      dataDir: dataDir && path.join(dataDir, "pglite"),
      loadDataDir,
    });
  } catch (error) {
    releaseLock();
    throw error;
  }
  // The thread answers the calls Drizzle makes (query, transaction) as PGlite itself does.
  const client = thread as unknown as PGlite;
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  let closed = false;
  return {
    db,
    kind: "pglite",
    ping: () => ping(db),
    async migrate() {
      await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
      try {
        await migratePglite(drizzlePglite({ client }), { migrationsFolder: migrationsFolder() });
      } finally {
        await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
      }
    },
    async queryWithSettings(settings, query) {
      const result = await thread.queryWithSettings<unknown[]>(settings, query.sql, query.params, {
        rowMode: "array",
      });
      return result.rows;
    },
    dump: () => thread.dump(),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await thread.close({ checkpoint: Boolean(dataDir) });
      } finally {
        releaseLock();
      }
    },
  };
}

async function ping(db: Database) {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/**
 * PGlite has no cross-process lock: two processes on one directory silently diverge. We keep a
 * lock file holding our pid; a live holder stops the second process, a dead one's file is taken.
 */
function acquireDirectoryLock(dataDir: string): () => void {
  const file = path.join(dataDir, "pglite.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number.parseInt(readFileSync(file, "utf8"), 10);
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new DatabaseLockedError(
          `The data directory ${path.resolve(dataDir)} is in use by another Kongamano process (pid ${holder}). Stop it first, or start this one with a different DATA_DIR.`,
        );
      }
      rmSync(file, { force: true }); // stale lock left by a process that died
    }
  }
  throw new DatabaseLockedError(`Could not lock the data directory ${path.resolve(dataDir)}.`);
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// ---------------------------------------------------------------------------------------------
// The process-wide database. The server entry opens it at start-up; tests install their own.
// ---------------------------------------------------------------------------------------------
let current: DatabaseHandle | undefined;

export function setDatabase(handle: DatabaseHandle | undefined) {
  current = handle;
}

export function getDatabaseHandle(): DatabaseHandle {
  if (!current) throw new Error("Database not initialised: call setDatabase() at start-up");
  return current;
}

/** The Drizzle database for queries in `*.server.ts` modules. */
export function getDb(): Database {
  return getDatabaseHandle().db;
}

/**
 * The rows (as arrays) of one read query run with transaction-local planner settings, e.g.
 * `{ enable_seqscan: "off" }` for a count that must go through an index (decision 0404), in one
 * round trip on PGlite's thread (decision 0091). Cast what you read (`::int`, `::text`): the two
 * drivers parse some types differently.
 */
export function readWithSettings(
  settings: Record<string, string>,
  query: { toSQL(): { sql: string; params: unknown[] } },
): Promise<unknown[][]> {
  return getDatabaseHandle().queryWithSettings(settings, query.toSQL());
}

/** Rows of a raw SQL query (both drivers answer with `{ rows }`). */
export async function queryRows<T>(
  query: SQL,
  db: Database | DbTransaction = getDb(),
): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
