import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, registrations, tickets, user } from "~/db/schema";
import type { Role } from "~/lib/roles";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import {
  CheckInError,
  checkInByCode,
  checkInTally,
  checkInTicket,
  normaliseTicketCode,
  searchCheckInTickets,
} from "./checkin.server";
import { insertEvent, insertRegistration } from "./test-fixtures";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

describe("check-in at the door", () => {
  const database = useTestDatabase();
  const staff: Record<Role, { id: string; role: Role; name: string }> = {} as never;

  beforeAll(async () => {
    for (const [role, name] of [
      ["admin", "Ada Admin"],
      ["editor", "Edna Editor"],
      ["user", "Una User"],
    ] as const) {
      const id = randomUUID();
      await database.db.insert(user).values({ id, name, email: `${id}@example.test`, role });
      staff[role] = { id, role, name };
    }
  });

  it("records exactly one check-in when 20 scans of one ticket arrive at once", async () => {
    const event = await insertEvent(database.db);
    const reg = await insertRegistration(database.db, { eventId: event.id, name: "Amina Otieno" });
    const [ticket] = reg.tickets;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        checkInByCode(event.id, ticket.code, i % 2 ? staff.editor : staff.admin),
      ),
    );
    expect(results.filter((r) => r.outcome === "checked_in")).toHaveLength(1);
    expect(results.filter((r) => r.outcome === "already")).toHaveLength(19);
    const audits = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "ticket.check_in"), eq(auditLog.entityId, ticket.id)));
    expect(audits).toHaveLength(1);
    const [row] = await database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row.checkedInAt).not.toBeNull();
    expect([staff.admin.id, staff.editor.id]).toContain(row.checkedInBy);
    expect(audits[0].actorId).toBe(row.checkedInBy);
  });

  it("answers a second scan with the time in the event's zone and who checked the ticket in", async () => {
    const event = await insertEvent(database.db, { timeZone: "America/Toronto" });
    const reg = await insertRegistration(database.db, { eventId: event.id, name: "Brian Kamau" });
    const first = await checkInByCode(event.id, reg.tickets[0].code, staff.editor);
    expect(first.outcome).toBe("checked_in");
    expect(first.message).toBe("Checked in: Brian Kamau · Conference Only");
    // Pin the stored time to know what the message must say.
    await database.db
      .update(tickets)
      .set({ checkedInAt: new Date("2027-03-01T14:05:00Z") })
      .where(eq(tickets.id, reg.tickets[0].id));
    const second = await checkInByCode(event.id, reg.tickets[0].code, staff.admin);
    expect(second.outcome).toBe("already");
    // 14:05 UTC is 9:05 in Toronto (EST, UTC-5) on that day.
    expect(second.message).toBe("Already checked in at 9:05 AM on Mar 1, 2027 by Edna Editor");
  });

  it("checks in each seat of a group registration on its own", async () => {
    const event = await insertEvent(database.db);
    const reg = await insertRegistration(database.db, {
      eventId: event.id,
      name: "Group Lead",
      quantity: 3,
    });
    const second = await checkInTicket(event.id, reg.tickets[1].id, staff.editor);
    expect(second.message).toBe("Checked in: Group Lead · Conference Only · seat 2 of 3");
    expect((await checkInTicket(event.id, reg.tickets[0].id, staff.editor)).outcome).toBe(
      "checked_in",
    );
    expect((await checkInTicket(event.id, reg.tickets[1].id, staff.editor)).outcome).toBe(
      "already",
    );
    expect(await checkInTally(event.id)).toEqual({ valid: 3, checkedIn: 2 });
  });

  it("refuses unknown codes, another event's ticket, and tickets that are not valid", async () => {
    const event = await insertEvent(database.db);
    const other = await insertEvent(database.db, { title: "Archives Week 2027" });
    const elsewhere = await insertRegistration(database.db, { eventId: other.id, name: "Chen" });
    const cancelled = await insertRegistration(database.db, {
      eventId: event.id,
      name: "Dora",
      state: "cancelled",
    });
    const unpaid = await insertRegistration(database.db, {
      eventId: event.id,
      name: "Eli",
      state: "awaiting_payment",
      holdUntil: new Date(Date.now() + 3_600_000),
    });
    const expired = await insertRegistration(database.db, {
      eventId: event.id,
      name: "Faith",
      state: "expired",
    });

    const unknown = await checkInByCode(event.id, "not-a-real-code", staff.editor);
    expect(unknown).toMatchObject({ outcome: "refused", reason: "unknown" });
    expect(unknown.message).toBe("No ticket has this code. Check the code, or search by name.");
    const wrongEvent = await checkInByCode(event.id, elsewhere.tickets[0].code, staff.editor);
    expect(wrongEvent).toMatchObject({ outcome: "refused", reason: "other_event" });
    expect(wrongEvent.message).toBe("This ticket is for another event: Archives Week 2027.");
    expect(await checkInByCode(event.id, cancelled.tickets[0].code, staff.editor)).toMatchObject({
      outcome: "refused",
      reason: "cancelled",
      message: "This registration was cancelled: the ticket is not valid.",
    });
    expect(await checkInByCode(event.id, unpaid.tickets[0].code, staff.editor)).toMatchObject({
      reason: "unpaid",
    });
    expect(await checkInTicket(event.id, expired.tickets[0].id, staff.editor)).toMatchObject({
      reason: "expired",
    });
    expect(await checkInTicket(event.id, "../../etc", staff.editor)).toMatchObject({
      reason: "unknown",
    });
    // Nothing refused was recorded as checked in.
    const rows = await database.db.select().from(tickets).where(eq(tickets.eventId, event.id));
    expect(rows).toHaveLength(3);
    expect(rows.every((t) => t.checkedInAt === null)).toBe(true);
    await expect(checkInByCode(event.id, "   ", staff.editor)).rejects.toThrow(CheckInError);
  });

  it("never checks in a ticket whose registration is cancelled at the same moment", async () => {
    const event = await insertEvent(database.db);
    const reg = await insertRegistration(database.db, { eventId: event.id, name: "Racing" });
    const [scan] = await Promise.all([
      checkInByCode(event.id, reg.tickets[0].code, staff.editor),
      database.db
        .update(registrations)
        .set({ state: "cancelled", cancelledAt: new Date() })
        .where(eq(registrations.id, reg.id)),
    ]);
    const [ticket] = await database.db
      .select()
      .from(tickets)
      .where(eq(tickets.id, reg.tickets[0].id));
    // Either the scan came first (checked in, then cancelled) or it was refused: never both wrong.
    if (scan.outcome === "checked_in") expect(ticket.checkedInAt).not.toBeNull();
    else expect(scan).toMatchObject({ outcome: "refused", reason: "cancelled" });
  });

  it("refuses every ticket of a cancelled event", async () => {
    const event = await insertEvent(database.db, { cancelledAt: new Date() });
    const reg = await insertRegistration(database.db, { eventId: event.id, name: "Gita" });
    expect(await checkInByCode(event.id, reg.tickets[0].code, staff.admin)).toMatchObject({
      outcome: "refused",
      reason: "event_cancelled",
    });
  });

  it("lets only editors and admins check people in", async () => {
    const event = await insertEvent(database.db);
    const reg = await insertRegistration(database.db, { eventId: event.id, name: "Hassan" });
    await expect(checkInByCode(event.id, reg.tickets[0].code, staff.user)).rejects.toMatchObject({
      status: 403,
    });
    await expect(checkInTicket(event.id, reg.tickets[0].id, staff.user)).rejects.toMatchObject({
      status: 403,
    });
    expect(await checkInTally(event.id)).toEqual({ valid: 1, checkedIn: 0 });
  });

  it("reads codes as scanners and QR links deliver them", () => {
    expect(normaliseTicketCode("  AbC-123_xyz\r\n")).toBe("AbC-123_xyz");
    expect(normaliseTicketCode("https://kongamano.example/tickets/AbC-123_xyz")).toBe(
      "AbC-123_xyz",
    );
    expect(normaliseTicketCode("https://kongamano.example/t?code=AbC-123")).toBe("AbC-123");
  });

  it("finds people by part of their name or e-mail, confirmed first, with each seat", async () => {
    const event = await insertEvent(database.db);
    await insertRegistration(database.db, {
      eventId: event.id,
      name: "Wanjiru Cancelled",
      email: "wanjiru.c@example.test",
      state: "cancelled",
    });
    const reg = await insertRegistration(database.db, {
      eventId: event.id,
      name: "Wanjiru Mwangi",
      email: "w.mwangi@example.test",
      quantity: 2,
    });
    await checkInTicket(event.id, reg.tickets[0].id, staff.editor);
    const found = await searchCheckInTickets(event.id, "wanJIRU");
    expect(found.map((r) => [r.attendeeName, r.state])).toEqual([
      ["Wanjiru Mwangi", "confirmed"],
      ["Wanjiru Cancelled", "cancelled"],
    ]);
    expect(found[0].tickets.map((t) => [t.seat, t.checkedInBy])).toEqual([
      [1, "Edna Editor"],
      [2, null],
    ]);
    expect((await searchCheckInTickets(event.id, "mwangi@")).map((r) => r.attendeeName)).toEqual([
      "Wanjiru Mwangi",
    ]);
    expect(await searchCheckInTickets(event.id, "%")).toEqual([]);
  });
});
