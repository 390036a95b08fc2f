// The lifecycle kit (style.md rule 13): who acts, the audit row in the change's transaction, the
// one domain error, and state machines that lock the row, refuse illegal moves and audit the move.
// Orders, registrations, waitlist places and memberships use it; a new machine declares a table.
import { eq } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { alongside } from "~/db/alongside";
import type { DbTransaction } from "~/db/client.server";
import { auditInsert } from "./audit.server";
import type { Role } from "./roles";

export type Tx = DbTransaction;

/** A signed-in person (with the request, for the audit row's IP and user agent). */
export type PersonActor = { id: string; role: Role; request?: Request | null };
/** Who does something: a person, or the system (named: the job or sweep that acts). */
export type Actor = PersonActor | { system: string };

export function isPerson(actor: Actor): actor is PersonActor {
  return "id" in actor;
}

export function actorId(actor: Actor): string | null {
  return isPerson(actor) ? actor.id : null;
}

/**
 * Writes the audit row of a change inside its transaction (they commit or roll back together):
 * the entity is the action's prefix (`order.paid` → `order`); a system actor is named in `by`.
 */
export async function auditIn(
  tx: Tx,
  actor: Actor,
  action: string,
  entityId: string,
  details: Record<string, unknown> = {},
) {
  await auditWrite(tx, actor, action, entityId, details);
}

/**
 * `auditIn`'s insert, not yet run: sent with the change it records as one statement
 * (`alongside(tx, [auditWrite(…)]).update(…)`), one round trip where there were two.
 */
export function auditWrite(
  tx: Tx,
  actor: Actor,
  action: string,
  entityId: string,
  details: Record<string, unknown> = {},
) {
  return auditInsert(tx, isPerson(actor) ? (actor.request ?? null) : null, {
    action,
    actorId: actorId(actor),
    entity: action.split(".")[0],
    entityId,
    details: { ...details, ...(isPerson(actor) ? {} : { by: actor.system }) },
  });
}

export type DomainErrorStatus = 400 | 403 | 404 | 409 | 410 | 429;

/**
 * An expected refusal a route shows to the person: the HTTP status, and the form field the
 * message belongs under (when it is about one) or a code the page acts on.
 */
export class DomainError extends Error {
  constructor(
    message: string,
    readonly status: DomainErrorStatus = 409,
    readonly field?: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Every legal move of a machine: from each state, the states it may become. */
export type TransitionTable<S extends string> = Readonly<Record<S, readonly S[]>>;

type MachineTable = PgTable & { id: AnyPgColumn; state: AnyPgColumn };

export type MachineSpec<S extends string> = {
  /** What the audit rows call it (`order` → `order.paid`) and the refusal names. */
  entity: string;
  /** How people name it in messages ("order", "waitlist place"). */
  noun: string;
  table: MachineTable;
  transitions: TransitionTable<S>;
  /** The domain's error (a DomainError subclass, so its routes keep their `instanceof`). */
  error: (message: string, status?: DomainErrorStatus) => DomainError;
};

export type Move<Row> = {
  /** Other columns that change with the state (timestamps, reasons). */
  set?: Partial<Row>;
  /** The audit row's details beyond `from` and `to`. */
  details?: Record<string, unknown>;
  /** The audit action when it is not `<entity>.<to>` (e.g. `registration.cancel`). */
  action?: string;
};

const human = (state: string) => state.replace(/_/g, " ");

/**
 * A state machine over one table. `lock` takes the row (SELECT … FOR UPDATE); `move` refuses a
 * move its table does not allow with the domain error (409), then changes the state with the
 * other columns given and writes `{ from, to, …details }` as the audit row, in the caller's
 * transaction.
 */
export function defineMachine<S extends string, Row extends { id: string; state: S }>(
  spec: MachineSpec<S>,
) {
  const { table, transitions } = spec;
  const article = /^[aeiou]/i.test(spec.noun) ? "An" : "A";
  const machine = {
    transitions,
    canMove(from: S, to: S) {
      return transitions[from].includes(to);
    },
    assertCanMove(from: S, to: S) {
      if (!machine.canMove(from, to)) {
        throw spec.error(
          `${article} ${spec.noun} that is ${human(from)} cannot become ${human(to)}.`,
        );
      }
    },
    async lock(tx: Tx, id: string): Promise<Row> {
      const [row] = await tx.select().from(table).where(eq(table.id, id)).for("update");
      if (!row)
        throw spec.error(`${spec.noun[0].toUpperCase()}${spec.noun.slice(1)} not found`, 404);
      return row as unknown as Row;
    },
    async move(tx: Tx, row: Row, to: S, actor: Actor, change: Move<Row> = {}): Promise<Row> {
      machine.assertCanMove(row.state, to);
      // The move and its audit row in one statement.
      const audit = auditWrite(tx, actor, change.action ?? `${spec.entity}.${to}`, row.id, {
        from: row.state,
        to,
        ...change.details,
      });
      const [updated] = await alongside(tx, [audit])
        .update(table)
        .set({ ...change.set, state: to } as never)
        .where(eq(table.id, row.id))
        .returning();
      return updated as unknown as Row;
    },
  };
  return machine;
}
