import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/helpers/db";
import { alongside } from "./alongside";
import type { DatabaseHandle } from "./client.server";
import { auditLog, eventFees, events, jobs } from "./schema";

// Writes carried by a statement (decision 0120), on PGlite and, in CI's second pass, PostgreSQL.
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

const event = (title: string) => ({
  id: randomUUID(),
  title,
  slug: title.toLowerCase().replaceAll(" ", "-"),
  location: "Nairobi, Kenya",
  startDate: new Date("2027-03-01T06:00:00Z"),
  endDate: new Date("2027-03-02T15:00:00Z"),
});

describe("alongside", () => {
  it("writes the carried rows with the statement, even one naming the row it inserts", async () => {
    const summit = event("Records Summit");
    const [inserted] = await alongside(handle.db, [
      // The fee names the event the carrying statement inserts (checked at the statement's end).
      handle.db.insert(eventFees).values({ eventId: summit.id, amountMinor: 25_000 }),
      handle.db.insert(jobs).values({ kind: "test.carried", uniqueKey: `carried:${summit.id}` }),
      handle.db.insert(auditLog).values({ action: "event.create", entityId: summit.id }),
    ])
      .insert(events)
      .values(summit)
      .returning();
    // The carrying statement's own rows come back mapped as Drizzle maps them.
    expect(inserted).toMatchObject({ id: summit.id, title: "Records Summit" });
    expect(inserted.startDate).toEqual(summit.startDate);
    const fees = await handle.db.select().from(eventFees).where(eq(eventFees.eventId, summit.id));
    expect(fees.map((f) => f.amountMinor)).toEqual([25_000]);
    expect(
      await handle.db
        .select()
        .from(jobs)
        .where(eq(jobs.uniqueKey, `carried:${summit.id}`)),
    ).toHaveLength(1);
    expect(
      await handle.db.select().from(auditLog).where(eq(auditLog.entityId, summit.id)),
    ).toHaveLength(1);
  });

  it("carries writes with an update, and writes none of them when the statement fails", async () => {
    const first = event("Archives Week");
    await handle.db.insert(events).values(first);
    const [moved] = await alongside(handle.db, [
      handle.db.insert(auditLog).values({ action: "event.rename", entityId: first.id }),
    ])
      .update(events)
      .set({ location: "Mombasa, Kenya" })
      .where(eq(events.id, first.id))
      .returning();
    expect(moved.location).toBe("Mombasa, Kenya");
    expect(
      await handle.db.select().from(auditLog).where(eq(auditLog.entityId, first.id)),
    ).toHaveLength(1);

    // A second event with the same title breaks a unique constraint: its carried rows go too.
    const clash = { ...event("Archives Week"), slug: "archives-week-again" };
    const failed = await alongside(handle.db, [
      handle.db.insert(eventFees).values({ eventId: clash.id, amountMinor: 1_000 }),
      handle.db.insert(auditLog).values({ action: "event.create", entityId: clash.id }),
    ])
      .insert(events)
      .values(clash)
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(await handle.db.select().from(auditLog).where(eq(auditLog.entityId, clash.id))).toEqual(
      [],
    );
    expect(await handle.db.select().from(eventFees).where(eq(eventFees.eventId, clash.id))).toEqual(
      [],
    );
  });
});
