import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Worker } from "node:worker_threads";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { dbErrorCode, dbErrorConstraint } from "~/lib/db-errors";
import { PgliteThread } from "./pglite-thread.server";

const open: PgliteThread[] = [];
async function thread(options: { dataDir?: string } = {}) {
  const created = await PgliteThread.create(options);
  open.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

// Starting PGlite in a new thread takes seconds on a busy machine: the tests that only query
// share one thread, each with tables of its own; those about opening, closing, disk and a dying
// thread open their own.
let sharedThread: Promise<PgliteThread> | undefined;
const shared = () => {
  sharedThread ??= PgliteThread.create();
  return sharedThread;
};
let tables = 0;
const table = () => `t${++tables}`;
afterAll(async () => {
  await (await sharedThread)?.close();
});

describe("PGlite on its own thread", () => {
  it("answers queries in object and array row modes, with parsers run on the caller's side", async () => {
    const db = await shared();
    const objects = await db.query<{ n: number; at: unknown; tags: string[] }>(
      "select $1::int + 1 as n, '2027-03-01 09:00:00+03'::timestamptz as at, array['a','b'] as tags",
      [41],
    );
    expect(objects.rows).toEqual([{ n: 42, at: expect.any(Date), tags: ["a", "b"] }]);
    // Drizzle asks for timestamps as PostgreSQL's text; a parser given here is applied here.
    const arrays = await db.query<unknown[]>(
      "select '2027-03-01 09:00:00+03'::timestamptz as at, 'x' as label",
      [],
      { rowMode: "array", parsers: { 1184: (text) => `parsed:${text}` } },
    );
    expect(arrays.rows).toEqual([["parsed:2027-03-01 06:00:00+00", "x"]]);
    expect(arrays.fields.map((f) => f.name)).toEqual(["at", "label"]);
  });

  it("keeps PostgreSQL's error fields, so form messages can be chosen from them", async () => {
    const db = await shared();
    const t = table();
    await db.query(`create table ${t} (title text constraint ${t}_title_key unique)`);
    await db.query(`insert into ${t} values ('Summit')`);
    const error = await db.query(`insert into ${t} values ('Summit')`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(dbErrorCode(error)).toBe("23505");
    expect(dbErrorConstraint(error)).toBe(`${t}_title_key`);
    expect(String((error as Error).message)).toContain("duplicate key");
    // The thread still answers after an error.
    expect((await db.query(`select count(*)::int as n from ${t}`)).rows).toEqual([{ n: 1 }]);
  });

  it("commits a transaction that resolves and rolls back one that throws", async () => {
    const db = await shared();
    const t = table();
    await db.query(`create table ${t} (n int)`);
    const value = await db.transaction(async (tx) => {
      await tx.query(`insert into ${t} values (1)`);
      return "done";
    });
    expect(value).toBe("done");
    const failure = new Error("form invalid");
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`insert into ${t} values (2)`);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await db.query(`select n from ${t} order by n`)).rows).toEqual([{ n: 1 }]);
  });

  it("runs a query from outside a transaction only after the transaction ends", async () => {
    const db = await shared();
    const t = table();
    await db.query(`create table ${t} (n int)`);
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.query(`insert into ${t} values (1)`);
      outside = db.query<{ n: number }>(`select count(*)::int as n from ${t}`).then((r) => {
        order.push(`outside saw ${r.rows[0].n}`);
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.query(`insert into ${t} values (2)`);
      order.push("transaction done");
    });
    await outside;
    expect(order).toEqual(["transaction done", "outside saw 2"]);
  });

  it("runs transactions asked for at once one after the other, and recovers from a failed one", async () => {
    const db = await shared();
    const t = table();
    await db.query(`create table ${t} (n int primary key)`);
    const log: string[] = [];
    const results = await Promise.allSettled(
      [1, 2, 1].map((n, i) =>
        db.transaction(async (tx) => {
          log.push(`begin ${i}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
          await tx.query(`insert into ${t} values ($1)`, [n]);
          log.push(`end ${i}`);
        }),
      ),
    );
    expect(log).toEqual(["begin 0", "end 0", "begin 1", "end 1", "begin 2"]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    expect(dbErrorCode((results[2] as PromiseRejectedResult).reason)).toBe("23505");
    expect((await db.query(`select n from ${t} order by n`)).rows).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("answers a transaction's queries without waiting behind this thread's other work", async () => {
    const db = await shared();
    const t = table();
    await db.query(`create table ${t} (n int)`);
    let otherWorkRan = false;
    await db.transaction(async (tx) => {
      setImmediate(() => {
        otherWorkRan = true;
      });
      await tx.query(`insert into ${t} values (1)`);
      await tx.query(`select * from ${t}`);
      // The answers came before the event loop's next turn: the database was never left idle
      // waiting for this thread while the transaction held it.
      expect(otherWorkRan).toBe(false);
    });
  });

  it("runs a read with transaction-local settings in one round trip, without blocking this thread", async () => {
    const db = await shared();
    let otherWorkRan = false;
    setImmediate(() => {
      otherWorkRan = true;
    });
    const read = db.queryWithSettings<unknown[]>(
      { enable_seqscan: "off", "pg_trgm.similarity_threshold": "0.5" },
      // The worker takes 50 ms over it, so this thread's next turn comes before the answer
      // whichever phase of the event loop the test itself started in.
      "select current_setting('enable_seqscan'), current_setting('pg_trgm.similarity_threshold'), $1::int from pg_sleep(0.05)",
      [7],
      { rowMode: "array" },
    );
    expect((await read).rows).toEqual([["off", "0.5", 7]]);
    // Asynchronous: this thread went on with its other work while the worker answered.
    expect(otherWorkRan).toBe(true);
    // The settings ended with the read's own transaction.
    const after = await db.query<unknown[]>("select current_setting('enable_seqscan')", [], {
      rowMode: "array",
    });
    expect(after.rows).toEqual([["on"]]);
    // A failing read rolls back and leaves the database usable.
    await expect(db.queryWithSettings({ enable_seqscan: "off" }, "select 1/0")).rejects.toThrow(
      /division by zero/,
    );
    expect((await db.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
  });

  it("keeps data written before close on disk", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "kongamano-thread-"));
    try {
      const first = await PgliteThread.create({ dataDir: dir });
      await first.query("create table t (title text)");
      await first.query("insert into t values ('Nairobi')");
      await first.close({ checkpoint: true });
      const second = await thread({ dataDir: dir });
      expect((await second.query("select title from t")).rows).toEqual([{ title: "Nairobi" }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives a closed in-memory database's thread to the next one, which starts from its own data", async () => {
    const workerOf = (t: PgliteThread) => (t as unknown as { worker: Worker }).worker;
    const first = await PgliteThread.create();
    await first.query("create table kept (title text)");
    await first.query("insert into kept values ('Nairobi')");
    const worker = workerOf(first);
    await first.close();
    const second = await thread();
    expect(workerOf(second)).toBe(worker);
    expect(
      (await second.query("select count(*)::int as n from pg_tables where tablename = 'kept'"))
        .rows,
    ).toEqual([{ n: 0 }]);
    // The closed handle stays closed: it never reaches the database now in its thread.
    await expect(first.query("select 1")).rejects.toThrow(/closed/);
    expect((await second.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
  });

  it("opens a new thread when the kept one has died", async () => {
    const workerOf = (t: PgliteThread) => (t as unknown as { worker: Worker }).worker;
    const first = await PgliteThread.create();
    const worker = workerOf(first);
    await first.close();
    await worker.terminate();
    const second = await thread();
    expect(workerOf(second)).not.toBe(worker);
    expect((await second.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
  });

  it("fails waiting and later queries, instead of hanging, when the thread dies", async () => {
    const db = await thread();
    const waiting = db.query("select pg_sleep(0.5)");
    await (db as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await expect(waiting).rejects.toThrow(/database thread stopped/);
    await expect(db.query("select 1")).rejects.toThrow(/database thread stopped/);
  });

  it("fails to open, with PGlite's reason, a data directory that is not a database", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "kongamano-thread-"));
    try {
      const { writeFileSync } = await import("node:fs");
      writeFileSync(path.join(dir, "PG_VERSION"), "not a version");
      await expect(PgliteThread.create({ dataDir: dir })).rejects.toBeInstanceOf(Error);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
