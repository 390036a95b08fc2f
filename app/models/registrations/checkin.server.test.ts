import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, events, registrations, ticketCheckIns, user } from "~/db/schema";
import { DomainError } from "~/lib/lifecycle.server";
import type { Role } from "~/lib/roles";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import {
  checkInByCode as checkInByCodeAt,
  checkInTicket as checkInTicketAt,
  doorAt,
  eventDays,
  normaliseTicketCode,
  openCheckInNow,
  searchCheckInTickets,
  checkInTally as tallyOn,
} from "./checkin.server";
import { insertEvent, insertRegistration } from "./test-fixtures";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

// The fixture event runs 2027-03-01 09:00 to 2027-03-02 17:00 in Nairobi: the door is open at
// 10:00 on the first day (the clock is passed in, never waited for).
const DAY_ONE = new Date("2027-03-01T07:00:00Z");
const DAY_TWO = new Date("2027-03-02T06:30:00Z");
type Staff = { id: string; role: Role };
const checkInByCode = (eventId: string, code: string, actor: Staff, now = DAY_ONE) =>
  checkInByCodeAt(eventId, code, actor, now);
const checkInTicket = (eventId: string, ticketId: string, actor: Staff, now = DAY_ONE) =>
  checkInTicketAt(eventId, ticketId, actor, now);
