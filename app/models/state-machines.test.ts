// Every state machine on the lifecycle kit, walked edge by edge: each move its table allows
// changes the row and writes its audit row; every other move is refused (409) and changes nothing.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  auditLog,
  membershipState,
  memberships,
  orderState,
  orders,
  paymentState,
  payments,
  registrationState,
  registrations,
  user,
  waitlistEntries,
  waitlistState,
} from "~/db/schema";
import type { DomainError } from "~/lib/lifecycle.server";
import { useTestDatabase } from "../../tests/helpers/db";
import { MembershipError, membershipMachine } from "./membership/membership.server";
import { OrderError, orderMachine } from "./orders/orders.server";
import { paymentMachine } from "./orders/payments.server";
import {
  RegistrationError,
  registrationMachine,
  waitlistMachine,
} from "./registrations/registrations.server";
import { insertEvent } from "./registrations/test-fixtures";

const database = useTestDatabase();
const actor = { system: "state-machine-test" };

type Walkable<S extends string> = {
  canMove(from: S, to: S): boolean;
  lock(tx: never, id: string): Promise<{ id: string; state: S }>;
  move(tx: never, row: never, to: S, a: typeof actor): Promise<{ state: S }>;
};

/** Every (from, to) pair: allowed ones move and are audited, the rest are refused. */
async function walk<S extends string>(
  machine: Walkable<S>,
  states: readonly S[],
  insert: (state: S) => Promise<string>,
  errorClass: new (...args: never[]) => DomainError,
  entity: string,
) {
  let allowed = 0;
  for (const from of states) {
    for (const to of states) {
      const id = await insert(from);
      const attempt = database.db.transaction(async (tx) => {
        const row = await machine.lock(tx as never, id);
        return machine.move(tx as never, row as never, to, actor);
      });
      if (machine.canMove(from, to)) {
        allowed++;
        await expect(attempt, `${from} → ${to}`).resolves.toMatchObject({ state: to });
        const rows = await database.db
          .select({ action: auditLog.action, details: auditLog.details })
          .from(auditLog)
          .where(and(eq(auditLog.entityId, id), eq(auditLog.entity, entity)));
        expect(rows, `${from} → ${to} audited`).toEqual([
          { action: `${entity}.${to}`, details: { from, to, by: actor.system } },
        ]);
      } else {
        const refused = await attempt.then(
          () => null,
          (error: unknown) => error,
        );
        expect(refused, `${from} → ${to} refused`).toBeInstanceOf(errorClass);
        expect(refused).toMatchObject({ status: 409 });
      }
    }
  }
  return allowed;
}

async function stateOf(table: typeof orders | typeof memberships, id: string) {
  const [row] = await database.db
    .select({ state: table.state })
    .from(table)
    .where(eq(table.id, id));
  return row.state;
}

describe("state machines on the lifecycle kit", () => {
  it("orders: every allowed move, and no other", async () => {
    const insert = async (state: (typeof orderState.enumValues)[number]) => {
      const [row] = await database.db
        .insert(orders)
        .values({
          buyerName: "Walker",
          billingEmail: "walker@example.test",
          currency: "KES",
          totalMinor: 100_00,
          expiresAt: new Date(Date.now() + 3_600_000),
          state,
        })
        .returning({ id: orders.id });
      return row.id;
    };
    const allowed = await walk(orderMachine, orderState.enumValues, insert, OrderError, "order");
    expect(allowed).toBe(6);
    // A refused move leaves the row as it was.
    const id = await insert("refunded");
    await expect(
      database.db.transaction(async (tx) =>
        orderMachine.move(tx, await orderMachine.lock(tx, id), "paid", actor),
      ),
    ).rejects.toThrow("An order that is refunded cannot become paid.");
    expect(await stateOf(orders, id)).toBe("refunded");
  });

  it("payments: every allowed move, and no other", async () => {
    const insert = async (state: (typeof paymentState.enumValues)[number]) => {
      const [row] = await database.db
        .insert(payments)
        .values({
          method: "mpesa",
          reference: `WALK${randomUUID().slice(0, 8).toUpperCase()}`,
          amountMinor: 100_00,
          currency: "KES",
          paidAt: new Date(),
          state,
        })
        .returning({ id: payments.id });
      return row.id;
    };
    const allowed = await walk(
      paymentMachine,
      paymentState.enumValues,
      insert,
      OrderError,
      "payment",
    );
    expect(allowed).toBe(3);
  });

  it("registrations: every allowed move, and no other", async () => {
    const event = await insertEvent(database.db);
    const insert = async (state: (typeof registrationState.enumValues)[number]) => {
      const [row] = await database.db
        .insert(registrations)
        .values({
          eventId: event.id,
          ticketLabel: "Free registration",
          unitAmountMinor: 0,
          attendeeName: "Walker",
          attendeeEmail: "walker@example.test",
          quantity: 1,
          state,
        })
        .returning({ id: registrations.id });
      return row.id;
    };
    const allowed = await walk(
      registrationMachine,
      registrationState.enumValues,
      insert,
      RegistrationError,
      "registration",
    );
    expect(allowed).toBe(6);
  });

  it("waitlist places: every allowed move, and no other", async () => {
    const event = await insertEvent(database.db);
    const insert = async (state: (typeof waitlistState.enumValues)[number]) => {
      const [row] = await database.db
        .insert(waitlistEntries)
        .values({ eventId: event.id, name: "Walker", email: "walker@example.test", state })
        .returning({ id: waitlistEntries.id });
      return row.id;
    };
    const allowed = await walk(
      waitlistMachine,
      waitlistState.enumValues,
      insert,
      RegistrationError,
      "waitlist",
    );
    expect(allowed).toBe(5);
  });

  it("memberships: every allowed move, and no other", async () => {
    const insert = async (state: (typeof membershipState.enumValues)[number]) => {
      const userId = randomUUID();
      await database.db
        .insert(user)
        .values({ id: userId, name: "Walker", email: `${userId}@example.test` });
      const [row] = await database.db
        .insert(memberships)
        .values({ userId, plan: "individual", state, memberName: "Walker", cardCode: userId })
        .returning({ id: memberships.id });
      return row.id;
    };
    const allowed = await walk(
      membershipMachine,
      membershipState.enumValues,
      insert,
      MembershipError,
      "membership",
    );
    expect(allowed).toBe(15);
  });

  it("answers 404 in the domain's words for a row that does not exist", async () => {
    await expect(
      database.db.transaction((tx) => waitlistMachine.lock(tx, randomUUID())),
    ).rejects.toMatchObject({ message: "Waitlist place not found", status: 404 });
  });
});
