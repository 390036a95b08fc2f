import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { jobs, sentMail } from "~/db/schema";
import { env, parseEnv, setEnv } from "~/lib/env.server";
import { sendMailOnce } from "~/lib/mail.server";
import { useTestDatabase } from "../../tests/helpers/db";
import { startTestSmtp } from "../../tests/helpers/smtp";
import {
  countFailedJobs,
  DEFAULT_LEASE_MS,
  defineJob,
  defineSchedule,
  enqueueJob,
  enqueueMail,
  jobsInsert,
  listJobsForAdmin,
  registerBuiltInJobs,
  retryDelayMs,
  retryFailedJob,
  runDueJobs,
  startJobWorker,
} from "./jobs.server";
import { securityRecommendations } from "./security/security.server";
import { auditRowsFor, createActor } from "./shared/test-support";

const database = useTestDatabase();

async function jobRow(id: string) {
  const [row] = await database.db.select().from(jobs).where(eq(jobs.id, id));
  return row;
}

/** Makes a job that waits for its backoff due now (the test does not sleep 15 s). */
async function makeDue(id: string) {
  await database.db.update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.id, id));
}

// The jobs' own kinds (mail, pruning); the domains' jobs are not needed here.
registerBuiltInJobs();

describe("durable jobs", () => {
  it("runs a due job once, and not again on later passes", async () => {
    const ran: string[] = [];
    defineJob<{ order: string }>("test.once", async (payload) => {
      ran.push(payload.order);
    });
    const { id, created } = await enqueueJob(database.db, {
      kind: "test.once",
      payload: { order: "A-1" },
    });
    expect(created).toBe(true);
    await runDueJobs();
    await runDueJobs();
    expect(ran).toEqual(["A-1"]);
    const row = await jobRow(id);
    expect(row.state).toBe("succeeded");
    expect(row.attempts).toBe(1);
    expect(row.finishedAt).toBeInstanceOf(Date);
    expect(row.lockedUntil).toBeNull();
  });

  it("enqueues several jobs in one statement: each keeps its own run_at, a known key is left as it is", async () => {
    const ran: string[] = [];
    defineJob<{ step: string }>("test.batch", async (payload) => {
      ran.push(payload.step);
    });
    const key = `batch:${Date.now()}`;
    await enqueueJob(database.db, {
      kind: "test.batch",
      payload: { step: "first" },
      uniqueKey: `${key}:a`,
    });
    const later = new Date(Date.now() + 3_600_000);
    const created = await jobsInsert(database.db, [
      { kind: "test.batch", payload: { step: "again" }, uniqueKey: `${key}:a` },
      { kind: "test.batch", payload: { step: "now" }, uniqueKey: `${key}:b` },
      { kind: "test.batch", payload: { step: "later" }, runAt: later, uniqueKey: `${key}:c` },
    ]).returning({ id: jobs.id });
    expect(created).toHaveLength(2);
    await runDueJobs();
    expect(ran.sort()).toEqual(["first", "now"]);
    const [row] = await database.db
      .select()
      .from(jobs)
      .where(eq(jobs.uniqueKey, `${key}:c`));
    expect(row.state).toBe("queued");
    expect(row.runAt.getTime()).toBe(later.getTime());
  });

  it("waits for run_at: a job due in the future does not run before then", async () => {
    let runs = 0;
    defineJob("test.later", async () => {
      runs++;
    });
    const { id } = await enqueueJob(database.db, {
      kind: "test.later",
      runAt: new Date(Date.now() + 60 * 60_000),
    });
    await runDueJobs();
    expect(runs).toBe(0);
    expect((await jobRow(id)).state).toBe("queued");
    await makeDue(id);
    await runDueJobs();
    expect(runs).toBe(1);
  });

  it("dedupes by uniqueKey: the second enqueue returns the first job", async () => {
    let runs = 0;
    defineJob("test.unique", async () => {
      runs++;
    });
    const first = await enqueueJob(database.db, { kind: "test.unique", uniqueKey: "expire:o-7" });
    const second = await enqueueJob(database.db, { kind: "test.unique", uniqueKey: "expire:o-7" });
    expect(second).toEqual({ id: first.id, created: false });
    await runDueJobs();
    // Still deduped once it has run: the key stays taken.
    expect(await enqueueJob(database.db, { kind: "test.unique", uniqueKey: "expire:o-7" })).toEqual(
      { id: first.id, created: false },
    );
    expect(runs).toBe(1);
  });

  it("enqueues inside the caller's transaction: a rollback leaves no job", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueJob(tx, { kind: "test.tx", uniqueKey: "tx-rolled-back" });
        throw new Error("order insert failed");
      }),
    ).rejects.toThrow("order insert failed");
    const rows = await database.db.select().from(jobs).where(eq(jobs.uniqueKey, "tx-rolled-back"));
    expect(rows).toHaveLength(0);
  });

  it("retries a failing job with growing backoff, then marks it failed for admins", async () => {
    let calls = 0;
    defineJob(
      "test.flaky",
      async () => {
        calls++;
        throw new Error(`gateway timeout #${calls}`);
      },
      { maxAttempts: 3 },
    );
    const { id } = await enqueueJob(database.db, { kind: "test.flaky" });
    const failedBefore = await countFailedJobs();

    await runDueJobs();
    let row = await jobRow(id);
    expect(row.state).toBe("queued");
    expect(row.attempts).toBe(1);
    expect(row.lastError).toBe("gateway timeout #1");
    const delay = row.runAt.getTime() - Date.now();
    expect(delay).toBeGreaterThan(retryDelayMs(1) - 5_000);
    expect(delay).toBeLessThanOrEqual(retryDelayMs(1) + 1_000);

    await runDueJobs(); // not due yet: backoff holds it
    expect(calls).toBe(1);

    await makeDue(id);
    await runDueJobs();
    row = await jobRow(id);
    expect(row.state).toBe("queued");
    expect(row.runAt.getTime() - Date.now()).toBeGreaterThan(retryDelayMs(2) - 5_000);

    await makeDue(id);
    await runDueJobs();
    row = await jobRow(id);
    expect(calls).toBe(3);
    expect(row.state).toBe("failed");
    expect(row.attempts).toBe(3);
    expect(row.lastError).toBe("gateway timeout #3");
    expect(await countFailedJobs()).toBe(failedBefore + 1);
    expect((await listJobsForAdmin(["failed"])).map((j) => j.id)).toContain(id);
    const advice = await securityRecommendations();
    expect(advice.find((r) => r.id === "failed-jobs")).toMatchObject({
      title: `${failedBefore + 1} scheduled job${failedBefore ? "s" : ""} failed`,
      href: "/admin/jobs",
    });

    await makeDue(id);
    await runDueJobs(); // failed for good: nothing runs it again by itself
    expect(calls).toBe(3);
  });

  it("backoff doubles from 15 s and is capped at an hour", () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([15_000, 30_000, 60_000, 120_000]);
    expect(retryDelayMs(30)).toBe(60 * 60_000);
  });

  it("an admin's retry runs a failed job again and is in the activity log", async () => {
    let fail = true;
    let successes = 0;
    defineJob(
      "test.retry",
      async () => {
        if (fail) throw new Error("SMTP refused");
        successes++;
      },
      { maxAttempts: 1 },
    );
    const { id } = await enqueueJob(database.db, { kind: "test.retry" });
    await runDueJobs();
    expect((await jobRow(id)).state).toBe("failed");

    fail = false;
    const admin = await createActor(database.db, "admin");
    expect(await retryFailedJob(admin.ctx, id)).toBe(true);
    expect(await retryFailedJob(admin.ctx, id)).toBe(false); // queued now, not failed
    await runDueJobs();
    expect(successes).toBe(1);
    expect((await jobRow(id)).state).toBe("succeeded");
    expect(await auditRowsFor(database.db, "job", id)).toEqual([
      { action: "job.retry", actorId: admin.id, details: { kind: "test.retry" } },
    ]);
  });

  it("a job left running by a crashed worker runs again once its lease has expired", async () => {
    let runs = 0;
    defineJob("test.crash", async (_payload, ctx) => {
      runs++;
      expect(ctx.attempt).toBe(2);
    });
    const { id } = await enqueueJob(database.db, { kind: "test.crash" });
    // What a worker that died mid-job leaves behind: running, attempt 1, lease in the future.
    await database.db
      .update(jobs)
      .set({
        state: "running",
        attempts: 1,
        lockedBy: "dead-worker",
        lockedUntil: sql`now() + interval '1 minute'`,
      })
      .where(eq(jobs.id, id));
    await runDueJobs();
    expect(runs).toBe(0); // the lease still holds it

    await database.db
      .update(jobs)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(jobs.id, id));
    await runDueJobs();
    expect(runs).toBe(1);
    const row = await jobRow(id);
    expect(row.state).toBe("succeeded");
    expect(row.attempts).toBe(2);
  });

  it("a crashed worker's job on its last attempt ends failed with the reason", async () => {
    let runs = 0;
    defineJob("test.crash-last", async () => {
      runs++;
    });
    const { id } = await enqueueJob(database.db, { kind: "test.crash-last", maxAttempts: 2 });
    await database.db
      .update(jobs)
      .set({
        state: "running",
        attempts: 2,
        lockedBy: "dead-worker",
        lockedUntil: sql`now() - interval '1 second'`,
      })
      .where(eq(jobs.id, id));
    await runDueJobs();
    expect(runs).toBe(0);
    const row = await jobRow(id);
    expect(row.state).toBe("failed");
    expect(row.lastError).toMatch(/lease expired/);
  });

  /** A lease timer driven by the test: `tick()` is one interval going by. */
  function handLeaseTimer() {
    const timer = {
      everyMs: 0,
      renew: undefined as (() => Promise<void>) | undefined,
      stopped: false,
      async tick() {
        await timer.renew?.();
      },
      start: (renew: () => Promise<void>, everyMs: number) => {
        timer.renew = renew;
        timer.everyMs = everyMs;
        return () => {
          timer.stopped = true;
        };
      },
    };
    return timer;
  }

  /** Moves a running job's lease `ms` closer to its end, as that much time passing would. */
  async function ageLease(id: string, ms: number) {
    await database.db
      .update(jobs)
      .set({ lockedUntil: sql`${jobs.lockedUntil} - ${ms} * interval '1 millisecond'` })
      .where(eq(jobs.id, id));
  }

  /** A handler that blocks until released; `started` resolves once it runs. */
  function blockingHandler() {
    let release = () => {};
    let started = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const block = () => {
      started();
      return done;
    };
    return { running, release: () => release(), block };
  }

  it("renews the lease while a long job runs, so no other worker takes it", async () => {
    const long = blockingHandler();
    let runs = 0;
    defineJob("test.long", async () => {
      runs++;
      await long.block();
    });
    const { id } = await enqueueJob(database.db, { kind: "test.long" });
    const timer = handLeaseTimer();
    const first = runDueJobs({ workerId: "worker-a", leaseMs: 3_000, leaseTimer: timer.start });
    await long.running;
    expect(timer.everyMs).toBe(1_000); // a third of the lease, at least a second
    // Four seconds go by, longer than the 3 s lease; the renewal fires each second.
    for (let second = 0; second < 4; second++) {
      await ageLease(id, 1_000);
      await timer.tick();
    }
    await runDueJobs({ workerId: "worker-b", leaseMs: 3_000 });
    expect(runs).toBe(1);
    const row = await jobRow(id);
    expect(row.lockedBy).toBe("worker-a");
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 1_000);
    long.release();
    await first;
    expect((await jobRow(id)).state).toBe("succeeded");
    expect(timer.stopped).toBe(true);
  });

  it("without renewal the same four seconds let another worker take the job", async () => {
    const stalled = blockingHandler();
    const attempts: number[] = [];
    defineJob("test.unrenewed", async (_payload, ctx) => {
      attempts.push(ctx.attempt);
      if (ctx.attempt === 1) await stalled.block();
    });
    const { id } = await enqueueJob(database.db, { kind: "test.unrenewed" });
    const timer = handLeaseTimer();
    const first = runDueJobs({ workerId: "worker-a", leaseMs: 3_000, leaseTimer: timer.start });
    await stalled.running;
    await ageLease(id, 4_000); // the timer never fires
    await runDueJobs({ workerId: "worker-b", leaseMs: 3_000 });
    expect(attempts).toEqual([1, 2]);
    expect((await jobRow(id)).lockedBy).toBe("worker-b");
    stalled.release();
    await first;
  });

  it("the lease renews every third of the lease, and never more often than once a second", async () => {
    for (const [leaseMs, everyMs] of [
      [DEFAULT_LEASE_MS, 20_000],
      [1_500, 1_000],
    ]) {
      const job = blockingHandler();
      defineJob(`test.interval-${leaseMs}`, async () => job.block());
      await enqueueJob(database.db, { kind: `test.interval-${leaseMs}` });
      const timer = handLeaseTimer();
      const run = runDueJobs({ leaseMs, leaseTimer: timer.start });
      await job.running;
      expect(timer.everyMs).toBe(everyMs);
      job.release();
      await run;
    }
  });

  it("a worker that lost its lease cannot overwrite the new holder's outcome", async () => {
    const late = blockingHandler();
    defineJob("test.lost-lease", async (_payload, ctx) => {
      if (ctx.attempt === 1) {
        await late.block();
        throw new Error("late failure from the first worker");
      }
    });
    const { id } = await enqueueJob(database.db, { kind: "test.lost-lease" });
    const first = runDueJobs({ workerId: "worker-a", leaseMs: DEFAULT_LEASE_MS });
    await late.running;
    // Worker A looks dead (its lease ran out); worker B takes over and succeeds.
    await database.db
      .update(jobs)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(jobs.id, id));
    await runDueJobs({ workerId: "worker-b" });
    expect((await jobRow(id)).state).toBe("succeeded");
    late.release();
    await first;
    const row = await jobRow(id);
    expect(row.state).toBe("succeeded");
    expect(row.attempts).toBe(2);
  });

  it("startJobWorker polls on its own and stop() waits for the running job", async () => {
    const job = blockingHandler();
    let finished = false;
    defineJob("test.worker", async () => {
      await job.block();
      finished = true;
    });
    const { id } = await enqueueJob(database.db, { kind: "test.worker" });
    const worker = startJobWorker({ pollMs: 50 });
    await job.running;
    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    // Several turns of the event loop: stop() is still waiting for the job.
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    job.release();
    await stopping;
    expect(finished).toBe(true);
    expect((await jobRow(id)).state).toBe("succeeded");
  });

  it("steps back while the site is busy: one job a pass, then a pause; all of them once it is not", async () => {
    const ran: number[] = [];
    let passes = 0;
    defineJob<{ n: number }>("test.busy", async ({ n }) => {
      ran.push(n);
    });
    for (let n = 0; n < 8; n++)
      await enqueueJob(database.db, { kind: "test.busy", payload: { n } });
    let busy = true;
    // A long pause between passes: while busy, the first pass runs one job and then waits.
    const worker = startJobWorker({
      pollMs: 60_000,
      busy: () => {
        passes++;
        return busy;
      },
    });
    await expect.poll(() => ran.length).toBe(1);
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(ran).toHaveLength(1);
    expect(passes).toBe(1);
    await worker.stop();
    // Not busy: passes of five follow one another until nothing is due.
    busy = false;
    const calm = startJobWorker({ pollMs: 60_000, busy: () => busy });
    await expect.poll(() => ran.length).toBe(8);
    await calm.stop();
  });

  it("stop() gives up on a hung job after its timeout, leaving it to the lease", async () => {
    let release = () => {};
    let finished = false;
    defineJob("test.hung", async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      finished = true;
    });
    const { id } = await enqueueJob(database.db, { kind: "test.hung" });
    const worker = startJobWorker({ pollMs: 50 });
    await expect.poll(async () => (await jobRow(id)).state).toBe("running");
    const started = Date.now();
    await worker.stop(20);
    expect(Date.now() - started).toBeLessThan(2_000);
    const row = await jobRow(id);
    expect(row.state).toBe("running");
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now()); // until the lease runs out
    release();
    await expect.poll(() => finished).toBe(true);
  });

  it("a schedule enqueues each slot once and runs it", async () => {
    const slots: Date[] = [];
    const everyMs = 24 * 60 * 60_000;
    defineSchedule("test.sweep", everyMs, async ({ slot }) => {
      slots.push(slot);
    });
    await runDueJobs();
    await runDueJobs();
    const slot = Math.floor(Date.now() / everyMs);
    expect(slots).toEqual([new Date(slot * everyMs)]);
    const [row] = await database.db
      .select()
      .from(jobs)
      .where(eq(jobs.uniqueKey, `schedule:test.sweep:${slot}`));
    expect(row.state).toBe("succeeded");
  });
});

