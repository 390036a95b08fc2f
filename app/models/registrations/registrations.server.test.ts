import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  eventFees,
  events,
  orders,
  registrations,
  tickets,
  user,
  waitlistEntries,
} from "~/db/schema";
import { CLIENT_IP_HEADER } from "~/lib/auth.server";
import { setEnv } from "~/lib/env.server";
import { runDueJobs } from "~/models/jobs.server";
import {
  expireOrder,
  PART_PAID_CANCEL_MESSAGE,
  recordPayment,
} from "~/models/orders/orders.server";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { testEnv } from "../../../tests/helpers/env";
import { startTestSmtp } from "../../../tests/helpers/smtp";
import { getRegistrationPage, listMyRegistrations } from "./queries.server";
import {
  cancelRegistration,
  enqueueDueReminders,
  expireWaitlistOffer,
  joinWaitlist,
  limitRegistrationActions,
  lockEvent,
  lockSeats,
  MAX_OTHER_ATTENDEE_EMAILS,
  MAX_UNPAID_HOLDS_PER_ACCOUNT,
  notifyEventChange,
  REGISTRATION_RATE_LIMIT,
  REPEAT_HOLD_MINUTES,
  RegistrationError,
  readEventAndTickets,
  registerForEvent,
  WAITLIST_MAX_SKIPS,
} from "./registrations.server";
import { seatsTaken } from "./test-fixtures";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

const DAY = 86_400_000;

