import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import {
  MIGRATING_TIMEOUT,
  onDatabaseAt,
  removeMigrationCopies,
} from "../helpers/partial-migrations";

// Migration 0015 (issue 30 item 1, decision 0093): fees and tickets admit N people (default 1),
// check-ins are numbered per ticket and day, and registrations get an optional booking id. A
// database at 0014 with a fee, a ticket and a check-in keeps them: each admits one person, the
// check-in is admission 1, and a second admission of a one-person ticket is still refused by the
// code (the index now allows numbered admissions).

const LAST_BEFORE = "0014_online_join_links";
afterAll(removeMigrationCopies);

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe("migration 0015: delegations and group tickets", () => {
  it("gives existing fees, tickets and check-ins one person each, and refuses admits below 1", {
    timeout: MIGRATING_TIMEOUT,
  }, async () => {
    await onDatabaseAt(LAST_BEFORE, async (db, migrateTo) => {
      await db.execute(sql`
        INSERT INTO events (id, title, slug, start_date, end_date, location, time_zone)
        VALUES (${id(1)}, 'Archives Week', 'archives-week', '2027-03-01T06:00:00Z',
                '2027-03-02T14:00:00Z', 'Nairobi, Kenya', 'Africa/Nairobi')`);
      await db.execute(sql`
        INSERT INTO event_fees (id, event_id, fee_type, amount_minor, currency)
        VALUES (${id(2)}, ${id(1)}, 'conference_only', 500000, 'KES')`);
      await db.execute(sql`
        INSERT INTO registrations (id, event_id, fee_id, ticket_label, attendee_name, attendee_email,
                                   quantity, state)
        VALUES (${id(3)}, ${id(1)}, ${id(2)}, 'Conference Only', 'Old Booking', 'old@example.test',
                1, 'confirmed')`);
      await db.execute(sql`
        INSERT INTO tickets (id, registration_id, event_id, seat, code)
        VALUES (${id(4)}, ${id(3)}, ${id(1)}, 1, 'old-code')`);
      await db.execute(sql`
        INSERT INTO ticket_check_ins (ticket_id, event_id, day)
        VALUES (${id(4)}, ${id(1)}, '2027-03-01')`);

      await migrateTo();

      const [fee] = await queryRows<{ admits: number }>(
        sql`SELECT admits FROM event_fees WHERE id = ${id(2)}`,
        db,
      );
      expect(fee.admits).toBe(1);
      const [ticket] = await queryRows<{ admits: number }>(
        sql`SELECT admits FROM tickets WHERE id = ${id(4)}`,
        db,
      );
      expect(ticket.admits).toBe(1);
      const [registration] = await queryRows<{ booking_id: string | null }>(
        sql`SELECT booking_id FROM registrations WHERE id = ${id(3)}`,
        db,
      );
      expect(registration.booking_id).toBeNull();
      const admissions = await queryRows<{ admission: number }>(
        sql`SELECT admission FROM ticket_check_ins WHERE ticket_id = ${id(4)}`,
        db,
      );
      expect(admissions).toEqual([{ admission: 1 }]);
      // The same admission number twice on a day is refused; the next number is the index's to allow.
      await expect(
        db.execute(sql`
          INSERT INTO ticket_check_ins (ticket_id, event_id, day, admission)
          VALUES (${id(4)}, ${id(1)}, '2027-03-01', 1)`),
      ).rejects.toThrow();
      await expect(
        db.execute(sql`UPDATE event_fees SET admits = 0 WHERE id = ${id(2)}`),
      ).rejects.toThrow();
      await expect(
        db.execute(sql`UPDATE tickets SET admits = 0 WHERE id = ${id(4)}`),
      ).rejects.toThrow();
    });
  });
});
