import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import {
  MIGRATING_TIMEOUT,
  onDatabaseAt,
  removeMigrationCopies,
} from "../helpers/partial-migrations";

// Migration 0016 gives seat holders their own membership card (decision 0094): a database at
// 0015 with an accepted, a revoked-after-acceptance and a pending seat is migrated through 0016:
// the accepted seats get distinct card codes, the pending invitation none, and codes are unique.

const LAST_BEFORE = "0015_delegations_group_tickets";
const MIGRATION = "0016_seat_cards";
afterAll(removeMigrationCopies);

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe("migration 0016: seat cards", () => {
  it("gives every seat accepted before it a distinct card code, and none to invitations", {
    timeout: MIGRATING_TIMEOUT,
  }, async () => {
    await onDatabaseAt(LAST_BEFORE, async (db, migrateTo) => {
      await db.execute(sql`
        INSERT INTO "user" (id, full_name, email) VALUES ('u1', 'Contact', 'c@example.test'),
          ('u2', 'Seat One', 's1@example.test'), ('u3', 'Seat Two', 's2@example.test')`);
      await db.execute(sql`
        INSERT INTO memberships (id, user_id, plan, state, member_name, card_code)
        VALUES (${id(1)}, 'u1', 'corporate', 'active', 'Acme Ltd', 'card-1')`);
      const seats: [number, string, string | null, boolean, boolean][] = [
        [11, "s1@example.test", "u2", true, false],
        [12, "s2@example.test", "u3", true, true],
        [13, "invited@example.test", null, false, false],
      ];
      for (const [n, email, userId, accepted, revoked] of seats) {
        await db.execute(sql`
          INSERT INTO membership_seats (id, membership_id, email, token_hash, user_id,
                                        accepted_at, revoked_at)
          VALUES (${id(n)}, ${id(1)}, ${email}, ${`hash-${n}`}, ${userId},
                  ${accepted ? sql`now()` : null}, ${revoked ? sql`now()` : null})`);
      }

      await migrateTo(MIGRATION);

      const rows = await queryRows<{ id: string; card_code: string | null }>(
        sql`SELECT id, card_code FROM membership_seats ORDER BY id`,
        db,
      );
      expect(rows.map((r) => r.id)).toEqual([id(11), id(12), id(13)]);
      expect(rows[0].card_code).toMatch(/^[0-9a-f]{32}$/);
      expect(rows[1].card_code).toMatch(/^[0-9a-f]{32}$/);
      expect(rows[0].card_code).not.toBe(rows[1].card_code);
      expect(rows[2].card_code).toBeNull();
      await expect(
        db.execute(sql`UPDATE membership_seats SET card_code = ${rows[0].card_code}
                       WHERE id = ${id(13)}`),
      ).rejects.toThrow();
    });
  });
});