describe("e-mail sent once per key", () => {
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let previous: ReturnType<typeof env>;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    previous = env();
    setEnv(
      parseEnv({
        NODE_ENV: "test",
        DATA_DIR: previous.DATA_DIR,
        BASE_URL: previous.BASE_URL,
        SESSION_SECRET: previous.SESSION_SECRET,
        LOG_LEVEL: "silent",
        SMTP_URL: smtp.url,
      }),
    );
  });
  afterAll(async () => {
    setEnv(previous);
    await smtp.close();
  });

  it("sendMailOnce sends a key's mail once, with its attachment and a stable Message-ID", async () => {
    const mail = {
      to: "amina@example.com",
      subject: "Receipt RCT-2027-000001",
      text: "Thank you for your payment.",
      attachments: [
        {
          filename: "receipt.pdf",
          content: Buffer.from("%PDF-1.7 test"),
          contentType: "application/pdf",
        },
      ],
    };
    expect(await sendMailOnce("receipt:p-1", mail)).toBe("sent");
    expect(await sendMailOnce("receipt:p-1", mail)).toBe("already-sent");
    // sendMailOnce returns once the SMTP server has accepted (and kept) the message: a second
    // one would already be here.
    const received = smtp.messages.filter((m) => m.subject === "Receipt RCT-2027-000001");
    expect(received).toHaveLength(1);
    expect(received[0].attachments).toHaveLength(1);
    expect(received[0].attachments[0].filename).toBe("receipt.pdf");
    expect(received[0].attachments[0].content.toString()).toBe("%PDF-1.7 test");
    const [row] = await database.db.select().from(sentMail).where(eq(sentMail.key, "receipt:p-1"));
    expect(received[0].messageId).toBe(row.messageId);
    expect(row.sentAt).toBeInstanceOf(Date);
  });

  it("a failed send releases the key so the job's retry sends it", async () => {
    const mail = { to: "brian@example.com", subject: "Invoice INV-2027-000002", text: "Hello" };
    setEnv({ ...env(), SMTP_URL: "smtp://127.0.0.1:1" }); // nothing listens there
    await expect(sendMailOnce("invoice:o-2", mail)).rejects.toThrow();
    setEnv({ ...env(), SMTP_URL: smtp.url });
    expect(await sendMailOnce("invoice:o-2", mail)).toBe("sent");
    await smtp.waitFor("brian@example.com", /INV-2027-000002/);
  });

  it("a job that sends a mail and then fails is retried without a second mail", async () => {
    let attempts = 0;
    defineJob("test.mail-then-fail", async () => {
      attempts++;
      await sendMailOnce("reminder:r-9", {
        to: "chebet@example.com",
        subject: "Your workshop starts tomorrow",
        text: "See you in Nairobi.",
      });
      if (attempts === 1) throw new Error("crashed after sending");
    });
    const { id } = await enqueueJob(database.db, { kind: "test.mail-then-fail" });
    await runDueJobs();
    await makeDue(id);
    await runDueJobs();
    expect(attempts).toBe(2);
    expect((await jobRow(id)).state).toBe("succeeded");
    // Both attempts have returned, and a send returns once the server has kept the message.
    expect(smtp.messages.filter((m) => m.to.includes("chebet@example.com"))).toHaveLength(1);
  });

  it("enqueueMail delivers through the worker, once per key", async () => {
    const mail = { to: "daudi@example.com", subject: "Membership renewal", text: "Renew now." };
    const first = await enqueueMail(database.db, "renewal:m-3:2027", mail);
    const again = await enqueueMail(database.db, "renewal:m-3:2027", mail);
    expect(again).toEqual({ id: first.id, created: false });
    await runDueJobs();
    await smtp.waitFor("daudi@example.com", /Membership renewal/);
    expect(smtp.messages.filter((m) => m.to.includes("daudi@example.com"))).toHaveLength(1);
  });
});

