import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import {
  MIGRATING_TIMEOUT,
  onDatabaseAt,
  removeMigrationCopies,
} from "../helpers/partial-migrations";

// Migration 0012 gives payments their states and refunded totals and links each refund to its
// payment (decision 0087). A database migrated to 0011 is given orders, payments and refunds as
// the old schema held them, then migrated through 0012: a refund of an order with one payment
// names it, each payment's refunded total and state follow from its refunds, and an order with
// two payments keeps its refunds unlinked (which payment gave the money back is not known).

const LAST_BEFORE = "0011_fee_minor_units";
const MIGRATION = "0012_payment_states_fee_sale_start";
afterAll(removeMigrationCopies);

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe("migration 0012: payment states and refunds linked to their payment", () => {
  it("backfills refunds to an order's single payment, computes refunded totals and states, and its CHECKs hold", {
    timeout: MIGRATING_TIMEOUT,
  }, async () => {
    await onDatabaseAt(LAST_BEFORE, async (db, migrateTo) => {
      // Orders: 1 part refunded, 2 fully refunded, 3 with two payments and a refund, 4 no refund.
      const orderRows: [number, string, number, number, number][] = [
        [1, "paid", 100_00, 100_00, 50_00],
        [2, "refunded", 50_00, 50_00, 50_00],
        [3, "paid", 100_00, 100_00, 10_00],
        [4, "paid", 70_00, 70_00, 0],
      ];
      for (const [n, state, total, paid, refunded] of orderRows) {
        await db.execute(sql`
          INSERT INTO orders (id, buyer_name, billing_email, currency, total_minor, paid_minor,
                              refunded_minor, state, expires_at)
          VALUES (${id(n)}, 'Old buyer', 'old@example.test', 'KES', ${total}, ${paid},
                  ${refunded}, ${state}::order_state, now())`);
      }
      const paymentRows: [number, number | null, number][] = [
        [11, 1, 100_00],
        [12, 2, 50_00],
        [13, 3, 40_00],
        [14, 3, 60_00],
        [15, 4, 70_00],
        [16, null, 25_00], // matches no invoice
      ];
      for (const [n, order, amount] of paymentRows) {
        await db.execute(sql`
          INSERT INTO payments (id, order_id, method, reference, amount_minor, currency, paid_at)
          VALUES (${id(n)}, ${order === null ? null : id(order)}, 'mpesa', ${`OLD${n}`},
                  ${amount}, 'KES', now())`);
      }
      const refundRows: [number, number, number][] = [
        [21, 1, 30_00],
        [22, 1, 20_00],
        [23, 2, 50_00],
        [24, 3, 10_00],
      ];
      for (const [[n, order, amount], sequence] of refundRows.map((r, i) => [r, i + 1] as const)) {
        await db.execute(sql`
          INSERT INTO refunds (id, order_id, amount_minor, currency, method, reference,
                               credit_note_number, year, sequence)
          VALUES (${id(n)}, ${id(order)}, ${amount}, 'KES', 'mpesa', ${`REV${n}`},
                  ${`CN-2026-${String(sequence).padStart(6, "0")}`}, 2026, ${sequence})`);
      }

      await migrateTo(MIGRATION);

      const refunds = await queryRows<{ id: string; payment_id: string | null }>(
        sql`SELECT id, payment_id FROM refunds ORDER BY id`,
        db,
      );
      expect(refunds).toEqual([
        { id: id(21), payment_id: id(11) },
        { id: id(22), payment_id: id(11) },
        { id: id(23), payment_id: id(12) },
        { id: id(24), payment_id: null },
      ]);
      const payments = await queryRows<{
        id: string;
        state: string;
        refunded: string;
        received: string | null;
      }>(
        sql`SELECT id, state::text AS state, refunded_minor::text AS refunded,
                   received_minor::text AS received
            FROM payments ORDER BY id`,
        db,
      );
      expect(payments).toEqual([
        { id: id(11), state: "partly_refunded", refunded: "5000", received: null },
        { id: id(12), state: "refunded", refunded: "5000", received: null },
        { id: id(13), state: "recorded", refunded: "0", received: null },
        { id: id(14), state: "recorded", refunded: "0", received: null },
        { id: id(15), state: "recorded", refunded: "0", received: null },
        { id: id(16), state: "recorded", refunded: "0", received: null },
      ]);
      // The orders' own totals and states are untouched.
      const orders = await queryRows<{ state: string; refunded: string }>(
        sql`SELECT state::text AS state, refunded_minor::text AS refunded FROM orders ORDER BY id`,
        db,
      );
      expect(orders).toEqual([
        { state: "paid", refunded: "5000" },
        { state: "refunded", refunded: "5000" },
        { state: "paid", refunded: "1000" },
        { state: "paid", refunded: "0" },
      ]);

      // CHECKs: a payment never refunds more than it paid, nor less than nothing.
      await expect(
        db.execute(sql`UPDATE payments SET refunded_minor = 10001 WHERE id = ${id(11)}`),
      ).rejects.toThrow();
      await expect(
        db.execute(sql`UPDATE payments SET refunded_minor = -1 WHERE id = ${id(15)}`),
      ).rejects.toThrow();
      // What arrived is recorded with its currency and rate, all three or none, and positive.
      const received = (minor: string, currency: string, rate: string) =>
        db.execute(sql`
          UPDATE payments SET received_minor = ${minor === "null" ? null : minor}::bigint,
                 received_currency = ${currency === "null" ? null : currency}::currency,
                 exchange_rate = ${rate === "null" ? null : rate}
          WHERE id = ${id(15)}`);
      await expect(received("910000", "null", "null")).rejects.toThrow();
      await expect(received("910000", "KES", "null")).rejects.toThrow();
      await expect(received("null", "KES", "130")).rejects.toThrow();
      await expect(received("0", "KES", "130")).rejects.toThrow();
      await expect(received("9007199254740992", "KES", "130")).rejects.toThrow();
      await received("910000", "KES", "130");
      const [kept] = await queryRows<{ received: string; rate: string }>(
        sql`SELECT received_minor::text AS received, exchange_rate AS rate
            FROM payments WHERE id = ${id(15)}`,
        db,
      );
      expect(kept).toEqual({ received: "910000", rate: "130" });
      // A refund names an existing payment only.
      await expect(
        db.execute(sql`UPDATE refunds SET payment_id = ${id(99)} WHERE id = ${id(24)}`),
      ).rejects.toThrow();
    });
  });
});
