import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/helpers/db";
import {
  DatabaseLockedError,
  openDatabase,
  queryRows,
  readWithSettings,
  setDatabase,
} from "./client.server";
import { events } from "./schema";

describe("database", () => {
  it("applies each migration once even when instances migrate concurrently", async () => {
    const handle = await createTestDatabase();
    try {
      await Promise.all([handle.migrate(), handle.migrate()]);
      const [row] = await queryRows<{ n: number; distinct_n: number }>(
        sql`select count(*)::int as n, count(distinct hash)::int as distinct_n from drizzle.__drizzle_migrations`,
        handle.db,
      );
      expect(row.n).toBeGreaterThanOrEqual(2);
      expect(row.n).toBe(row.distinct_n);
    } finally {
      await handle.close();
    }
  });

  it("enforces unique event titles (the 23505 of spec §8) and known statuses", async () => {
    const handle = await createTestDatabase();
    try {
      const base = {
        title: "Data Governance Summit",
        slug: "data-governance-summit",
        location: "Nairobi, Kenya",
        startDate: new Date("2027-03-01T06:00:00Z"),
        endDate: new Date("2027-03-02T15:00:00Z"),
      };
      await handle.db.insert(events).values(base);
      const duplicate: { code?: string; cause?: { code?: string } } = await handle.db
        .insert(events)
        .values({ ...base, slug: "other" })
        .then(() => ({}))
        .catch((e) => e);
      expect(String(duplicate?.cause?.code ?? duplicate?.code)).toBe("23505");
      const badStatus = await handle.db
        .execute(
          sql`insert into events (title, slug, location, start_date, end_date, status) values ('x','x','y', now(), now(), 'secret')`,
        )
        .catch((e) => e);
      expect(badStatus).toBeInstanceOf(Error);
    } finally {
      await handle.close();
    }
  });

  it("reads with transaction-local settings that end with the read (both databases)", async () => {
    const handle = await createTestDatabase();
    try {
      const query = {
        toSQL: () => ({
          sql: "select current_setting('enable_seqscan'), $1::int + 1",
          params: [41],
        }),
      };
      setDatabase(handle);
      expect(await readWithSettings({ enable_seqscan: "off" }, query)).toEqual([["off", 42]]);
      const [after] = await queryRows<{ s: string }>(
        sql`select current_setting('enable_seqscan') as s`,
        handle.db,
      );
      expect(after.s).toBe("on");
      await expect(
        readWithSettings(
          { enable_seqscan: "off" },
          { toSQL: () => ({ sql: "select 1/0", params: [] }) },
        ),
      ).rejects.toThrow(/division by zero/);
      expect(await readWithSettings({}, query)).toEqual([["on", 42]]);
    } finally {
      setDatabase(undefined);
      await handle.close();
    }
  });

  it("refuses a second process on the same embedded data directory", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "kongamano-lock-"));
    const { writeFileSync } = await import("node:fs");
    // A live process (our parent) already holds the lock.
    writeFileSync(path.join(dir, "pglite.lock"), String(process.ppid));
    await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DatabaseLockedError);
  });
});
