// What each kind of order line does when its order is paid, closed or reinstated. The registry is
// filled by the wiring module (app/models/wiring.server.ts) only; orders read it and refuse to run
// a line kind nobody defined, so a process that skipped the wiring fails instead of half-running.
import type { OrderLineKind, OrderRow } from "~/db/schema";
import type { Actor, Tx } from "~/lib/lifecycle.server";

/** Runs in the paid order's unlock job, which retries: it must be idempotent (keyed by the line). */
export type OrderPaidReaction = (
  order: { id: string; buyerId: string | null },
  line: { id: string; referenceId: string; quantity: number },
) => Promise<void>;

/** Runs in the transaction that cancels or expires the order, after the order row changed. */
export type OrderClosedReaction = (
  tx: Tx,
  order: OrderRow,
  change: { to: "cancelled" | "expired"; actor: Actor; reason?: string },
) => Promise<void>;

/**
 * Takes back what a closed order bought before it is reinstated (an event ticket: its seats,
 * under the event's seat lock), in the reinstating transaction; throws an OrderError (409) when
 * it is no longer there.
 */
export type OrderReinstateReaction = (tx: Tx, order: OrderRow, actor: Actor) => Promise<void>;

/**
 * How the order's mails address its payer, when the line kind knows better than the order: a
 * membership's billing contact is greeted by their own name and given a signed link instead of
 * the account page they cannot open (decision 0094). Null: the order's own rule.
 */
export type OrderPayerAddress = (order: {
  id: string;
  buyerId: string | null;
  billingEmail: string;
}) => Promise<{ greetName: string | null; url?: string } | null>;

export type OrderLineReactions = {
  paid: OrderPaidReaction;
  payer?: OrderPayerAddress;
  closed?: OrderClosedReaction;
  /** Required for kinds that hold limited stock: without it their orders are not reinstated. */
  reinstate?: OrderReinstateReaction;
};

const reactions = new Map<OrderLineKind, OrderLineReactions>();

/** Defines what a line kind does (the wiring module; a test may define its own). */
export function defineOrderLineKind(kind: OrderLineKind, kindReactions: OrderLineReactions) {
  reactions.set(kind, kindReactions);
}

/** What a line kind does; throws when no process wiring defined it (the job then fails). */
export function reactionsFor(kind: OrderLineKind): OrderLineReactions {
  const found = reactions.get(kind);
  if (!found) {
    throw new Error(
      `No reactions are defined for ${kind} order lines: the process did not load the wiring module (app/models/wiring.server.ts).`,
    );
  }
  return found;
}
