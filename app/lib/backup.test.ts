import { mkdtempSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import * as tar from "tar";
import { afterEach, describe, expect, it } from "vitest";
import { agendaItems, eventFees, events, papers } from "~/db/schema";
import { localDriver, publicUrl, randomKey, setStorage } from "~/lib/storage.server";
import { createTestDatabase } from "../../tests/helpers/db";
import { createBackup, RestoreRefusedError, restoreBackup } from "./backup.server";

afterEach(() => setStorage(undefined));

describe("backup and restore", () => {
  it("restores a backup into an empty data directory with the same content and files", {
    timeout: 120_000,
  }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "kongamano-backup-test-"));
    const source = await createTestDatabase();
    const target = await createTestDatabase();
    try {
      setStorage(localDriver(path.join(dir, "uploads-a")));
      const key = randomKey("papers", "pdf");
      const { getStorage } = await import("~/lib/storage.server");
      await getStorage().put(key, Buffer.from("%PDF-1.4 backup me"), "application/pdf");
      const [event] = await source.db
        .insert(events)
        .values({
          title: "Records Management Forum",
          slug: "records-management-forum",
          location: "Kigali, Rwanda",
          startDate: new Date("2027-05-04T06:00:00Z"),
          endDate: new Date("2027-05-05T14:00:00Z"),
          tags: ["records", "archives"],
          status: "published",
          category: null,
        })
        .returning();
      await source.db
        .insert(eventFees)
        .values({ eventId: event.id, amountMinor: 14950, currency: "KES", feeType: "student" });
      await source.db.insert(agendaItems).values({
        eventId: event.id,
        title: "Opening",
        startTime: new Date("2027-05-04T06:30:00Z"),
      });
      await source.db.insert(papers).values({
        title: "Metadata at Scale",
        slug: "metadata-at-scale",
        authors: ["A. Kamau", "B. Mensah"],
        status: "published",
        pdfUrl: publicUrl(key),
        publishedDate: "2026-02-01",
      });

      const file = path.join(dir, "backup.tar.gz");
      const made = await createBackup(source.db, file, { sessionSecret: "s".repeat(40) });
      expect(made.counts.events).toBe(1);
      expect(made.files).toBe(1);

      // Restore somewhere else entirely: another database and another upload directory.
      setStorage(localDriver(path.join(dir, "uploads-b")));
      const restored = await restoreBackup(target.db, file);
      expect(restored.sessionSecret).toBe("s".repeat(40));
      const [copy] = await target.db
        .select()
        .from(events)
        .where(eq(events.slug, "records-management-forum"));
      expect(copy).toMatchObject({
        title: event.title,
        tags: ["records", "archives"],
        status: "published",
      });
      expect(copy.startDate.toISOString()).toBe("2027-05-04T06:00:00.000Z");
      const fees = await target.db.select().from(eventFees);
      expect(fees).toMatchObject([{ amountMinor: 14950, currency: "KES", feeType: "student" }]);
      const [paper] = await target.db.select().from(papers);
      expect(paper.authors).toEqual(["A. Kamau", "B. Mensah"]);
      const object = await (await import("~/lib/storage.server")).getStorage().get(key);
      expect(Buffer.from(await new Response(object!.body).arrayBuffer()).toString()).toBe(
        "%PDF-1.4 backup me",
      );

      // A database with content is not overwritten by accident.
      await expect(restoreBackup(target.db, file)).rejects.toBeInstanceOf(RestoreRefusedError);

      // A backup from before migration 0011 (fees as numeric `amount`) restores its prices exactly.
      const old = path.join(dir, "old");
      await mkdir(old);
      await tar.x({ file, cwd: old });
      const feesFile = path.join(old, "tables", "event_fees.json");
      const [row] = JSON.parse(await readFile(feesFile, "utf8"));
      const { amount_minor: _minor, ...withoutMinor } = row;
      // PostgreSQL renders numeric(12,2) 1234.56 as the JSON number 1234.56.
      await writeFile(feesFile, JSON.stringify([{ ...withoutMinor, amount: 1234.56 }]));
      const oldFile = path.join(dir, "old.tar.gz");
      await tar.c({ gzip: true, file: oldFile, cwd: old }, await readdir(old));
      await restoreBackup(target.db, oldFile, { force: true });
      expect(await target.db.select().from(eventFees)).toMatchObject([
        { amountMinor: 123456, currency: "KES", feeType: "student" },
      ]);
    } finally {
      await source.close();
      await target.close();
    }
  });
});
