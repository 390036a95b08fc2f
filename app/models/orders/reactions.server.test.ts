// A process that registered the order jobs but not the wiring's reactions: what a paid or closed
// order should set off is refused loudly (a failed job, a refused cancel), never skipped.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { jobs, orders, user } from "~/db/schema";
import { setEnv } from "~/lib/env.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { testEnv } from "../../../tests/helpers/env";
import { registerBuiltInJobs, runDueJobs } from "../jobs.server";
import { registerOrderJobs } from "./order-jobs.server";
import { cancelOrder, createOrder, type NewOrder, recordPayment } from "./orders.server";

describe("orders without the wiring's reactions", () => {
  const database = useTestDatabase();
  const system = { system: "unwired-test" };
  const buyer = { id: randomUUID(), name: "Otieno", email: "otieno@example.test" };

  beforeAll(async () => {
    await database.db.insert(user).values(buyer);
    setEnv(testEnv());
    registerBuiltInJobs();
    registerOrderJobs();
  });

  const membershipOrder = (): NewOrder => ({
    buyer,
    currency: "KES",
    holdMs: 3_600_000,
    lines: [
      {
        kind: "membership_term",
        referenceId: randomUUID(),
        description: "Individual membership, one year",
        quantity: 1,
        unitAmountMinor: 3_000_00,
      },
    ],
  });

  it("fails the unlock job of a paid order whose line kind nobody defined", async () => {
    const { order, invoiceNumber } = await createOrder(membershipOrder());
    await recordPayment(
      {
        method: "bank_transfer",
        reference: "UNWIRED001",
        amountMinor: 3_000_00,
        currency: "KES",
        paidAt: new Date(),
        invoiceNumber,
      },
      system,
    );
    const unlock = eq(jobs.uniqueKey, `order:${order.id}:unlock`);
    await database.db.update(jobs).set({ maxAttempts: 1 }).where(unlock);
    while ((await runDueJobs({ limit: 50 })) > 0) {}
    const [job] = await database.db
      .select({ state: jobs.state, lastError: jobs.lastError })
      .from(jobs)
      .where(unlock);
    expect(job.state).toBe("failed");
    expect(job.lastError).toContain("No reactions are defined for membership_term order lines");
  });

  it("refuses to close an order whose line kind nobody defined, and leaves it open", async () => {
    const { order } = await createOrder(membershipOrder());
    await expect(cancelOrder(order.id, system)).rejects.toThrow(/No reactions are defined/);
    const [row] = await database.db
      .select({ state: orders.state })
      .from(orders)
      .where(eq(orders.id, order.id));
    expect(row.state).toBe("awaiting_payment");
  });
});
