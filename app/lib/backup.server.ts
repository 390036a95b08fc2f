import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { getTableName, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import * as tar from "tar";
import { type Database, queryRows } from "~/db/client.server";
import * as schema from "~/db/schema";
import { parseMinorUnits } from "~/lib/money";
import { getStorage, keyFromUrl } from "~/lib/storage.server";

/**
 * Logical backups that work the same on PGlite and PostgreSQL: one JSON file per table (rows as
 * PostgreSQL renders them, restored with json_populate_recordset so every type round-trips),
 * the uploaded files the data refers to, and a manifest. Tables are listed parents first.
 */
export const BACKUP_TABLES: PgTable[] = [
  schema.user,
  schema.session,
  schema.account,
  schema.verification,
  schema.twoFactor,
  schema.eventTypes,
  schema.eventCategories,
  schema.speakers,
  schema.sponsors,
  schema.offices,
  schema.events,
  schema.eventFees,
  schema.eventSpeakers,
  schema.eventSponsors,
  schema.agendaItems,
  schema.papers,
  schema.auditLog,
  schema.contactMessages,
  schema.invitations,
  // Pending jobs (reminders, expiries) and the keys of mail already sent, so a restore neither
  // forgets a due job nor sends a receipt again.
  schema.jobs,
  schema.sentMail,
];

const FORMAT = "kongamano-backup/1";

/** Columns holding /uploads/<key> URLs whose files belong in the backup. */
const FILE_COLUMNS: Array<[PgTable, string]> = [
  [schema.events, "image_url"],
  [schema.papers, "pdf_url"],
  [schema.speakers, "image_url"],
  [schema.sponsors, "logo_url"],
];

export async function createBackup(
  db: Database,
  file: string,
  extras: { sessionSecret?: string } = {},
) {
  const staging = await mkdtemp(path.join(tmpdir(), "kongamano-backup-"));
  try {
    const counts: Record<string, number> = {};
    await mkdir(path.join(staging, "tables"));
    for (const table of BACKUP_TABLES) {
      const name = getTableName(table);
      const [row] = await queryRows<{ rows: unknown[] }>(
        sql`select coalesce(json_agg(t), '[]'::json) as rows from ${table} t`,
        db,
      );
      counts[name] = row.rows.length;
      await writeFile(path.join(staging, "tables", `${name}.json`), JSON.stringify(row.rows));
    }
    const keys = new Set<string>();
    for (const [table, column] of FILE_COLUMNS) {
      const rows = await queryRows<{ url: string }>(
        sql`select ${sql.identifier(column)} as url from ${table} where ${sql.identifier(column)} like '/uploads/%'`,
        db,
      );
      for (const { url } of rows) {
        const key = keyFromUrl(url);
        if (key) keys.add(key);
      }
    }
    const files: string[] = [];
    for (const key of keys) {
      const object = await getStorage().get(key);
      if (!object) continue; // a dangling reference: nothing to keep
      const target = path.join(staging, "uploads", key);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, Buffer.from(await new Response(object.body).arrayBuffer()));
      files.push(key);
    }
    if (extras.sessionSecret)
      await writeFile(path.join(staging, "session-secret"), extras.sessionSecret, { mode: 0o600 });
    await writeFile(
      path.join(staging, "manifest.json"),
      JSON.stringify(
        { format: FORMAT, createdAt: new Date().toISOString(), counts, files },
        null,
        2,
      ),
    );
    await mkdir(path.dirname(path.resolve(file)), { recursive: true });
    await tar.c({ gzip: true, file, cwd: staging }, await readdir(staging));
    return { counts, files: files.length };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export class RestoreRefusedError extends Error {}

/**
 * A fee row of a backup taken before migration 0011 has `amount` (numeric(12,2), read back as a
 * JSON number) instead of `amount_minor`: converted through its decimal text, exactly (0081).
 */
function upgradeFeeRow(row: Record<string, unknown>) {
  if ("amount_minor" in row || !("amount" in row)) return row;
  const { amount, ...rest } = row;
  const amountMinor = parseMinorUnits(String(amount), String(row.currency));
  if (amountMinor === null) {
    throw new RestoreRefusedError(`A fee in the backup has an unreadable amount: ${amount}`);
  }
  return { ...rest, amount_minor: amountMinor };
}

/** Restores into a migrated database that holds no users and no events (unless `force`). */
export async function restoreBackup(
  db: Database,
  file: string,
  { force = false }: { force?: boolean } = {},
) {
  const [{ users, events }] = await queryRows<{ users: number; events: number }>(
    sql`select (select count(*) from "user")::int as users, (select count(*) from events)::int as events`,
    db,
  );
  if ((users > 0 || events > 0) && !force) {
    throw new RestoreRefusedError(
      `The target database is not empty (${users} users, ${events} events). Restore into an empty database, or pass --force to replace its content.`,
    );
  }
  const staging = await mkdtemp(path.join(tmpdir(), "kongamano-restore-"));
  try {
    await tar.x({ file, cwd: staging });
    const manifest = JSON.parse(await readFile(path.join(staging, "manifest.json"), "utf8"));
    if (manifest.format !== FORMAT)
      throw new RestoreRefusedError(`Unknown backup format: ${manifest.format}`);
    await db.transaction(async (tx) => {
      const names = BACKUP_TABLES.map((t) => `"${getTableName(t)}"`).join(", ");
      // Empty every table (also the event types the migrations insert) before loading.
      await tx.execute(sql.raw(`TRUNCATE ${names}, rate_limit CASCADE`));
      for (const table of BACKUP_TABLES) {
        const name = getTableName(table);
        const read = JSON.parse(
          await readFile(path.join(staging, "tables", `${name}.json`), "utf8"),
        ) as Record<string, unknown>[];
        const rows = name === getTableName(schema.eventFees) ? read.map(upgradeFeeRow) : read;
        // Generated columns (search text) are computed again by PostgreSQL.
        const columns = await queryRows<{ column_name: string }>(
          sql`select column_name from information_schema.columns
              where table_schema = current_schema() and table_name = ${name} and is_generated = 'NEVER'
              order by ordinal_position`,
          tx as unknown as Database,
        );
        const list = sql.join(
          columns.map((c) => sql.identifier(c.column_name)),
          sql`, `,
        );
        for (let i = 0; i < rows.length; i += 1000) {
          const chunk = JSON.stringify(rows.slice(i, i + 1000));
          await tx.execute(
            sql`insert into ${table} (${list}) select ${list} from json_populate_recordset(null::${table}, ${chunk}::json)`,
          );
        }
      }
    });
    for (const key of manifest.files as string[]) {
      const source = path.join(staging, "uploads", key);
      if (!existsSync(source)) continue;
      const body = await readFile(source);
      await getStorage().put(key, body, "application/octet-stream");
    }
    const secretFile = path.join(staging, "session-secret");
    return {
      counts: manifest.counts as Record<string, number>,
      files: (manifest.files as string[]).length,
      sessionSecret: existsSync(secretFile)
        ? (await readFile(secretFile, "utf8")).trim()
        : undefined,
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