describe("event registration", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;

  type Person = { id: string; name: string; email: string };
  async function people(n: number, role: "user" | "editor" = "user"): Promise<Person[]> {
    const rows = Array.from({ length: n }, (_, i) => {
      const id = randomUUID();
      return { id, name: `Attendee ${i + 1}`, email: `a.${id.slice(0, 8)}@example.test`, role };
    });
    await database.db.insert(user).values(rows);
    return rows;
  }

  async function makeEvent(
    options: {
      capacity?: number | null;
      fees?: {
        amount: number;
        maxQuantity?: number | null;
        currency?: "KES" | "USD";
        maxPerOrder?: number;
        maxPerAccount?: number;
      }[];
      startInDays?: number;
      cancelled?: boolean;
    } = {},
  ) {
    const start = new Date(Date.now() + (options.startInDays ?? 30) * DAY);
    const title = `Registration test ${randomUUID().slice(0, 8)}`;
    const [event] = await database.db
      .insert(events)
      .values({
        title,
        slug: title.toLowerCase().replace(/\s+/g, "-"),
        location: "Nairobi, Kenya",
        startDate: start,
        endDate: new Date(start.getTime() + DAY),
        status: "published",
        capacity: options.capacity ?? null,
        cancelledAt: options.cancelled ? new Date() : null,
      })
      .returning();
    const fees = options.fees?.length
      ? await database.db
          .insert(eventFees)
          .values(
            options.fees.map((f) => ({
              eventId: event.id,
              amountMinor: f.amount * 100, // whole KES in the tests, stored in cents
              currency: f.currency ?? "KES",
              maxQuantity: f.maxQuantity ?? null,
              ...(f.maxPerOrder ? { maxPerOrder: f.maxPerOrder } : {}),
              ...(f.maxPerAccount ? { maxPerAccount: f.maxPerAccount } : {}),
            })),
          )
          .returning()
      : [];
    return { event, fees };
  }

  const register = (
    eventId: string,
    person: Person,
    feeId: string | null,
    quantity = 1,
    offerId?: string,
  ) =>
    registerForEvent({
      eventId,
      feeId,
      quantity,
      account: person,
      attendee: { name: person.name, email: person.email },
      offerId,
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

  it("sells exactly the last 10 seats of a ticket to 100 parallel registrations", async () => {
    const { event, fees } = await makeEvent({ fees: [{ amount: 0, maxQuantity: 15 }] });
    for (const p of await people(5)) await register(event.id, p, fees[0].id);
    const crowd = await people(100);
    const results = await Promise.allSettled(crowd.map((p) => register(event.id, p, fees[0].id)));
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(10);
    for (const r of results) {
      if (r.status === "rejected") {
        expect(r.reason).toBeInstanceOf(RegistrationError);
        expect((r.reason as RegistrationError).code).toBe("full");
      }
    }
    expect(await seatsTaken(database.db, event.id)).toBe(15);
    const [ticketCount] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(tickets)
      .where(eq(tickets.eventId, event.id));
    expect(Number(ticketCount.n)).toBe(15);
  });

  // Seat locks per quota (decision 0117). A transaction held open on another connection shows who
  // waits for whom: PostgreSQL only (PGlite runs one transaction at a time).
  async function holdOpen(
    lock: (tx: Parameters<Parameters<typeof database.db.transaction>[0]>[0]) => Promise<unknown>,
  ) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let taken!: () => void;
    const isTaken = new Promise<void>((resolve) => {
      taken = resolve;
    });
    const done = database.db.transaction(async (tx) => {
      await lock(tx);
      taken();
      await released;
    });
    await isTaken;
    return async () => {
      release();
      await done;
    };
  }
  /** Resolves once `n` sessions wait for an advisory lock (bounded: fails after 10 s). */
  async function waitersOnSeatLocks(n: number) {
    for (const started = Date.now(); Date.now() - started < 10_000; ) {
      const result = await database.db.execute(
        sql`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
      );
      const waiting = (result as unknown as { rows: Array<{ n: number }> }).rows[0].n;
      if (waiting >= n) return waiting;
      await new Promise((resolve) => setImmediate(resolve));
    }
    throw new Error(`fewer than ${n} sessions waited for a seat lock`);
  }

  it.runIf(process.env.TEST_DATABASE_URL)(
    "locks per quota: a ticket with its own stock sells while another ticket's count is locked; that one waits",
    async () => {
      const { event, fees } = await makeEvent({
        fees: [
          { amount: 0, maxQuantity: 50 },
          { amount: 0, maxQuantity: 50 },
        ],
      });
      const [first, second] = await people(2);
      const release = await holdOpen(async (tx) =>
        lockSeats(tx, (await readEventAndTickets(tx, event.id, null)).event, [
          { feeId: fees[0].id, stock: 50 },
        ]),
      );
      // The other ticket's quota is free: its booking goes through at once.
      expect((await register(event.id, first, fees[1].id)).state).toBe("confirmed");
      // This ticket's booking writes, then waits for the count.
      let settled = false;
      const waiting = register(event.id, second, fees[0].id).finally(() => {
        settled = true;
      });
      expect(await waitersOnSeatLocks(1)).toBe(1);
      expect(settled).toBe(false);
      await release();
      expect((await waiting).state).toBe("confirmed");
      expect(await seatsTaken(database.db, event.id)).toBe(2);
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    "locks per quota: with an overall capacity every ticket counts under one lock, and a change to the event's seats waits for no booking to be counting",
    async () => {
      const { event, fees } = await makeEvent({
        capacity: 10,
        fees: [{ amount: 0 }, { amount: 0 }],
      });
      const [first, second, third] = await people(3);
      // The capacity is what both tickets share: a booking of either waits for its count.
      const releaseCapacity = await holdOpen(async (tx) =>
        lockSeats(tx, (await readEventAndTickets(tx, event.id, null)).event, [
          { feeId: fees[0].id, stock: null },
        ]),
      );
      const both = [register(event.id, first, fees[0].id), register(event.id, second, fees[1].id)];
      expect(await waitersOnSeatLocks(2)).toBe(2);
      await releaseCapacity();
      for (const booked of await Promise.all(both)) expect(booked.state).toBe("confirmed");
      // A cancellation, an expiry or a waitlist offer locks the whole event: bookings wait for it.
      const releaseEvent = await holdOpen((tx) => lockEvent(tx, event.id));
      const thirdBooking = register(event.id, third, fees[1].id);
      expect(await waitersOnSeatLocks(1)).toBe(1);
      await releaseEvent();
      expect((await thirdBooking).state).toBe("confirmed");
      expect(await seatsTaken(database.db, event.id)).toBe(3);
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    "locks per quota: a capacity set while a booking was under way is tried, not waited for",
    async () => {
      const { event, fees } = await makeEvent({ fees: [{ amount: 0 }] });
      const ticket = [{ feeId: fees[0].id, stock: null }];
      // The booking read the event before the organiser gave it a capacity of 10.
      const seenBefore = await database.db.transaction(
        async (tx) => (await readEventAndTickets(tx, event.id, null)).event,
      );
      await database.db.update(events).set({ capacity: 10 }).where(eq(events.id, event.id));
      // Nobody holds the capacity: the booking takes it, and counts against it.
      const counted = await database.db.transaction((tx) => lockSeats(tx, seenBefore, ticket));
      expect(counted.event.capacity).toBe(10);
      // Another booking holds it: this one is told to try again instead of waiting out of order.
      const release = await holdOpen(async (tx) =>
        lockSeats(tx, (await readEventAndTickets(tx, event.id, null)).event, ticket),
      );
      const refused = await database.db
        .transaction((tx) => lockSeats(tx, seenBefore, ticket))
        .catch((error: unknown) => error);
      await release();
      expect(refused).toBeInstanceOf(RegistrationError);
      expect((refused as RegistrationError).message).toBe(
        "The seats of this event changed just now. Please try again.",
      );
    },
  );

  it("never oversells an event's overall capacity across tickets, paid or free", async () => {
    const { event, fees } = await makeEvent({
      capacity: 10,
      fees: [{ amount: 0 }, { amount: 2_500, maxQuantity: 100 }],
    });
    const crowd = await people(100);
    const results = await Promise.allSettled(
      crowd.map((p, i) => register(event.id, p, fees[i % 2].id)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(10);
    expect(await seatsTaken(database.db, event.id)).toBe(10);
    // Paid seats are held by an order with an invoice, unpaid for now.
    const paid = await database.db
      .select({ state: registrations.state, orderId: registrations.orderId })
      .from(registrations)
      .where(and(eq(registrations.eventId, event.id), eq(registrations.feeId, fees[1].id)));
    for (const r of paid) {
      expect(r.state).toBe("awaiting_payment");
      expect(r.orderId).not.toBeNull();
    }
  });

  it("offers freed seats to the waitlist in order, and parallel claims and registrations never exceed them", async () => {
    const { event } = await makeEvent({ capacity: 10 });
    const holders = await people(10);
    const regs = [];
    for (const p of holders) regs.push(await register(event.id, p, null));
    const queue = await people(20);
    for (const [i, p] of queue.entries()) {
      const place = await joinWaitlist({
        eventId: event.id,
        feeId: null,
        quantity: 1,
        account: p,
        name: p.name,
        email: p.email,
      });
      expect(place.position).toBe(i + 1);
    }
    // Five cancel at once: five offers go to the first five waiting.
    await Promise.all(
      regs
        .slice(0, 5)
        .map((r, i) => cancelRegistration(r.registrationId, { id: holders[i].id, role: "user" })),
    );
    const offered = await database.db
      .select()
      .from(waitlistEntries)
      .where(and(eq(waitlistEntries.eventId, event.id), eq(waitlistEntries.state, "offered")));
    expect(offered.map((o) => o.userId).sort()).toEqual(
      queue
        .slice(0, 5)
        .map((p) => p.id)
        .sort(),
    );
    // Newcomers cannot take the offered seats, even racing the people claiming them.
    const newcomers = await people(100);
    const racing = await Promise.allSettled([
      ...newcomers.map((p) => register(event.id, p, null)),
      ...offered.map((o) => {
        const person = queue.find((p) => p.id === o.userId) as Person;
        return register(event.id, person, null, 1, o.id);
      }),
      // A second claim of the same offer by its holder (double click) gets nothing more.
      register(event.id, queue[0], null, 1, offered.find((o) => o.userId === queue[0].id)?.id),
    ]);
    expect(racing.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    expect(await seatsTaken(database.db, event.id)).toBe(10);
    const claimed = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(waitlistEntries)
      .where(and(eq(waitlistEntries.eventId, event.id), eq(waitlistEntries.state, "claimed")));
    expect(Number(claimed[0].n)).toBe(5);
    await drainJobs();
    const offerMail = await smtp.waitFor(queue[0].email, /A seat is free/);
    expect(offerMail.text).toContain(`/events/${event.slug}/register?offer=`);
  });

  it("offers a freed seat to the first request that fits; each ticket keeps its own queue", async () => {
    const join = (eventId: string, p: Person, feeId: string | null, quantity: number) =>
      joinWaitlist({ eventId, feeId, quantity, account: p, name: p.name, email: p.email });
    const stateOf = async (userId: string) =>
      (
        await database.db
          .select({ state: waitlistEntries.state })
          .from(waitlistEntries)
          .where(eq(waitlistEntries.userId, userId))
      )[0].state;

    // Overall capacity: one freed seat goes to the second person while the first needs two.
    const { event } = await makeEvent({ capacity: 3 });
    const [a, b, c, first, second] = await people(5);
    const regs = [];
    for (const p of [a, b, c]) regs.push(await register(event.id, p, null));
    await join(event.id, first, null, 2);
    await join(event.id, second, null, 1);
    await cancelRegistration(regs[0].registrationId, { id: a.id, role: "user" });
    expect([await stateOf(first.id), await stateOf(second.id)]).toEqual(["waiting", "offered"]);
    await cancelRegistration(regs[1].registrationId, { id: b.id, role: "user" });
    expect(await stateOf(first.id)).toBe("waiting");
    await cancelRegistration(regs[2].registrationId, { id: c.id, role: "user" });
    expect(await stateOf(first.id)).toBe("offered");

    // Ticket stock only: each ticket has its own queue.
    const two = await makeEvent({
      fees: [
        { amount: 0, maxQuantity: 1 },
        { amount: 10, maxQuantity: 1 },
      ],
    });
    const [x, y, waitsFree, waitsPaid] = await people(4);
    await register(two.event.id, x, two.fees[0].id);
    const paid = await register(two.event.id, y, two.fees[1].id);
    await join(two.event.id, waitsFree, two.fees[0].id, 1);
    await join(two.event.id, waitsPaid, two.fees[1].id, 1);
    await cancelRegistration(paid.registrationId, { id: y.id, role: "user" });
    expect([await stateOf(waitsFree.id), await stateOf(waitsPaid.id)]).toEqual([
      "waiting",
      "offered",
    ]);
  });

  it("expires an unpaid registration with its order and offers the seat to the next person", async () => {
    const { event, fees } = await makeEvent({ fees: [{ amount: 150_000, maxQuantity: 1 }] });
    const [buyer, waiting] = await people(2);
    const { orderId, registrationId, invoiceNumber } = await register(event.id, buyer, fees[0].id);
    expect(invoiceNumber).toMatch(/^INV-\d{4}-\d{6}$/);
    await expect(register(event.id, waiting, fees[0].id)).rejects.toMatchObject({ code: "full" });
    await joinWaitlist({
      eventId: event.id,
      feeId: fees[0].id,
      quantity: 1,
      account: waiting,
      name: waiting.name,
      email: waiting.email,
    });
    await expireOrder(orderId as string, new Date(Date.now() + 400 * DAY));
    const [reg] = await database.db
      .select()
      .from(registrations)
      .where(eq(registrations.id, registrationId));
    expect(reg.state).toBe("expired");
    const [entry] = await database.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.userId, waiting.id));
    expect(entry.state).toBe("offered");
    // Unclaimed, the offer lapses (its job) and the seat is free again.
    expect(await expireWaitlistOffer(entry.id, new Date(Date.now() + 2 * DAY))).toBe(true);
    // The person who waited is told, with the way back onto the list (issue 30).
    await drainJobs();
    const ranOut = await smtp.waitFor(waiting.email, /Your waitlist offer ran out/);
    expect(ranOut.text).toContain("was not claimed in time");
    expect(ranOut.text).toContain(`/events/${event.slug}/register`);
    const page = await getRegistrationPage(event.slug, buyer.id);
    expect(page?.tickets[0].remaining).toBe(1);
    const actions = await database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(inArray(auditLog.entityId, [registrationId, entry.id]));
    expect(actions.map((a) => a.action).sort()).toEqual(
      [
        "registration.create",
        "registration.expire",
        "waitlist.expire",
        "waitlist.join",
        "waitlist.offer",
      ].sort(),
    );
  });

  it("confirms a paid registration when its invoice is paid and mails the .ics and one QR per seat", async () => {
    const { event, fees } = await makeEvent({ fees: [{ amount: 2_000 }] });
    const [buyer] = await people(1);
    const result = await register(event.id, buyer, fees[0].id, 2);
    const [order] = await database.db
      .select()
      .from(orders)
      .where(eq(orders.id, result.orderId as string));
    expect(order.totalMinor).toBe(4_000_00);
    await recordPayment(
      {
        method: "mpesa",
        reference: `QK${randomUUID().slice(0, 8)}`,
        amountMinor: 4_000_00,
        currency: "KES",
        paidAt: new Date(),
        invoiceNumber: result.invoiceNumber as string,
      },
      { system: "test" },
    );
    await drainJobs();
    const [reg] = await database.db
      .select()
      .from(registrations)
      .where(eq(registrations.id, result.registrationId));
    expect(reg.state).toBe("confirmed");
    const mail = await smtp.waitFor(buyer.email, /You're registered/);
    const names = mail.attachments.map((a) => a.filename).sort();
    expect(names).toEqual(
      [`${event.slug}.ics`, `${event.slug}-ticket-1.png`, `${event.slug}-ticket-2.png`].sort(),
    );
    const ics = mail.attachments.find((a) => a.filename.endsWith(".ics"));
    expect(ics?.content.toString()).toContain("BEGIN:VEVENT");
    expect(ics?.content.toString()).toContain(`SUMMARY:${event.title}`);
    const png = mail.attachments.find((a) => a.filename === `${event.slug}-ticket-1.png`);
    expect(png?.content.subarray(1, 4).toString()).toBe("PNG");
  });

  it("cancels: frees the seat, cancels an unpaid order, keeps the self-service deadline", async () => {
    const { event, fees } = await makeEvent({ fees: [{ amount: 100_00, maxQuantity: 1 }] });
    const [buyer, other, next] = await people(3);
    const { registrationId, orderId } = await register(event.id, buyer, fees[0].id);
    await expect(
      cancelRegistration(registrationId, { id: other.id, role: "user" }),
    ).rejects.toMatchObject({ status: 404 });
    await cancelRegistration(registrationId, { id: buyer.id, role: "user" }, "Plans changed");
    const [order] = await database.db
      .select({ state: orders.state })
      .from(orders)
      .where(eq(orders.id, orderId as string));
    expect(order.state).toBe("cancelled");
    const [reg] = await database.db
      .select()
      .from(registrations)
      .where(eq(registrations.id, registrationId));
    expect(reg).toMatchObject({
      state: "cancelled",
      cancelledBy: buyer.id,
      cancelReason: "Plans changed",
    });
    await expect(
      cancelRegistration(registrationId, { id: buyer.id, role: "user" }),
    ).rejects.toMatchObject({ status: 409 });
    await register(event.id, next, fees[0].id); // the seat is free again

    const soon = await makeEvent({ startInDays: 1 });
    const [late] = await people(1);
    const r = await register(soon.event.id, late, null);
    await expect(
      cancelRegistration(r.registrationId, { id: late.id, role: "user" }),
    ).rejects.toMatchObject({ status: 403 });
    const [editor] = await people(1, "editor");
    await cancelRegistration(
      r.registrationId,
      { id: editor.id, role: "editor" },
      "No-show, per the door list",
      "The session you booked was moved online; see the event page.",
    );
    const mine = await listMyRegistrations(late.id);
    expect(mine.registrations[0]).toMatchObject({ state: "cancelled", mayCancel: false });
    // The attendee gets staff's message, never the internal note (kept with the registration).
    await drainJobs();
    const notice = await smtp.waitFor(late.email, /Registration cancelled/);
    expect(notice.text).toContain("The session you booked was moved online; see the event page.");
    expect(notice.text).not.toContain("No-show");
    expect(notice.html).not.toContain("No-show");
    const [kept] = await database.db
      .select()
      .from(registrations)
      .where(eq(registrations.id, r.registrationId));
    expect(kept.cancelReason).toBe("No-show, per the door list");
  });

  it("tells an attendee why a part-paid registration cannot be cancelled online", async () => {
    const { event, fees } = await makeEvent({ fees: [{ amount: 2_000 }] });
    const [buyer] = await people(1);
    const result = await register(event.id, buyer, fees[0].id);
    await recordPayment(
      {
        method: "mpesa",
        reference: `QP${randomUUID().slice(0, 8)}`,
        amountMinor: 500_00,
        currency: "KES",
        paidAt: new Date(),
        invoiceNumber: result.invoiceNumber as string,
      },
      { system: "test" },
    );
    await expect(
      cancelRegistration(result.registrationId, { id: buyer.id, role: "user" }),
    ).rejects.toMatchObject({ status: 409, message: PART_PAID_CANCEL_MESSAGE });
    const [reg] = await database.db
      .select({ state: registrations.state })
      .from(registrations)
      .where(eq(registrations.id, result.registrationId));
    expect(reg.state).toBe("awaiting_payment");
  });

  it("refuses registration for past and cancelled events", async () => {
    const [p] = await people(1);
    const past = await makeEvent({ startInDays: -3 });
    await expect(register(past.event.id, p, null)).rejects.toThrow(/takes no registrations/);
    const cancelled = await makeEvent({ cancelled: true });
    await expect(register(cancelled.event.id, p, null)).rejects.toThrow(/cancelled/);
    const page = await getRegistrationPage(past.event.slug, p.id);
    expect(page?.past).toBe(true);
    expect(page?.closedReason).toMatch(/takes no registrations/);
    await expect(
      joinWaitlist({
        eventId: past.event.id,
        feeId: null,
        quantity: 1,
        account: p,
        name: p.name,
        email: p.email,
      }),
    ).rejects.toThrow(/takes no registrations/);
  });

  it("tells each registered person once per change and reminds them 7 days and 1 day before", async () => {
    const { event } = await makeEvent({ startInDays: 5 });
    const [a, b] = await people(2);
    await register(event.id, a, null);
    await register(event.id, b, null);
    // Registered more than 7 days before the start: the 7-day reminder applies to them.
    await database.db
      .update(registrations)
      .set({ confirmedAt: new Date(Date.now() - 10 * DAY) })
      .where(eq(registrations.userId, a.id));
    await notifyEventChange(event.id, "place");
    await notifyEventChange(event.id, "place");
    expect(await enqueueDueReminders()).toBe(1);
    expect(await enqueueDueReminders()).toBe(0);
    await drainJobs();
    const moved = smtp.messages.filter(
      (m) => m.to.includes(a.email) && m.subject.startsWith("New venue"),
    );
    expect(moved).toHaveLength(1);
    expect(moved[0].attachments[0].filename).toBe(`${event.slug}.ics`);
    await smtp.waitFor(a.email, /Reminder: .* starts in 7 days/);
    expect(smtp.messages.some((m) => m.to.includes(b.email) && /Reminder/.test(m.subject))).toBe(
      false,
    );
    // The day before, everyone registered earlier gets the 1-day reminder.
    expect(await enqueueDueReminders(new Date(Date.now() + 4.5 * DAY))).toBe(2);
  });
  // -------------------------------------------------------------------------------------------
  // Fair shares (issue 26, decision 0073)
  // -------------------------------------------------------------------------------------------
  const errorOf = (r: PromiseSettledResult<unknown>) =>
    r.status === "rejected" ? (r.reason as RegistrationError) : null;

  it("one account posting 8 registrations at once for a free event takes only its share", async () => {
    const { event } = await makeEvent({ capacity: 80 });
    const [hoarder] = await people(1);
    const burst = await Promise.allSettled(
      Array.from({ length: 8 }, () => register(event.id, hoarder, null, 10)),
    );
    expect(burst.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await seatsTaken(database.db, event.id)).toBe(10);
    for (const r of burst.filter((r) => r.status === "rejected")) {
      expect(errorOf(r)).toBeInstanceOf(RegistrationError);
      expect(errorOf(r)?.message).toMatch(/^You already have a registration for Free registration/);
    }
    // More than 10 seats in one registration is refused whatever the capacity.
    const [other] = await people(1);
    await expect(register(event.id, other, null, 11)).rejects.toMatchObject({
      field: "quantity",
      message: "Choose between 1 and 10 seats.",
    });

    // The organiser's setting: 2 registrations of up to 4 seats per account.
    const fee = await makeEvent({ fees: [{ amount: 0, maxPerOrder: 4, maxPerAccount: 2 }] });
    const feeId = fee.fees[0].id;
    await expect(register(fee.event.id, hoarder, feeId, 5)).rejects.toMatchObject({
      message: "Choose between 1 and 4 seats.",
    });
    const second = await Promise.allSettled(
      Array.from({ length: 8 }, () => register(fee.event.id, hoarder, feeId, 4)),
    );
    expect(second.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    expect(await seatsTaken(database.db, fee.event.id)).toBe(8);
    const page = await getRegistrationPage(fee.event.slug, other.id);
    expect(page?.tickets[0]).toMatchObject({
      maxPerOrder: 4,
      maxPerAccount: 2,
      maxPerRegistration: 4,
    });
  });

  it("one account cannot hold a paid ticket's seats by repeated registrations, nor restart a lapsed hold", async () => {
    const { event, fees } = await makeEvent({ fees: [{ amount: 1_000, maxQuantity: 150 }] });
    const [hoarder] = await people(1);
    const burst = await Promise.allSettled(
      Array.from({ length: 15 }, () => register(event.id, hoarder, fees[0].id, 10)),
    );
    expect(burst.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await seatsTaken(database.db, event.id)).toBe(10);

    // Cancelling and booking again: the new hold ends when the first one would have.
    const first = burst.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<
      Awaited<ReturnType<typeof register>>
    >;
    const orderEnd = async (orderId: string | null) =>
      (
        await database.db
          .select({ expiresAt: orders.expiresAt })
          .from(orders)
          .where(eq(orders.id, orderId as string))
      )[0].expiresAt.getTime();
    const firstEnd = await orderEnd(first.value.orderId);
    await cancelRegistration(first.value.registrationId, { id: hoarder.id, role: "user" });
    const again = await register(event.id, hoarder, fees[0].id, 10);
    expect(Math.abs((await orderEnd(again.orderId)) - firstEnd)).toBeLessThan(5_000);

    // Letting it lapse (its time has passed) and booking again: a short hold, not a new 72 h.
    await database.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(inArray(orders.id, [first.value.orderId as string, again.orderId as string]));
    await expireOrder(again.orderId as string);
    const third = await register(event.id, hoarder, fees[0].id, 10);
    const minutes = ((await orderEnd(third.orderId)) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(REPEAT_HOLD_MINUTES - 1);
    expect(minutes).toBeLessThanOrEqual(REPEAT_HOLD_MINUTES);

    // Unpaid holds across the site: three at most.
    const more = await Promise.all([1, 2, 3].map(() => makeEvent({ fees: [{ amount: 500 }] })));
    await register(more[0].event.id, hoarder, more[0].fees[0].id);
    await register(more[1].event.id, hoarder, more[1].fees[0].id);
    await expect(register(more[2].event.id, hoarder, more[2].fees[0].id)).rejects.toThrow(
      `You have ${MAX_UNPAID_HOLDS_PER_ACCOUNT} unpaid invoices for event seats.`,
    );
  });

  it("mails each confirmed attendee one fixed text with their own QR; held seats mail the attendee nothing", async () => {
    const { event, fees } = await makeEvent({ fees: [{ amount: 700, maxPerAccount: 3 }] });
    const [buyer] = await people(1);
    const greeting = "Dear Winner, claim your prize at http://evil.example";
    const attendeeEmail = `guest.${randomUUID().slice(0, 8)}@example.test`;
    const held = await registerForEvent({
      eventId: event.id,
      feeId: fees[0].id,
      quantity: 2,
      account: buyer,
      attendee: { name: greeting, email: attendeeEmail },
    });
    const lapsing = await registerForEvent({
      eventId: event.id,
      feeId: fees[0].id,
      quantity: 1,
      account: buyer,
      attendee: { name: greeting, email: `late.${attendeeEmail}` },
    });
    await drainJobs();
    expect(smtp.messages.filter((m) => m.to.includes(attendeeEmail))).toEqual([]);
    await recordPayment(
      {
        method: "mpesa",
        reference: `QK${randomUUID().slice(0, 8)}`,
        amountMinor: 1_400_00,
        currency: "KES",
        paidAt: new Date(),
        invoiceNumber: held.invoiceNumber as string,
      },
      { system: "test" },
    );
    await database.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(orders.id, lapsing.orderId as string));
    await expireOrder(lapsing.orderId as string);
    await drainJobs();
    const mail = await smtp.waitFor(attendeeEmail, /You're registered/);
    const toAttendee = smtp.messages.filter((m) => m.to.includes(attendeeEmail));
    expect(toAttendee).toHaveLength(1);
    expect(mail.text.startsWith("Hello,")).toBe(true);
    expect(mail.attachments.map((a) => a.filename).sort()).toEqual(
      [`${event.slug}.ics`, `${event.slug}-ticket-1.png`, `${event.slug}-ticket-2.png`].sort(),
    );
    // The lapsed hold is the account's business: its mail goes there, not to the named attendee.
    await smtp.waitFor(buyer.email, /Seats released/);
    expect(smtp.messages.some((m) => m.to.includes(`late.${attendeeEmail}`))).toBe(false);
    for (const m of smtp.messages) {
      expect(`${m.subject}\n${m.text}\n${m.html}`).not.toContain("evil.example");
    }
  });

  it("caps the other addresses one account can have tickets mailed to", async () => {
    const { event } = await makeEvent({ fees: [{ amount: 0, maxPerAccount: 40, maxPerOrder: 1 }] });
    const feeId = (
      await database.db.select().from(eventFees).where(eq(eventFees.eventId, event.id))
    )[0].id;
    const [sender] = await people(1);
    const to = (email: string) =>
      registerForEvent({
        eventId: event.id,
        feeId,
        quantity: 1,
        account: sender,
        attendee: { name: "Guest", email },
      });
    for (let i = 0; i < MAX_OTHER_ATTENDEE_EMAILS; i++) await to(`guest${i}@example.test`);
    await expect(to("one.more@example.test")).rejects.toMatchObject({ field: "attendeeEmail" });
    await to("GUEST3@example.test"); // an address already mailed is not a new one
    await to(sender.email); // the account's own address is never capped
  });

  it("offers freed seats to the first request that fits, and a request passed over 3 times waits first", async () => {
    const { event } = await makeEvent({ capacity: 8 });
    const holders = await people(8);
    const regs = [];
    for (const p of holders) regs.push(await register(event.id, p, null));
    const [big, ...small] = await people(5);
    const join = (p: Person, quantity: number) =>
      joinWaitlist({
        eventId: event.id,
        feeId: null,
        quantity,
        account: p,
        name: p.name,
        email: p.email,
      });
    await join(big, 4);
    for (const p of small) await join(p, 1);
    const stateOf = async (p: Person) =>
      (
        await database.db
          .select({ state: waitlistEntries.state })
          .from(waitlistEntries)
          .where(eq(waitlistEntries.userId, p.id))
      )[0].state;
    // Three single seats free one by one: the three next requests get them, the 4-seat one waits.
    for (let i = 0; i < WAITLIST_MAX_SKIPS; i++) {
      await cancelRegistration(regs[i].registrationId, { id: holders[i].id, role: "user" });
      expect(await stateOf(small[i])).toBe("offered");
    }
    expect(await stateOf(big)).toBe("waiting");
    // Passed over three times, it now goes first: the next freed seats wait for it.
    await cancelRegistration(regs[3].registrationId, { id: holders[3].id, role: "user" });
    expect(await stateOf(small[3])).toBe("waiting");
    for (const i of [4, 5, 6]) {
      await cancelRegistration(regs[i].registrationId, { id: holders[i].id, role: "user" });
    }
    expect(await stateOf(big)).toBe("offered");
    expect(await stateOf(small[3])).toBe("waiting");
    // A waitlist request asks for no more than one registration may take.
    const [greedy] = await people(1);
    await expect(join(greedy, 11)).rejects.toMatchObject({ field: "quantity" });
  });

  it("refuses a claim after the offer's expiry time even before the expiry job ran", async () => {
    const { event } = await makeEvent({ capacity: 1 });
    const [holder, waiting] = await people(2);
    const reg = await register(event.id, holder, null);
    await joinWaitlist({
      eventId: event.id,
      feeId: null,
      quantity: 1,
      account: waiting,
      name: waiting.name,
      email: waiting.email,
    });
    await cancelRegistration(reg.registrationId, { id: holder.id, role: "user" });
    const [offer] = await database.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.userId, waiting.id));
    expect(offer.state).toBe("offered");
    const expiresAt = offer.offerExpiresAt as Date;
    const claim = (now: Date) =>
      registerForEvent({
        eventId: event.id,
        feeId: null,
        quantity: 1,
        account: waiting,
        attendee: { name: waiting.name, email: waiting.email },
        offerId: offer.id,
        now,
      });
    await expect(claim(new Date(expiresAt.getTime() + 1_000))).rejects.toThrow(/offer has expired/);
    const [still] = await database.db
      .select({ state: waitlistEntries.state })
      .from(waitlistEntries)
      .where(eq(waitlistEntries.id, offer.id));
    expect(still.state).toBe("offered"); // nothing claimed; the job passes the seats on
    await claim(new Date(expiresAt.getTime() - 60_000));
  });

  it("rate-limits registration actions per account and per client address", async () => {
    const [a, b] = await people(2);
    const from = (ip: string) =>
      new Request("http://localhost/events/x/register", {
        method: "POST",
        headers: { [CLIENT_IP_HEADER]: ip },
      });
    const ip = `203.0.113.${Math.floor(Math.random() * 200)}`;
    for (let i = 0; i < REGISTRATION_RATE_LIMIT.perAccount.max; i++) {
      expect(await limitRegistrationActions(a.id, from(ip))).toBeNull();
    }
    const refused = await limitRegistrationActions(a.id, from(ip));
    expect(refused?.message).toMatch(
      /^Too many attempts\. Please wait \d+ seconds? and try again\.$/,
    );
    // Another account from the same address still gets through, up to the client's limit.
    expect(await limitRegistrationActions(b.id, from(ip))).toBeNull();
    const crowd = await people(REGISTRATION_RATE_LIMIT.perClient.max);
    const results = await Promise.all(crowd.map((p) => limitRegistrationActions(p.id, from(ip))));
    expect(results.filter((r) => r !== null).length).toBeGreaterThan(0);
  });
});
