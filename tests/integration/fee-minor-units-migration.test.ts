import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import {
  MIGRATING_TIMEOUT,
  onDatabaseAt,
  removeMigrationCopies,
} from "../helpers/partial-migrations";

// Migration 0011 turns event_fees.amount numeric(12,2) into amount_minor bigint (decision 0081).
// The database is migrated up to 0010 from a copy of the migrations folder, given fees, then
// migrated to the end like a deployed site is; the fees must come out as exact minor units.

const LAST_BEFORE = "0010_membership_upgrade_requests";
afterAll(removeMigrationCopies);

describe("migration 0011: event fees in minor units", () => {
  it("converts every existing fee exactly and keeps money columns within 2^53 − 1", {
    timeout: MIGRATING_TIMEOUT,
  }, async () => {
    await onDatabaseAt(LAST_BEFORE, async (db, migrateTo) => {
      await db.execute(sql`
        INSERT INTO events (id, title, slug, description, start_date, end_date, location)
        VALUES ('00000000-0000-4000-8000-000000000001', 'Old fees', 'old-fees', 'd',
                '2027-03-01T06:00:00Z', '2027-03-02T15:00:00Z', 'Nairobi, Kenya')`);
      const amounts = ["1234.56", "0", "99999999.99", "0.29", "0.07", "150", "19.99"];
      for (const [i, amount] of amounts.entries()) {
        await db.execute(sql`
          INSERT INTO event_fees (id, event_id, amount, currency, description)
          VALUES (${`00000000-0000-4000-8000-0000000001${String(i).padStart(2, "0")}`},
                  '00000000-0000-4000-8000-000000000001', ${amount}::numeric,
                  ${i % 2 ? "KES" : "USD"}, ${amount})`);
      }

      await migrateTo();

      const rows = await queryRows<{ description: string; minor: string; currency: string }>(
        sql`SELECT description, amount_minor::text AS minor, currency::text AS currency
            FROM event_fees ORDER BY description`,
        db,
      );
      const converted = Object.fromEntries(rows.map((r) => [r.description, Number(r.minor)]));
      expect(converted).toEqual({
        "1234.56": 123456,
        "0": 0,
        "99999999.99": 9999999999,
        "0.29": 29,
        "0.07": 7,
        "150": 15000,
        "19.99": 1999,
      });
      // The currency stays; the old column is gone.
      expect(rows.find((r) => r.description === "1234.56")?.currency).toBe("USD");
      expect(rows.find((r) => r.description === "0")?.currency).toBe("KES");
      const columns = await queryRows<{ column_name: string }>(
        sql`SELECT column_name FROM information_schema.columns
            WHERE table_name = 'event_fees' AND column_name LIKE 'amount%'`,
        db,
      );
      const names = columns.map((r) => r.column_name);
      expect(names).toEqual(["amount_minor"]);

      // The new currencies are usable once migrated, and the money CHECKs hold.
      await db.execute(sql`
        INSERT INTO event_fees (event_id, amount_minor, currency)
        VALUES ('00000000-0000-4000-8000-000000000001', 1500, 'UGX'),
               ('00000000-0000-4000-8000-000000000001', 9007199254740991, 'RWF')`);
      await expect(
        db.execute(sql`
          INSERT INTO event_fees (event_id, amount_minor)
          VALUES ('00000000-0000-4000-8000-000000000001', 9007199254740992)`),
      ).rejects.toThrow();
      await expect(
        db.execute(sql`
          INSERT INTO event_fees (event_id, amount_minor)
          VALUES ('00000000-0000-4000-8000-000000000001', -1)`),
      ).rejects.toThrow();
    });
  });
});
