// Databases migrated part of the way, for migration tests: an empty database (PGlite, or a fresh
// one on the PostgreSQL server of TEST_DATABASE_URL), migrated up to a given migration from a copy
// of the migrations folder, given rows the old schema held, then migrated on like a deployed site.
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Database, type DatabaseHandle, openDatabase } from "~/db/client.server";
import { adminQuery } from "./template-database";

const folders: string[] = [];

/** A copy of the migrations folder whose journal ends at `tag` (e.g. "0010_membership_upgrade_requests"). */
export function migrationsUpTo(tag: string) {
  const folder = mkdtempSync(path.join(tmpdir(), "kongamano-migrations-"));
  folders.push(folder);
  cpSync(path.resolve("drizzle"), folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as {
    entries: { idx: number; tag: string }[];
  };
  const last = journal.entries.findIndex((entry) => entry.tag === tag);
  if (last < 1) throw new Error(`No migration tagged ${tag} (or it is the first)`);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

/** Migrates with the migrations of `folder` (a `migrationsUpTo` copy), or all of them. */
export async function migrateWith(handle: DatabaseHandle, folder: string | undefined) {
  const before = process.env.MIGRATIONS_DIR;
  if (folder) process.env.MIGRATIONS_DIR = folder;
  else delete process.env.MIGRATIONS_DIR;
  try {
    await handle.migrate();
  } finally {
    if (before === undefined) delete process.env.MIGRATIONS_DIR;
    else process.env.MIGRATIONS_DIR = before;
  }
}

/** An empty database (no template: the template is already fully migrated); close drops it. */
export async function emptyDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return openDatabase({ memory: true });
  const name = `kongamano_migration_${randomBytes(6).toString("hex")}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
  return {
    ...handle,
    async close() {
      await handle.close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Removes the copied migration folders (call from afterAll). */
export function removeMigrationCopies() {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/** Migrating an empty database (twice) takes a while on a loaded machine: a test's timeout. */
export const MIGRATING_TIMEOUT = 180_000;

/**
 * Runs `body` on an empty database migrated up to `tag` (the old schema, to fill with old rows);
 * `migrateTo(next)` migrates it on to `next`, or to the end without one. The database is closed
 * (and on PostgreSQL dropped) afterwards.
 */
export async function onDatabaseAt(
  tag: string,
  body: (db: Database, migrateTo: (next?: string) => Promise<void>) => Promise<void>,
) {
  const handle = await emptyDatabase();
  try {
    await migrateWith(handle, migrationsUpTo(tag));
    await body(handle.db, (next) => migrateWith(handle, next ? migrationsUpTo(next) : undefined));
  } finally {
    await handle.close();
  }
}
