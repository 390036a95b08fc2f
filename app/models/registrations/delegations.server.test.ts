import { randomUUID } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  eventFees,
  events,
  orderLines,
  orders,
  registrations,
  ticketCheckIns,
  tickets,
  user,
} from "~/db/schema";
import { setEnv } from "~/lib/env.server";
import { runDueJobs } from "~/models/jobs.server";
import { recordPayment } from "~/models/orders/orders.server";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { testEnv } from "../../../tests/helpers/env";
import { startTestSmtp } from "../../../tests/helpers/smtp";
import { bookSeats, MAX_SEATS_PER_BOOKING, quoteBooking } from "./bookings.server";
import { checkInByCode, checkInTally, searchCheckInTickets } from "./checkin.server";
import { getMyRegistration } from "./queries.server";
import { loadTicketOptions, RegistrationError } from "./registrations.server";
import { insertEvent, insertRegistration } from "./test-fixtures";

// Delegations (issue 30 item 1, decision 0093): several tickets in one order, a registration per
// seat naming its attendee, one order with a line per ticket, each attendee their own ticket mail.
wireProcess();

const DAY = 86_400_000;

describe("delegation orders", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;

  type Person = { id: string; name: string; email: string };
  async function people(n: number): Promise<Person[]> {
    const rows = Array.from({ length: n }, (_, i) => {
      const id = randomUUID();
      return { id, name: `Buyer ${i + 1}`, email: `b.${id.slice(0, 8)}@example.test` };
    });
    await database.db.insert(user).values(rows);
    return rows;
  }

  type FeeSpec = {
    amount: number;
    currency?: "KES" | "USD";
    maxQuantity?: number | null;
    maxPerOrder?: number;
    maxPerAccount?: number;
    admits?: number;
    saleStartsAt?: Date;
  };
  async function makeEvent(fees: FeeSpec[], capacity: number | null = null) {
    const start = new Date(Date.now() + 30 * DAY);
    const title = `Delegation test ${randomUUID().slice(0, 8)}`;
    const [event] = await database.db
      .insert(events)
      .values({
        title,
        slug: title.toLowerCase().replace(/\s+/g, "-"),
        location: "Nairobi, Kenya",
        startDate: start,
        endDate: new Date(start.getTime() + DAY),
        status: "published",
        capacity,
      })
      .returning();
    const rows = [];
    // One at a time: the tickets are listed cheapest first, then in the order they were made.
    for (const [i, f] of fees.entries()) {
      const [row] = await database.db
        .insert(eventFees)
        .values({
          eventId: event.id,
          feeType: (["conference_only", "full_board", "student"] as const)[i % 3],
          amountMinor: f.amount * 100,
          currency: f.currency ?? "KES",
          maxQuantity: f.maxQuantity ?? null,
          maxPerOrder: f.maxPerOrder ?? 10,
          maxPerAccount: f.maxPerAccount ?? 1,
          admits: f.admits ?? 1,
          saleStartsAt: f.saleStartsAt ?? null,
        })
        .returning();
      rows.push(row);
    }
    return { event, fees: rows };
  }

  const seat = (feeId: string | null, n: number, tag = "") => ({
    feeId,
    name: `Delegate ${tag}${n}`,
    email: `delegate.${tag}${n}.${randomUUID().slice(0, 6)}@example.test`,
  });

  async function drainJobs() {
    while ((await runDueJobs({ limit: 50 })) > 0) {}
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    setEnv(testEnv({ SMTP_URL: smtp.url }));
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("books several tickets in one order: a line per ticket, the server's total, a registration per seat", async () => {
    const { event, fees } = await makeEvent([{ amount: 0 }, { amount: 1_500 }, { amount: 4_000 }]);
    const [buyer] = await people(1);
    const seats = [
      { ...seat(fees[2].id, 1), name: buyer.name, email: buyer.email },
      seat(fees[2].id, 2),
      seat(fees[1].id, 3),
      seat(fees[0].id, 4),
    ];
    const result = await bookSeats({ eventId: event.id, account: buyer, seats });
    expect(result.state).toBe("awaiting_payment");
    expect(result.totalMinor).toBe((2 * 4_000 + 1_500) * 100);
    expect(result.currency).toBe("KES");
    const [order] = await database.db
      .select()
      .from(orders)
      .where(eq(orders.id, result.orderId as string));
    expect(order.totalMinor).toBe(result.totalMinor);
    const lines = await database.db
      .select({
        referenceId: orderLines.referenceId,
        quantity: orderLines.quantity,
        total: orderLines.lineTotalMinor,
      })
      .from(orderLines)
      .where(eq(orderLines.orderId, order.id))
      .orderBy(asc(orderLines.lineTotalMinor));
    expect(lines).toEqual([
      { referenceId: fees[1].id, quantity: 1, total: 1_500_00 },
      { referenceId: fees[2].id, quantity: 2, total: 8_000_00 },
    ]);
    const rows = await database.db
      .select()
      .from(registrations)
      .where(eq(registrations.bookingId, result.bookingId));
    expect(rows).toHaveLength(4);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const booked = result.registrationIds.map((id) => byId.get(id));
    expect(booked.map((r) => [r?.attendeeName, r?.attendeeEmail, r?.quantity])).toEqual(
      seats.map((s) => [s.name, s.email, 1]),
    );
    // The free seat is confirmed at once; the paid ones wait for the order.
    expect(booked.map((r) => r?.state)).toEqual([
      "awaiting_payment",
      "awaiting_payment",
      "awaiting_payment",
      "confirmed",
    ]);
    expect(booked.map((r) => r?.orderId)).toEqual([order.id, order.id, order.id, null]);
    // Cancelling one unpaid seat cancels its order: the ticket page's question counts the others.
    const page = await getMyRegistration(result.registrationIds[1], buyer.id);
    expect(page?.unpaidOrderSeats).toBe(3);

    // The buyer gets the invoice; nobody gets a paid seat's ticket before payment.
    await drainJobs();
    await smtp.waitFor(buyer.email, /Invoice .* from Kongamano/);
    await smtp.waitFor(seats[3].email, /You're registered/);
    for (const s of seats.slice(1, 3)) {
      expect(smtp.messages.filter((m) => m.to.includes(s.email))).toEqual([]);
    }

    await recordPayment(
      {
        method: "mpesa",
        reference: `QK${randomUUID().slice(0, 8)}`,
        amountMinor: order.totalMinor,
        currency: "KES",
        paidAt: new Date(),
        invoiceNumber: result.invoiceNumber as string,
      },
      { system: "test" },
    );
    await drainJobs();
    const after = await database.db
      .select({ state: registrations.state })
      .from(registrations)
      .where(eq(registrations.bookingId, result.bookingId));
    expect(after.every((r) => r.state === "confirmed")).toBe(true);
    // Each attendee: their own mail, with one QR code (their seat) and the calendar file.
    for (const s of seats) {
      const mail = await smtp.waitFor(s.email, /You're registered/);
      const qrs = mail.attachments.filter((a) => a.filename.endsWith(".png"));
      expect(qrs).toHaveLength(1);
      expect(mail.attachments.some((a) => a.filename === `${event.slug}.ics`)).toBe(true);
      const tickets = smtp.messages.filter(
        (m) => m.to.includes(s.email) && /You're registered/.test(m.subject),
      );
      expect(tickets).toHaveLength(1);
    }
    const codes = await database.db
      .select({ code: tickets.code })
      .from(tickets)
      .where(eq(tickets.eventId, event.id));
    expect(new Set(codes.map((c) => c.code)).size).toBe(4);
  });

  it("prices from the tickets on offer, never from the form, and one order is in one currency", async () => {
    const { event, fees } = await makeEvent([
      { amount: 10, currency: "USD" },
      { amount: 2_500, currency: "KES" },
    ]);
    const options = await loadTicketOptions(database.db, event, null);
    const quote = quoteBooking(options, [
      { feeId: fees[0].id },
      { feeId: fees[0].id },
      { feeId: fees[0].id },
    ]);
    expect(quote.totalMinor).toBe(3_000);
    expect(quote.currency).toBe("USD");
    expect(() => quoteBooking(options, [{ feeId: fees[0].id }, { feeId: fees[1].id }])).toThrow(
      /one currency/,
    );
    expect(() => quoteBooking(options, [{ feeId: randomUUID() }])).toThrow(
      "Choose a ticket that is on sale.",
    );
    const [buyer] = await people(1);
    await expect(
      bookSeats({
        eventId: event.id,
        account: buyer,
        seats: [seat(fees[0].id, 1), seat(fees[1].id, 2)],
      }),
    ).rejects.toThrow(/one currency/);
  });

  it("enforces each ticket's max per order, the seats per order, sale windows and stock", async () => {
    const later = new Date(Date.now() + 5 * DAY);
    const { event, fees } = await makeEvent([
      { amount: 0, maxPerOrder: 2 },
      { amount: 0, maxQuantity: 3, maxPerOrder: 10 },
      { amount: 0, saleStartsAt: later },
    ]);
    const [buyer] = await people(1);
    const book = (seats: ReturnType<typeof seat>[]) =>
      bookSeats({ eventId: event.id, account: buyer, seats });
    const refusal = async (seats: ReturnType<typeof seat>[]) => {
      const error = await book(seats).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RegistrationError);
      return error as RegistrationError;
    };
    const [a, b, c] = fees.map((f) => f.id);
    expect((await refusal([seat(a, 1), seat(a, 2), seat(a, 3)])).message).toMatch(
      /: at most 2 seats per order\.$/,
    );
    expect(
      (await refusal(Array.from({ length: MAX_SEATS_PER_BOOKING + 1 }, (_, i) => seat(b, i))))
        .message,
    ).toBe(`One order can have at most ${MAX_SEATS_PER_BOOKING} seats.`);
    expect((await refusal([seat(a, 1), seat(c, 2)])).message).toMatch(/: On sale from /);
    const short = await refusal([seat(b, 1), seat(b, 2), seat(b, 3), seat(b, 4)]);
    expect(short.message).toMatch(/: only 3 seats are left\.$/);
    expect(short.status).toBe(400);
    await expect(book([])).rejects.toThrow("Choose at least one seat.");
    // Nothing of a refused order was kept.
    const [count] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(registrations)
      .where(eq(registrations.eventId, event.id));
    expect(Number(count.n)).toBe(0);
    // Within the limits it books, and one booking counts once for the account's share.
    const ok = await book([seat(a, 1), seat(a, 2), seat(b, 3), seat(b, 4), seat(b, 5)]);
    expect(ok.state).toBe("confirmed");
    expect(ok.registrationIds).toHaveLength(5);
    const again = await refusal([seat(a, 6)]);
    expect(again.message).toMatch(/^You already have a registration for /);
    const [other] = await people(1);
    const soldOut = await bookSeats({
      eventId: event.id,
      account: other,
      seats: [seat(b, 7)],
    }).catch((e: unknown) => e as RegistrationError);
    expect(soldOut).toBeInstanceOf(RegistrationError);
    expect((soldOut as RegistrationError).code).toBe("full");
  });

  it("never oversells across tickets when many delegations book at once", async () => {
    const { event, fees } = await makeEvent(
      [{ amount: 0 }, { amount: 1_000, maxQuantity: 100 }],
      10,
    );
    const crowd = await people(30);
    const results = await Promise.allSettled(
      crowd.map((p, i) =>
        bookSeats({
          eventId: event.id,
          account: p,
          seats: [
            seat(fees[0].id, 1, `${i}-`),
            seat(fees[0].id, 2, `${i}-`),
            seat(fees[1].id, 3, `${i}-`),
          ],
        }),
      ),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(3); // 3 × 3 seats; a fourth delegation would need 12
    for (const r of results) {
      if (r.status === "rejected") expect(r.reason).toBeInstanceOf(RegistrationError);
    }
    const [held] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(registrations)
      .where(eq(registrations.eventId, event.id));
    expect(Number(held.n)).toBe(9);
    // The last seat is still there for one more person.
    const [late] = await people(1);
    await bookSeats({ eventId: event.id, account: late, seats: [seat(fees[0].id, 1)] });
    await expect(
      bookSeats({ eventId: event.id, account: crowd[29], seats: [seat(fees[0].id, 1, "x")] }),
    ).rejects.toThrow();
  });

  it("a group ticket takes the capacity of everyone it admits", async () => {
    const { event, fees } = await makeEvent([{ amount: 0, admits: 6 }, { amount: 0 }], 14);
    const [buyer, other] = await people(2);
    const group = await bookSeats({
      eventId: event.id,
      account: buyer,
      seats: [seat(fees[0].id, 1), seat(fees[0].id, 2)],
    });
    const issued = await database.db
      .select({ admits: tickets.admits })
      .from(tickets)
      .where(eq(tickets.eventId, event.id));
    expect(issued.map((t) => t.admits)).toEqual([6, 6]);
    // 12 of 14 places taken: no third group, but two single seats.
    await expect(
      bookSeats({ eventId: event.id, account: other, seats: [seat(fees[0].id, 3)] }),
    ).rejects.toThrow(/sold out/);
    await bookSeats({
      eventId: event.id,
      account: other,
      seats: [seat(fees[1].id, 4), seat(fees[1].id, 5)],
    });
    expect(group.registrationIds).toHaveLength(2);
  });

  it("lets the attendee named open their own ticket page with their verified address; only the buyer may cancel", async () => {
    const { event, fees } = await makeEvent([{ amount: 0 }]);
    const [buyer] = await people(1);
    const delegateId = randomUUID();
    const delegate = {
      id: delegateId,
      name: "Wanjiru Kamau",
      email: `w.${delegateId.slice(0, 8)}@example.test`,
    };
    await database.db.insert(user).values({ ...delegate, emailVerified: true });
    const result = await bookSeats({
      eventId: event.id,
      account: buyer,
      seats: [
        { feeId: fees[0].id, name: buyer.name, email: buyer.email },
        { feeId: fees[0].id, name: delegate.name, email: delegate.email.toUpperCase() },
      ],
    });
    const [mine, theirs] = result.registrationIds;
    const asDelegate = await getMyRegistration(theirs, delegate.id);
    expect(asDelegate?.registration.attendeeName).toBe("Wanjiru Kamau");
    expect(asDelegate?.tickets).toHaveLength(1);
    expect(asDelegate?.mayCancel).toBe(false);
    expect(await getMyRegistration(mine, delegate.id)).toBeNull();
    expect((await getMyRegistration(theirs, buyer.id))?.mayCancel).toBe(true);
    // An unverified account with the address sees nothing.
    await database.db.update(user).set({ emailVerified: false }).where(eq(user.id, delegate.id));
    expect(await getMyRegistration(theirs, delegate.id)).toBeNull();
  });
});

// Group tickets at the door: one QR admits its stated number of people per event day.
describe("group tickets at check-in", () => {
  const database = useTestDatabase();
  const DAY_ONE = new Date("2027-03-01T07:00:00Z");
  const DAY_TWO = new Date("2027-03-02T06:30:00Z");
  let staff: { id: string; role: "editor" };

  beforeAll(async () => {
    const id = randomUUID();
    await database.db
      .insert(user)
      .values({ id, name: "Door Editor", email: `${id}@example.test`, role: "editor" });
    staff = { id, role: "editor" };
  });

  async function groupTicket(admits: number) {
    const event = await insertEvent(database.db);
    const reg = await insertRegistration(database.db, {
      eventId: event.id,
      name: "Nairobi Archives Delegation",
      ticketLabel: "Group (up to six)",
    });
    await database.db.update(tickets).set({ admits }).where(eq(tickets.id, reg.tickets[0].id));
    return { event, reg, ticket: reg.tickets[0] };
  }

  it("admits a group ticket up to its number per day, says how many are in, and refuses the next", async () => {
    const { event, ticket } = await groupTicket(6);
    const messages = [];
    for (let i = 0; i < 6; i++) {
      const r = await checkInByCode(event.id, ticket.code, staff, DAY_ONE);
      expect(r.outcome).toBe("checked_in");
      messages.push(r.message);
    }
    expect(messages[1]).toContain("Admits 6 — 2 of 6 in");
    expect(messages[5]).toContain("Admits 6 — 6 of 6 in");
    const seventh = await checkInByCode(event.id, ticket.code, staff, DAY_ONE);
    expect(seventh.outcome).toBe("already");
    expect(seventh.message).toMatch(
      /^All 6 people on this group ticket are already in today \(Admits 6 — 6 of 6 in\); the last at /,
    );
    // The next day the group comes in again.
    const dayTwo = await checkInByCode(event.id, ticket.code, staff, DAY_TWO);
    expect(dayTwo.outcome).toBe("checked_in");
    expect(dayTwo.message).toContain("Admits 6 — 1 of 6 in");
    // The door counts people: 6 on day one out of the 6 the ticket admits.
    const tally = await checkInTally(event.id, ["2027-03-01", "2027-03-02"], "2027-03-01");
    expect(tally.valid).toBe(6);
    expect(tally.checkedIn).toBe(6);
    const [found] = await searchCheckInTickets(event.id, "Nairobi Archives", "2027-03-02");
    expect(found.tickets).toEqual([
      expect.objectContaining({ id: ticket.id, admits: 6, admitted: 1 }),
    ]);
  });

  it("records exactly N admissions when many scans of one group ticket arrive at once", async () => {
    const { event, ticket } = await groupTicket(4);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => checkInByCode(event.id, ticket.code, staff, DAY_ONE)),
    );
    expect(results.filter((r) => r.outcome === "checked_in")).toHaveLength(4);
    expect(results.filter((r) => r.outcome === "already")).toHaveLength(8);
    const rows = await database.db
      .select({ admission: ticketCheckIns.admission })
      .from(ticketCheckIns)
      .where(and(eq(ticketCheckIns.ticketId, ticket.id), eq(ticketCheckIns.day, "2027-03-01")))
      .orderBy(asc(ticketCheckIns.admission));
    expect(rows.map((r) => r.admission)).toEqual([1, 2, 3, 4]);
  });

  it("a ticket admitting one person is checked in once per day, as before", async () => {
    const { event, ticket } = await groupTicket(1);
    expect((await checkInByCode(event.id, ticket.code, staff, DAY_ONE)).outcome).toBe("checked_in");
    const again = await checkInByCode(event.id, ticket.code, staff, DAY_ONE);
    expect(again.outcome).toBe("already");
    expect(again.message).toMatch(/^Already checked in today at /);
  });
});
