// Issue 33 item 5: registration never waits on mail. With an SMTP server that accepts
// connections and never answers, free and paid registrations (and a delegation) complete, having
// only queued their mails (ticket with QR code, invoice with its PDF) as jobs; nothing talks to
// the mail server until a job worker runs them.
import { randomUUID } from "node:crypto";
import { createServer, type Socket } from "node:net";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventFees, events, jobs, user } from "~/db/schema";
import { setEnv } from "~/lib/env.server";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { testEnv } from "../../../tests/helpers/env";
import { bookSeats } from "./bookings.server";
import { registerForEvent } from "./registrations.server";

wireProcess();

describe("registration and a stalled mail server", () => {
  const database = useTestDatabase();
  const sockets = new Set<Socket>();
  let connections = 0;
  const stalled = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("error", () => {});
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => stalled.listen(0, "127.0.0.1", resolve));
    const { port } = stalled.address() as { port: number };
    setEnv(testEnv({ SMTP_URL: `smtp://127.0.0.1:${port}` }));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => stalled.close(resolve));
  });

  it("confirms free seats and holds paid ones without a word from the mail server", async () => {
    const start = new Date(Date.now() + 30 * 86_400_000);
    const title = `Mail queue ${randomUUID().slice(0, 8)}`;
    const [event] = await database.db
      .insert(events)
      .values({
        title,
        slug: title.toLowerCase().replace(/\s+/g, "-"),
        location: "Nairobi",
        startDate: start,
        endDate: new Date(start.getTime() + 86_400_000),
        status: "published",
        capacity: 100,
      })
      .returning();
    const [free, paid] = await database.db
      .insert(eventFees)
      .values([
        { eventId: event.id, amountMinor: 0, currency: "KES" },
        { eventId: event.id, amountMinor: 250_000, currency: "KES" },
      ])
      .returning();
    const people = Array.from({ length: 3 }, (_, i) => {
      const id = randomUUID();
      return { id, name: `Mail ${i}`, email: `m.${id.slice(0, 8)}@example.test` };
    });
    await database.db.insert(user).values(people);
    const [a, b, c] = people;

    const confirmed = await registerForEvent({
      eventId: event.id,
      feeId: free.id,
      quantity: 1,
      account: a,
      attendee: { name: a.name, email: a.email },
    });
    const held = await registerForEvent({
      eventId: event.id,
      feeId: paid.id,
      quantity: 1,
      account: b,
      attendee: { name: b.name, email: b.email },
    });
    const delegation = await bookSeats({
      eventId: event.id,
      account: c,
      seats: [
        { feeId: free.id, name: c.name, email: c.email },
        { feeId: paid.id, name: "Colleague", email: `colleague.${c.email}` },
      ],
    });
    expect(confirmed.state).toBe("confirmed");
    expect(held.state).toBe("awaiting_payment");
    expect(held.invoiceNumber).toMatch(/^INV-\d{4}-\d{6}$/);
    expect(delegation.state).toBe("awaiting_payment");

    // Their mails are jobs waiting for a worker; the mail server was never contacted.
    const queued = await database.db
      .select({ key: jobs.uniqueKey, state: jobs.state, attempts: jobs.attempts })
      .from(jobs)
      .where(
        and(
          inArray(jobs.uniqueKey, [
            `registration:${confirmed.registrationId}:confirmation`,
            `order:${held.orderId}:invoice`,
            `order:${delegation.orderId}:invoice`,
            ...delegation.registrationIds.map((id) => `registration:${id}:confirmation`),
          ]),
          eq(jobs.state, "queued"),
        ),
      );
    expect(queued.map((j) => j.key).sort()).toEqual(
      [
        `registration:${confirmed.registrationId}:confirmation`,
        `order:${held.orderId}:invoice`,
        `order:${delegation.orderId}:invoice`,
        // The delegation's free seat is confirmed at once; its paid seat waits for the payment.
        `registration:${delegation.registrationIds[0]}:confirmation`,
      ].sort(),
    );
    expect(queued.every((j) => j.attempts === 0)).toBe(true);
    expect(connections).toBe(0);
  });
});