// Several instances are several processes on one PostgreSQL; the embedded PGlite is one process
// by design (its data directory is locked), so this runs only when TEST_DATABASE_URL is set — as
// CI's second vitest pass does.
describe.runIf(process.env.TEST_DATABASE_URL)("two workers on PostgreSQL", () => {
  const pools: DatabaseHandle[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  it("run each due job exactly once, with separate connection pools racing", async () => {
    const url = (database.handle as DatabaseHandle & { url?: string }).url as string;
    for (let i = 0; i < 2; i++) pools.push(await openDatabase({ databaseUrl: url, poolSize: 4 }));
    const runsByJob = new Map<string, string[]>();
    defineJob("test.race", async (_payload, ctx) => {
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
      runsByJob.set(ctx.jobId, [...(runsByJob.get(ctx.jobId) ?? []), String(ctx.attempt)]);
    });
    const ids: string[] = [];
    for (let i = 0; i < 60; i++)
      ids.push((await enqueueJob(database.db, { kind: "test.race" })).id);

    const ranBy = [0, 0];
    await Promise.all(
      pools.map(async (pool, w) => {
        for (;;) {
          const ran = await runDueJobs({ db: pool.db, workerId: `worker-${w}`, limit: 3 });
          if (ran === 0) break;
          ranBy[w] += ran;
        }
      }),
    );
    expect(ids.every((id) => runsByJob.get(id)?.length === 1)).toBe(true);
    expect(ranBy[0] + ranBy[1]).toBeGreaterThanOrEqual(60);
    expect(ranBy[0]).toBeGreaterThan(0);
    expect(ranBy[1]).toBeGreaterThan(0);
    const states = await database.db
      .select({ state: jobs.state, n: sql<number>`count(*)::int` })
      .from(jobs)
      .where(eq(jobs.kind, "test.race"))
      .groupBy(jobs.state);
    expect(states).toEqual([{ state: "succeeded", n: 60 }]);
  });
});
