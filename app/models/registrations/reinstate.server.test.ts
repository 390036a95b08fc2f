import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, eventFees, events, orders, registrations, tickets, user } from "~/db/schema";
import { setEnv } from "~/lib/env.server";
import { runDueJobs } from "~/models/jobs.server";
import { expireOrder, recordPayment, reinstateOrder } from "~/models/orders/orders.server";
import { listOrdersNeedingAttention } from "~/models/orders/queries.server";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { testEnv } from "../../../tests/helpers/env";
import { startTestSmtp } from "../../../tests/helpers/smtp";
import { RegistrationError, registerForEvent } from "./registrations.server";
import { seatsTaken } from "./test-fixtures";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

const DAY = 86_400_000;
const HOUR = 3_600_000;

// Reinstating an expired order whose money arrived late: its seats come back only while free,
// under the event's seat lock, so a reinstatement and a registration never oversell (issue 26).
describe("reinstating a closed ticket order", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  const admin = { id: randomUUID(), role: "admin" as const };
  let reference = 0;

  type Person = { id: string; name: string; email: string };
  async function person(): Promise<Person> {
    const id = randomUUID();
    const row = {
      id,
      name: `Attendee ${id.slice(0, 4)}`,
      email: `r.${id.slice(0, 8)}@example.test`,
    };
    await database.db.insert(user).values({ ...row, role: "user" });
    return row;
  }

  /** A published event with one paid ticket (KES 1,500.00) and `capacity` seats. */
  async function paidEvent(capacity: number) {
    const start = new Date(Date.now() + 30 * DAY);
    const title = `Reinstate test ${randomUUID().slice(0, 8)}`;
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
    const [fee] = await database.db
      .insert(eventFees)
      .values({ eventId: event.id, amountMinor: 150000, currency: "KES" })
      .returning();
    return { event, fee };
  }

  const register = (eventId: string, feeId: string, who: Person) =>
    registerForEvent({
      eventId,
      feeId,
      quantity: 1,
      account: who,
      attendee: { name: who.name, email: who.email },
    });

  /** Registers, lets the order expire, then the payment arrives: credit on an expired order. */
  async function expiredThenPaid(eventId: string, feeId: string) {
    const who = await person();
    const booked = await register(eventId, feeId, who);
    if (!booked.orderId || !booked.invoiceNumber) throw new Error("expected an order");
    await expireOrder(booked.orderId, new Date(Date.now() + 1000 * HOUR));
    const late = await recordPayment(
      {
        method: "mpesa",
        reference: `RIN${String(++reference).padStart(7, "0")}`,
        amountMinor: 1_500_00,
        currency: "KES",
        paidAt: new Date(),
        invoiceNumber: booked.invoiceNumber,
      },
      admin,
    );
    expect(late).toMatchObject({ outcome: "matched", orderState: "expired" });
    return { ...booked, orderId: booked.orderId, who };
  }

  async function drainJobs() {
    while ((await runDueJobs({ limit: 50 })) > 0) {}
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    setEnv(testEnv({ SMTP_URL: smtp.url }));
    await database.db.insert(user).values({
      id: admin.id,
      name: "Admin",
      email: "admin.reinstate@example.test",
      role: "admin",
    });
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("gives the seat back and confirms the registration with its ticket, while the seat is free", async () => {
    const { event, fee } = await paidEvent(1);
    const late = await expiredThenPaid(event.id, fee.id);
    expect(await seatsTaken(database.db, event.id)).toBe(0);

    const order = await reinstateOrder(late.orderId, { ...admin, request: null });
    expect(order.state).toBe("paid");
    expect(await seatsTaken(database.db, event.id)).toBe(1); // held at once, before the unlock job runs
    await drainJobs();
    const [registration] = await database.db
      .select()
      .from(registrations)
      .where(eq(registrations.id, late.registrationId));
    expect(registration.state).toBe("confirmed");
    const issued = await database.db
      .select()
      .from(tickets)
      .where(eq(tickets.registrationId, registration.id));
    expect(issued).toHaveLength(1);
    const trail = await database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.entityId, registration.id))
      .orderBy(auditLog.createdAt);
    expect(trail.map((r) => r.action)).toEqual([
      "registration.create",
      "registration.expire",
      "registration.reinstate",
      "registration.confirm",
    ]);
    await smtp.waitFor(late.who.email, /./);
    expect((await listOrdersNeedingAttention("admin")).some((o) => o.id === late.orderId)).toBe(
      false,
    );
  });

  it("refuses to reinstate when the seat has gone to someone else, keeping the money listed", async () => {
    const { event, fee } = await paidEvent(1);
    const late = await expiredThenPaid(event.id, fee.id);
    await register(event.id, fee.id, await person()); // the freed seat is taken
    await expect(reinstateOrder(late.orderId, admin)).rejects.toMatchObject({
      status: 409,
      message: "The seat of this order is no longer free (0 left); refund the payment instead.",
    });
    const [order] = await database.db.select().from(orders).where(eq(orders.id, late.orderId));
    expect(order.state).toBe("expired");
    expect(await seatsTaken(database.db, event.id)).toBe(1);
    const listed = (await listOrdersNeedingAttention("admin")).find((o) => o.id === late.orderId);
    expect(listed).toMatchObject({ creditMinor: 1_500_00 });
  });

  it("never oversells the last seat when a reinstatement and a registration race, 6 times", async () => {
    for (let round = 0; round < 6; round++) {
      const { event, fee } = await paidEvent(1);
      const late = await expiredThenPaid(event.id, fee.id);
      const rival = await person();
      const [reinstated, registered] = await Promise.allSettled([
        reinstateOrder(late.orderId, admin),
        register(event.id, fee.id, rival),
      ]);
      const wins = [reinstated, registered].filter((r) => r.status === "fulfilled");
      expect(wins, `round ${round}`).toHaveLength(1);
      if (registered.status === "rejected") {
        expect(registered.reason).toBeInstanceOf(RegistrationError);
      }
      expect(await seatsTaken(database.db, event.id), `round ${round}`).toBe(1);
    }
  });
});
