import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { user, waitlistEntries } from "~/db/schema";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import {
  listEventRegistrations,
  REGISTRATIONS_PAGE_SIZE,
  registrationCounts,
  registrationFiltersFrom,
  registrationsCsv,
} from "./admin-queries.server";
import { checkInTicket } from "./checkin.server";
import { insertEvent, insertFee, insertRegistration } from "./test-fixtures";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

const HOUR = 3_600_000;

describe("organisers' registration queries", () => {
  const database = useTestDatabase();
  let editor: { id: string; role: "editor" };

  beforeAll(async () => {
    const id = randomUUID();
    await database.db
      .insert(user)
      .values({ id, name: "Edna Editor", email: `${id}@example.test`, role: "editor" });
    editor = { id, role: "editor" };
  });

  it("counts seats per ticket and capacity left as registration does: confirmed, held, offered", async () => {
    const event = await insertEvent(database.db, { capacity: 20 });
    const standard = await insertFee(database.db, event.id, { maxQuantity: 10 });
    const student = await insertFee(database.db, event.id, {
      feeType: "student",
      amountMinor: 1000,
      description: "With a student card",
    });
    const a = await insertRegistration(database.db, {
      eventId: event.id,
      feeId: standard.id,
      name: "A",
      quantity: 3,
    });
    await insertRegistration(database.db, {
      eventId: event.id,
      feeId: standard.id,
      name: "B",
      quantity: 2,
      state: "awaiting_payment",
      holdUntil: new Date(Date.now() + HOUR),
    });
    // A hold that ended still holds its seats until the expiry job closes the order, exactly as
    // registerForEvent counts them: the figures never promise a seat that cannot be had.
    await insertRegistration(database.db, {
      eventId: event.id,
      feeId: standard.id,
      name: "C",
      quantity: 4,
      state: "awaiting_payment",
      holdUntil: new Date(Date.now() - HOUR),
    });
    await insertRegistration(database.db, {
      eventId: event.id,
      feeId: standard.id,
      name: "D",
      quantity: 5,
      state: "cancelled",
    });
    await insertRegistration(database.db, { eventId: event.id, feeId: student.id, name: "E" });
    await database.db.insert(waitlistEntries).values([
      {
        eventId: event.id,
        feeId: standard.id,
        name: "F",
        email: "f@example.test",
        state: "offered",
        offeredAt: new Date(),
        offerExpiresAt: new Date(Date.now() + HOUR),
      },
      { eventId: event.id, feeId: standard.id, name: "G", email: "g@example.test" },
      { eventId: event.id, feeId: student.id, name: "H", email: "h@example.test" },
      { eventId: event.id, feeId: standard.id, name: "I", email: "i@example.test", state: "left" },
    ]);
    // At the door on the event's first day (the clock is passed in).
    await checkInTicket(event.id, a.tickets[0].id, editor, new Date("2027-03-01T07:00:00Z"));

    const listed = await listEventRegistrations(
      event.id,
      registrationFiltersFrom(new URLSearchParams("search=A&status=confirmed")),
    );
    expect(listed.rows.find((r) => r.attendeeName === "A")?.checkedIn).toBe(1);
    const csv = await registrationsCsv(event, { search: "", status: "confirmed" });
    expect(csv).toMatch(/"A","a@example.test","Conference Only","3","Confirmed",.*,"1","",""\r\n/);

    const counts = await registrationCounts(event.id);
    expect(counts.tickets).toEqual([
      {
        feeId: student.id,
        label: "Student Fee (With a student card)",
        maxQuantity: null,
        confirmed: 1,
        held: 0,
        offered: 0,
        left: null,
        waiting: 1,
        checkedIn: 0,
      },
      {
        feeId: standard.id,
        label: "Conference Only",
        maxQuantity: 10,
        confirmed: 3,
        held: 6,
        offered: 1,
        left: 0,
        waiting: 1,
        checkedIn: 1,
      },
    ]);
    expect(counts).toMatchObject({
      capacity: 20,
      taken: 11,
      capacityLeft: 9,
      waitlist: 2,
      byState: { confirmed: 2, awaiting_payment: 2, cancelled: 1, expired: 0 },
      checkedIn: 1,
      validTickets: 4,
    });
  });

  it("says no limit when the event has no capacity, and counts a free event without fees", async () => {
    const event = await insertEvent(database.db);
    await insertRegistration(database.db, { eventId: event.id, name: "Free Rider", quantity: 2 });
    const counts = await registrationCounts(event.id);
    expect(counts.capacity).toBeNull();
    expect(counts.capacityLeft).toBeNull();
    expect(counts.tickets).toMatchObject([{ label: "Free registration", confirmed: 2 }]);
  });

  it("searches by name or e-mail, filters by status and pages newest first", async () => {
    const event = await insertEvent(database.db);
    const start = Date.now() - 100 * HOUR;
    for (let i = 0; i < REGISTRATIONS_PAGE_SIZE + 5; i++) {
      await insertRegistration(database.db, {
        eventId: event.id,
        name: `Person ${String(i).padStart(2, "0")}`,
        createdAt: new Date(start + i * HOUR),
      });
    }
    await insertRegistration(database.db, {
      eventId: event.id,
      name: "Zawadi Njeri",
      email: "zawadi@records.example",
      state: "cancelled",
    });
    const all = await listEventRegistrations(
      event.id,
      registrationFiltersFrom(new URLSearchParams()),
    );
    expect(all.total).toBe(REGISTRATIONS_PAGE_SIZE + 6);
    expect(all.rows).toHaveLength(REGISTRATIONS_PAGE_SIZE);
    expect(all.rows[0].attendeeName).toBe("Zawadi Njeri");
    const page2 = await listEventRegistrations(
      event.id,
      registrationFiltersFrom(new URLSearchParams("page=2")),
    );
    expect(page2.rows.map((r) => r.attendeeName)).toEqual([
      "Person 05",
      "Person 04",
      "Person 03",
      "Person 02",
      "Person 01",
      "Person 00",
    ]);
    const byEmail = await listEventRegistrations(
      event.id,
      registrationFiltersFrom(new URLSearchParams("search=RECORDS.example")),
    );
    expect(byEmail.rows.map((r) => r.attendeeName)).toEqual(["Zawadi Njeri"]);
    const cancelled = await listEventRegistrations(
      event.id,
      registrationFiltersFrom(new URLSearchParams("status=cancelled&search=zawadi")),
    );
    expect(cancelled.total).toBe(1);
    const confirmedOnly = await listEventRegistrations(
      event.id,
      registrationFiltersFrom(new URLSearchParams("status=confirmed&search=zawadi")),
    );
    expect(confirmedOnly.total).toBe(0);
    // Nonsense in the URL is no filter, never an error.
    expect(registrationFiltersFrom(new URLSearchParams("status=nope&page=-3"))).toEqual({
      search: "",
      status: "all",
      page: 1,
    });
  });

  it("exports CSV that a spreadsheet cannot run as formulas", async () => {
    const event = await insertEvent(database.db, { timeZone: "Africa/Nairobi" });
    await insertRegistration(database.db, {
      eventId: event.id,
      name: '=HYPERLINK("http://evil.example","Click")',
      email: "+cmd@example.test",
      ticketLabel: "@SUM(A1:A9)",
      createdAt: new Date("2027-01-10T09:30:00Z"),
    });
    await insertRegistration(database.db, {
      eventId: event.id,
      name: "-2+3",
      email: "plain@example.test",
      ticketLabel: 'VIP "Gold"',
      createdAt: new Date("2027-01-11T09:30:00Z"),
    });
    const csv = await registrationsCsv(event, { search: "", status: "all" });
    const lines = csv
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe(
      '"Registration ID","Name","Email","Ticket","Seats","Status","Unit amount","Currency","Registered at","Confirmed at","Seats checked in","Cancelled at","Cancellation reason"',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(
      `"'=HYPERLINK(""http://evil.example"",""Click"")","'+cmd@example.test","'@SUM(A1:A9)","1","Confirmed","50.00","USD","2027-01-10T12:30:00+03:00"`,
    );
    expect(lines[2]).toContain(`"'-2+3","plain@example.test","VIP ""Gold"""`);
    const filtered = await registrationsCsv(event, { search: "plain@", status: "all" });
    expect(filtered.trimEnd().split("\r\n")).toHaveLength(2);
  });
});
