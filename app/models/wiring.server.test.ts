// A bare worker: this process loads the wiring module and the job worker, and no route module.
// A paid order's reactions must still run: the ticket's registration is confirmed, the
// membership term activated (style.md rule 12: nothing depends on what a route build imported).
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { jobs, memberships, orders, registrations, tickets, user } from "~/db/schema";
import { setEnv } from "~/lib/env.server";
import { useTestDatabase } from "../../tests/helpers/db";
import { testEnv } from "../../tests/helpers/env";
import { startJobWorker } from "./jobs.server";
import { applyForMembership } from "./membership/membership.server";
import { createOrder, recordPayment } from "./orders/orders.server";
import { insertEvent } from "./registrations/test-fixtures";
import { wireProcess } from "./wiring.server";

describe("the wiring module alone runs a paid order's reactions", () => {
  const database = useTestDatabase();
  const cashier = { system: "bank-import" };

  beforeAll(() => {
    setEnv(testEnv());
  });

  async function person() {
    const id = randomUUID();
    const email = `buyer.${id.slice(0, 8)}@example.test`;
    await database.db.insert(user).values({ id, name: "Wanjiru Kamau", email });
    return { id, name: "Wanjiru Kamau", email };
  }

  it("confirms the registration and activates the membership once their orders are paid", async () => {
    wireProcess();
    const buyer = await person();
    const event = await insertEvent(database.db);
    const ticket = await createOrder({
      buyer,
      currency: "KES",
      holdMs: 3_600_000,
      lines: [
        {
          kind: "event_ticket",
          referenceId: randomUUID(),
          description: `${event.title} — Conference Only`,
          quantity: 1,
          unitAmountMinor: 5_000_00,
        },
      ],
    });
    const [registration] = await database.db
      .insert(registrations)
      .values({
        eventId: event.id,
        ticketLabel: "Conference Only",
        unitAmountMinor: 5_000_00,
        currency: "KES",
        userId: buyer.id,
        attendeeName: buyer.name,
        attendeeEmail: buyer.email,
        quantity: 1,
        state: "awaiting_payment",
        orderId: ticket.order.id,
      })
      .returning();
    const member = await person();
    const joined = await applyForMembership(member, {
      plan: "individual",
      memberName: member.name,
    });

    for (const orderId of [ticket.order.id, joined.orderId as string]) {
      const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));
      const paid = await recordPayment(
        {
          method: "bank_transfer",
          reference: randomUUID().slice(0, 20),
          amountMinor: order.totalMinor,
          currency: order.currency,
          paidAt: new Date(),
          invoiceNumber:
            orderId === ticket.order.id ? ticket.invoiceNumber : (joined.invoiceNumber as string),
        },
        cashier,
      );
      expect(paid).toMatchObject({ outcome: "matched", orderPaid: true });
    }

    const worker = startJobWorker({ pollMs: 20, limit: 10 });
    try {
      await vi.waitFor(
        async () => {
          const [confirmed] = await database.db
            .select({ state: registrations.state })
            .from(registrations)
            .where(eq(registrations.id, registration.id));
          const [membership] = await database.db
            .select({ state: memberships.state })
            .from(memberships)
            .where(eq(memberships.id, joined.membership.id));
          expect({ registration: confirmed.state, membership: membership.state }).toEqual({
            registration: "confirmed",
            membership: "active",
          });
        },
        { timeout: 20_000, interval: 50 },
      );
    } finally {
      await worker.stop();
    }
    const seats = await database.db
      .select({ id: tickets.id })
      .from(tickets)
      .where(eq(tickets.registrationId, registration.id));
    expect(seats).toHaveLength(1);
    const unlocks = await database.db
      .select({ state: jobs.state })
      .from(jobs)
      .where(eq(jobs.kind, "order.unlock"));
    expect(unlocks.map((j) => j.state)).toEqual(["succeeded", "succeeded"]);
  });
});
