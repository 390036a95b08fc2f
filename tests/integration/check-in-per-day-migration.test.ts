import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import {
  emptyDatabase,
  migrateWith,
  migrationsUpTo,
  removeMigrationCopies,
} from "../helpers/partial-migrations";

// Migration 0013 moves check-ins from tickets.checked_in_at to ticket_check_ins, one row per
// ticket per event day (decision 0089). A database at 0012 is given tickets checked in as the old
// schema held them; each must become an admission on the day it happened in the event's zone.

const LAST_BEFORE = "0012_payment_states_fee_sale_start";
afterAll(removeMigrationCopies);
const MIGRATING_TIMEOUT = 180_000;

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe("migration 0013: check-ins per event day", () => {
  it("keeps every earlier check-in as the admission for its day in the event's zone", {
    timeout: MIGRATING_TIMEOUT,
  }, async () => {
    const handle = await emptyDatabase();
    try {
      await migrateWith(handle, migrationsUpTo(LAST_BEFORE));
      const { db } = handle;
      await db.execute(sql`
        INSERT INTO "user" (id, full_name, email) VALUES ('door-staff', 'Door Staff', 'door@example.test')`);
      await db.execute(sql`
        INSERT INTO events (id, title, slug, start_date, end_date, location, time_zone)
        VALUES (${id(1)}, 'Toronto Records Forum', 'toronto-records-forum',
                '2027-03-01T14:00:00Z', '2027-03-02T22:00:00Z', 'Toronto, Canada', 'America/Toronto')`);
      await db.execute(sql`
        INSERT INTO registrations (id, event_id, ticket_label, attendee_name, attendee_email,
                                   quantity, state)
        VALUES (${id(2)}, ${id(1)}, 'Conference Only', 'Old Scan', 'old@example.test', 3,
                'confirmed')`);
      // Seat 1: 02:30 UTC on Mar 2 is still the evening of Mar 1 in Toronto; seat 2: Mar 2
      // morning; seat 3: never checked in.
      const seats: [number, string | null][] = [
        [1, "2027-03-02T02:30:00Z"],
        [2, "2027-03-02T14:10:00Z"],
        [3, null],
      ];
      for (const [seat, at] of seats) {
        await db.execute(sql`
          INSERT INTO tickets (id, registration_id, event_id, seat, code, checked_in_at, checked_in_by)
          VALUES (${id(10 + seat)}, ${id(2)}, ${id(1)}, ${seat}, ${`code-${seat}`},
                  ${at}::timestamptz, ${at ? "door-staff" : null})`);
      }

      await migrateWith(handle, undefined);

      const rows = await queryRows<{ ticket_id: string; day: string; at: string; by: string }>(
        sql`SELECT ticket_id, day::text AS day, to_char(checked_in_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS at,
                   checked_in_by AS by
            FROM ticket_check_ins ORDER BY ticket_id`,
        db,
      );
      expect(rows).toEqual([
        { ticket_id: id(11), day: "2027-03-01", at: "2027-03-02T02:30", by: "door-staff" },
        { ticket_id: id(12), day: "2027-03-02", at: "2027-03-02T14:10", by: "door-staff" },
      ]);
      const columns = await queryRows<{ column_name: string }>(
        sql`SELECT column_name FROM information_schema.columns
            WHERE table_name = 'tickets' AND column_name LIKE 'checked_in%'`,
        db,
      );
      expect(columns).toEqual([]);
      // One admission per ticket per day: a second row for the same day is refused.
      await expect(
        db.execute(sql`
          INSERT INTO ticket_check_ins (ticket_id, event_id, day)
          VALUES (${id(11)}, ${id(1)}, '2027-03-01')`),
      ).rejects.toThrow();
    } finally {
      await handle.close();
    }
  });
});