const days = ["2027-03-01", "2027-03-02"];
async function checkInTally(eventId: string, day = "2027-03-01") {
  const { valid, checkedIn } = await tallyOn(eventId, days, day);
  return { valid, checkedIn };
}

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
    const rows = await database.db
      .select()
      .from(ticketCheckIns)
      .where(eq(ticketCheckIns.ticketId, ticket.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].day).toBe("2027-03-01");
    expect([staff.admin.id, staff.editor.id]).toContain(rows[0].checkedInBy);
    expect(audits[0].actorId).toBe(rows[0].checkedInBy);
  });

  it("answers a second scan with the time in the event's zone and who checked the ticket in", async () => {
    const event = await insertEvent(database.db, {
      timeZone: "America/Toronto",
      endDate: new Date("2027-03-01T22:00:00Z"),
    });
    const reg = await insertRegistration(database.db, { eventId: event.id, name: "Brian Kamau" });
    const first = await checkInByCode(
      event.id,
      reg.tickets[0].code,
      staff.editor,
      new Date("2027-03-01T14:00:00Z"),
    );
    expect(first.outcome).toBe("checked_in");
    expect(first.message).toBe("Checked in: Brian Kamau · Conference Only");
    // Pin the stored time to know what the message must say.
    await database.db
      .update(ticketCheckIns)
      .set({ checkedInAt: new Date("2027-03-01T14:05:00Z") })
      .where(eq(ticketCheckIns.ticketId, reg.tickets[0].id));
    const later = new Date("2027-03-01T15:00:00Z");
    const second = await checkInByCode(event.id, reg.tickets[0].code, staff.admin, later);
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
    expect(second.message).toBe(
      "Checked in: Group Lead · Conference Only · seat 2 of 3 · Mon, Mar 1",
    );
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
    const rows = await database.db
      .select()
      .from(ticketCheckIns)
      .where(eq(ticketCheckIns.eventId, event.id));
    expect(rows).toEqual([]);
    await expect(checkInByCode(event.id, "   ", staff.editor)).rejects.toThrow(DomainError);
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
    const admitted = await database.db
      .select()
      .from(ticketCheckIns)
      .where(eq(ticketCheckIns.ticketId, reg.tickets[0].id));
    // Either the scan came first (checked in, then cancelled) or it was refused: never both wrong.
    if (scan.outcome === "checked_in") expect(admitted).toHaveLength(1);
    else expect(admitted).toHaveLength(0);
    if (scan.outcome === "checked_in") expect(admitted[0].day).toBe("2027-03-01");
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
    const found = await searchCheckInTickets(event.id, "wanJIRU", "2027-03-01");
    expect(found.map((r) => [r.attendeeName, r.state])).toEqual([
      ["Wanjiru Mwangi", "confirmed"],
      ["Wanjiru Cancelled", "cancelled"],
    ]);
    expect(found[0].tickets.map((t) => [t.seat, t.checkedInBy])).toEqual([
      [1, "Edna Editor"],
      [2, null],
    ]);
    expect(
      (await searchCheckInTickets(event.id, "mwangi@", "2027-03-01")).map((r) => r.attendeeName),
    ).toEqual(["Wanjiru Mwangi"]);
    expect(await searchCheckInTickets(event.id, "%", "2027-03-01")).toEqual([]);
    // On the second day, nobody is admitted yet.
    const dayTwo = await searchCheckInTickets(event.id, "mwangi", "2027-03-02");
    expect(dayTwo[0].tickets.map((t) => t.checkedInBy)).toEqual([null, null]);
  });

  it("opens the door a set time before the start, refuses a scan 45 days early, and closes after the last day", async () => {
    const event = await insertEvent(database.db);
    const reg = await insertRegistration(database.db, { eventId: event.id, name: "Early Bird" });
    const early = await checkInByCode(
      event.id,
      reg.tickets[0].code,
      staff.editor,
      new Date("2027-01-15T07:00:00Z"),
    );
    // Opens two hours before the 9:00 start, in Nairobi's time.
    expect(early).toMatchObject({
      outcome: "refused",
      reason: "not_open",
      message: "Check-in opens at 7:00 AM on Mar 1, 2027.",
    });
    const justBefore = new Date("2027-03-01T03:59:00Z");
    expect(
      await checkInByCode(event.id, reg.tickets[0].code, staff.editor, justBefore),
    ).toMatchObject({ reason: "not_open" });
    const after = await checkInByCode(
      event.id,
      reg.tickets[0].code,
      staff.editor,
      new Date("2027-03-02T21:00:00Z"),
    );
    expect(after).toMatchObject({
      outcome: "refused",
      reason: "closed",
      message: "Check-in for this event closed at 12:00 AM on Mar 3, 2027.",
    });
    const admitted = await database.db
      .select()
      .from(ticketCheckIns)
      .where(eq(ticketCheckIns.eventId, event.id));
    expect(admitted).toEqual([]);
    const opensAt = new Date("2027-03-01T04:00:00Z");
    expect(
      (await checkInByCode(event.id, reg.tickets[0].code, staff.editor, opensAt)).outcome,
    ).toBe("checked_in");
  });

  it("lets an organiser open the door early, once, with an audit row", async () => {
    const event = await insertEvent(database.db);
    const reg = await insertRegistration(database.db, { eventId: event.id, name: "Setup Crew" });
    const eveningBefore = new Date("2027-02-28T15:00:00Z");
    await expect(openCheckInNow(event.id, staff.user, eveningBefore)).rejects.toMatchObject({
      status: 403,
    });
    expect(await openCheckInNow(event.id, staff.editor, eveningBefore)).toEqual({ opened: true });
    expect(await openCheckInNow(event.id, staff.admin, eveningBefore)).toEqual({ opened: false });
    const [row] = await database.db.select().from(events).where(eq(events.id, event.id));
    expect(row.checkInOpensAt?.toISOString()).toBe(eveningBefore.toISOString());
    const scan = await checkInByCode(event.id, reg.tickets[0].code, staff.editor, eveningBefore);
    // Admitted the evening before: it counts for the first day.
    expect(scan.outcome).toBe("checked_in");
    const [admission] = await database.db
      .select()
      .from(ticketCheckIns)
      .where(eq(ticketCheckIns.ticketId, reg.tickets[0].id));
    expect(admission.day).toBe("2027-03-01");
    const audits = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "event.check_in_opened"), eq(auditLog.entityId, event.id)));
    expect(audits).toHaveLength(1);
    const over = new Date("2027-03-04T08:00:00Z");
    await expect(openCheckInNow(event.id, staff.editor, over)).rejects.toMatchObject({
      status: 409,
    });
  });

  it("checks a multi-day pass in once per day and counts each day", async () => {
    const event = await insertEvent(database.db, {
      startDate: new Date("2027-03-01T06:00:00Z"),
      endDate: new Date("2027-03-03T14:00:00Z"),
    });
    const reg = await insertRegistration(database.db, { eventId: event.id, name: "Three Days" });
    const other = await insertRegistration(database.db, { eventId: event.id, name: "One Day" });
    const code = reg.tickets[0].code;
    expect((await checkInByCode(event.id, code, staff.editor, DAY_ONE)).outcome).toBe("checked_in");
    expect(await checkInByCode(event.id, code, staff.editor, DAY_ONE)).toMatchObject({
      outcome: "already",
    });
    expect(
      (await checkInByCode(event.id, code, staff.editor, DAY_ONE)).message.startsWith(
        "Already checked in today at",
      ),
    ).toBe(true);
    const secondDay = await checkInByCode(event.id, code, staff.editor, DAY_TWO);
    expect(secondDay).toMatchObject({
      outcome: "checked_in",
      message: "Checked in: Three Days · Conference Only · Tue, Mar 2",
    });
    expect(
      (await checkInByCode(event.id, other.tickets[0].code, staff.editor, DAY_TWO)).outcome,
    ).toBe("checked_in");
    const threeDays = eventDays({ ...event, checkInOpensAt: null });
    expect(threeDays).toEqual(["2027-03-01", "2027-03-02", "2027-03-03"]);
    const tally = await tallyOn(event.id, threeDays, doorAt(event, DAY_TWO).day);
    expect(tally).toMatchObject({ valid: 2, day: "2027-03-02", checkedIn: 2 });
    expect(tally.days.map((d) => [d.label, d.checkedIn])).toEqual([
      ["Mon, Mar 1", 1],
      ["Tue, Mar 2", 2],
      ["Wed, Mar 3", 0],
    ]);
  });
});
