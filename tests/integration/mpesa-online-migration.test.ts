import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { paymentReferenceOf } from "~/models/orders/orders.server";
import {
  MIGRATING_TIMEOUT,
  onDatabaseAt,
  removeMigrationCopies,
} from "../helpers/partial-migrations";

// Migration 0017 (issue 34) gives every invoice its short payment reference. Invoices issued
// before it get the same reference the application computes (paymentReferenceOf), unique and at
// most 12 characters; the column is then required.

const LAST_BEFORE = "0016_seat_cards";
afterAll(removeMigrationCopies);
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe("migration 0017: M-Pesa online", () => {
  it("backfills each earlier invoice's payment reference as the application computes it", {
    timeout: MIGRATING_TIMEOUT,
  }, async () => {
    await onDatabaseAt(LAST_BEFORE, async (db, migrateTo) => {
      const invoicesBefore: [number, number, number][] = [
        [1, 2026, 1],
        [2, 2027, 42],
        [3, 2027, 1_234_567], // a seven-digit sequence still fits
      ];
      for (const [n, year, sequence] of invoicesBefore) {
        await db.execute(sql`
          INSERT INTO orders (id, buyer_name, billing_email, currency, total_minor, expires_at)
          VALUES (${id(n)}, 'Old buyer', 'old@example.test', 'KES', 100, now())`);
        await db.execute(sql`
          INSERT INTO invoices (order_id, number, year, sequence)
          VALUES (${id(n)}, ${`INV-${year}-${String(sequence).padStart(6, "0")}`}, ${year}, ${sequence})`);
      }
      await migrateTo();
      const rows = await queryRows<{ year: number; sequence: number; payment_reference: string }>(
        sql`SELECT year, sequence, payment_reference FROM invoices ORDER BY sequence`,
        db,
      );
      expect(rows.map((r) => r.payment_reference)).toEqual(
        invoicesBefore.map(([, year, sequence]) => paymentReferenceOf(year, sequence)),
      );
      expect(rows.every((r) => r.payment_reference.length <= 12)).toBe(true);
      // Required and unique from now on.
      await expect(
        db
          .execute(sql`
          INSERT INTO orders (id, buyer_name, billing_email, currency, total_minor, expires_at)
          VALUES (${id(9)}, 'New', 'new@example.test', 'KES', 100, now())`)
          .then(() =>
            db.execute(sql`
            INSERT INTO invoices (order_id, number, year, sequence)
            VALUES (${id(9)}, 'INV-2027-000099', 2027, 99)`),
          ),
      ).rejects.toThrow();
      await expect(
        db.execute(sql`
          INSERT INTO invoices (order_id, number, year, sequence, payment_reference)
          VALUES (${id(9)}, 'INV-2027-000099', 2027, 99, ${rows[0].payment_reference})`),
      ).rejects.toThrow();
    });
  });
});
