import type { SQLWrapper } from "drizzle-orm";
import type { Database, DbTransaction } from "./client.server";

/**
 * Starts a statement that carries other writes with it as WITH queries, so they all take one
 * round trip: `alongside(tx, [auditRow, job]).update(orders).set(…)` (issue 33: on this machine
 * each statement costs the instance and PostgreSQL about a millisecond of CPU). For writes that
 * need nothing back from one another. PostgreSQL runs every data-modifying WITH query to
 * completion against the statement's one snapshot, and checks foreign keys at the statement's
 * end, so a row may name a row the statement itself inserts (an order's lines and the order). Two
 * of them must not change the same row.
 */
export function alongside(db: Database | DbTransaction, writes: SQLWrapper[]) {
  return db.with(...writes.map((write, i) => db.$with(`alongside_${i}`, {}).as(write.getSQL())));
}
