/**
 * Durable jobs (issue 14, decision 0020): reminders, expiring unpaid orders, renewal notices.
 *
 * A job is a row in `jobs`. A worker claims due rows with `FOR UPDATE SKIP LOCKED` and holds
 * each under a lease (`locked_until`, renewed while the handler runs), so several instances on
 * one PostgreSQL run a job once, a job enqueued while every server was down runs when one
 * starts, and a job whose worker died runs again once the lease expires. Failures are retried
 * with exponential backoff up to `max_attempts`; then the job is `failed` and shown to admins
 * (/admin/jobs), who may retry it. The same code runs on the embedded PGlite (one process).
 *
 * Handlers must be idempotent per attempt: a job may run again after a crash. E-mails go through
 * `sendMailOnce` (app/lib/mail.server.ts) with a key, so a retry never sends one twice.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { type Database, type DbTransaction, getDb, queryRows } from "~/db/client.server";
import { type JobRow, jobs } from "~/db/schema";
import { recordAudit } from "~/lib/audit.server";
import type { PersonActor } from "~/lib/lifecycle.server";
import { logger } from "~/lib/logger.server";
import { type Mail, sendMailOnce } from "~/lib/mail.server";

export type JobPayload = Record<string, unknown>;
export type JobState = JobRow["state"];
type JobContext = { jobId: string; attempt: number };
type Handler = (payload: JobPayload, ctx: JobContext) => Promise<void>;

export const DEFAULT_MAX_ATTEMPTS = 5;
/** How long a claimed job is held before another worker may take it (renewed while running). */
export const DEFAULT_LEASE_MS = 60_000;
const RETRY_BASE_MS = 15_000;
const RETRY_MAX_MS = 60 * 60_000;
const ERROR_MAX_CHARS = 2_000;

const handlers = new Map<string, { handler: Handler; maxAttempts?: number }>();
const schedules = new Map<string, { everyMs: number; lastSlot?: number }>();

/** Registers the handler for a kind (from the wiring module, app/models/wiring.server.ts). */
export function defineJob<P extends JobPayload>(
  kind: string,
  handler: (payload: P, ctx: JobContext) => Promise<void>,
  options: { maxAttempts?: number } = {},
): void {
  handlers.set(kind, { handler: handler as Handler, maxAttempts: options.maxAttempts });
}

/**
 * Runs `kind` every `everyMs` (e.g. a sweep of unpaid orders): each worker pass enqueues the
 * current slot with the unique key `schedule:<kind>:<slot>`, so several instances enqueue it once.
 * Slots missed while every server was down are not replayed: the next one runs.
 */
export function defineSchedule(
  kind: string,
  everyMs: number,
  handler: (ctx: JobContext & { slot: Date }) => Promise<void>,
  options: { maxAttempts?: number } = {},
): void {
  if (!Number.isInteger(everyMs) || everyMs < 1_000) {
    throw new Error(`Schedule ${kind}: everyMs must be an integer of at least 1000`);
  }
  defineJob<{ slot: string }>(
    kind,
    (payload, ctx) => handler({ ...ctx, slot: new Date(payload.slot) }),
    options,
  );
  schedules.set(kind, { everyMs });
}

type NewJob = {
  kind: string;
  payload?: JobPayload;
  runAt?: Date;
  uniqueKey?: string;
  maxAttempts?: number;
};

function jobValues(job: NewJob) {
  return {
    kind: job.kind,
    payload: job.payload ?? {},
    maxAttempts: job.maxAttempts ?? handlers.get(job.kind)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    uniqueKey: job.uniqueKey ?? null,
    ...(job.runAt ? { runAt: job.runAt } : {}),
  };
}

/**
 * Inserts a job; inside the caller's transaction when given one (tx or db). uniqueKey dedupes:
 * a second enqueue with the same key returns { created: false } and the existing id.
 */
export async function enqueueJob(
  db: Database | DbTransaction,
  job: NewJob,
): Promise<{ id: string; created: boolean }> {
  const [inserted] = await db
    .insert(jobs)
    .values(jobValues(job))
    .onConflictDoNothing({ target: jobs.uniqueKey })
    .returning({ id: jobs.id });
  if (inserted) return { id: inserted.id, created: true };
  const [existing] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(eq(jobs.uniqueKey, job.uniqueKey as string));
  return { id: existing.id, created: false };
}

/**
 * Several jobs in one insert (an order's invoice mail, expiry and reminder), not yet run: sent
 * with the write that needs them as one statement (`alongside`), or awaited on its own. A job
 * whose uniqueKey is already there is left as it is.
 */
export function jobsInsert(db: Database | DbTransaction, list: [NewJob, ...NewJob[]]) {
  return db
    .insert(jobs)
    .values(list.map(jobValues))
    .onConflictDoNothing({ target: jobs.uniqueKey });
}

/** Delay before attempt `attempt + 1` after attempt `attempt` failed: 15 s, 30 s, 1 min, … ≤ 1 h. */
export function retryDelayMs(attempt: number) {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1), RETRY_MAX_MS);
}

type Claimed = { id: string; kind: string; payload: JobPayload; attempts: number };

export type WorkerOptions = {
  /** Jobs claimed per pass (they run concurrently). */
  limit?: number;
  workerId?: string;
  leaseMs?: number;
  /** The database to work on (default: the process-wide one). */
  db?: Database;
  /** What renews a running job's lease (default: a timer); tests drive it by hand. */
  leaseTimer?: LeaseTimer;
};

/** Calls `renew` every `everyMs` until the returned stop function is called. */
export type LeaseTimer = (renew: () => Promise<void>, everyMs: number) => () => void;

const intervalLeaseTimer: LeaseTimer = (renew, everyMs) => {
  const timer = setInterval(() => void renew(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
};

/** One pass: claims and runs due jobs (tests call this directly); returns how many ran. */
export async function runDueJobs(options: WorkerOptions = {}): Promise<number> {
  const db = options.db ?? getDb();
  const workerId = options.workerId ?? defaultWorkerId;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  await enqueueDueSchedules(db);
  await failExhaustedLeases(db);
  const kinds = [...handlers.keys()];
  if (kinds.length === 0) return 0;
  const claimed = await queryRows<Claimed>(
    sql`
      WITH due AS (
        SELECT id FROM ${jobs}
        WHERE kind IN (${sql.join(
          kinds.map((k) => sql`${k}`),
          sql`, `,
        )})
          AND ((state = 'queued' AND run_at <= now())
            OR (state = 'running' AND locked_until < now()))
        ORDER BY run_at
        LIMIT ${options.limit ?? 5}
        FOR UPDATE SKIP LOCKED
      )
      UPDATE ${jobs} AS j
      SET state = 'running',
          attempts = j.attempts + 1,
          locked_by = ${workerId},
          locked_until = now() + ${leaseMs} * interval '1 millisecond',
          last_error = CASE WHEN j.state = 'running' THEN ${LEASE_EXPIRED} ELSE j.last_error END,
          updated_at = now()
      FROM due
      WHERE j.id = due.id
      RETURNING j.id, j.kind, j.payload, j.attempts`,
    db,
  );
  const leaseTimer = options.leaseTimer ?? intervalLeaseTimer;
  await Promise.all(claimed.map((job) => runClaimed(db, job, workerId, leaseMs, leaseTimer)));
  return claimed.length;
}

const LEASE_EXPIRED = "The worker running this job stopped before it finished (lease expired).";

/** A running job whose lease ran out on its last allowed attempt is failed, not run again. */
async function failExhaustedLeases(db: Database) {
  await db
    .update(jobs)
    .set({
      state: "failed",
      lastError: LEASE_EXPIRED,
      lockedBy: null,
      lockedUntil: null,
      finishedAt: sql`now()`,
    })
    .where(
      and(
        eq(jobs.state, "running"),
        sql`${jobs.lockedUntil} < now()`,
        sql`${jobs.attempts} >= ${jobs.maxAttempts}`,
      ),
    );
}

/**
 * Runs the handlers of the given schedules (default: every one) once "as of" `at`: the slot each
 * handler receives is `at`, not the clock. Tests move time forward with it (decision 0050);
 * the jobs the handlers enqueue then run with `runDueJobs` as usual.
 */
export async function runSchedulesAsOf(at: Date, kinds?: readonly string[]): Promise<void> {
  for (const kind of schedules.keys()) {
    if (kinds && !kinds.includes(kind)) continue;
    const entry = handlers.get(kind);
    await entry?.handler({ slot: at.toISOString() }, { jobId: `as-of:${kind}`, attempt: 1 });
  }
}

async function enqueueDueSchedules(db: Database) {
  const now = Date.now();
  for (const [kind, schedule] of schedules) {
    const slot = Math.floor(now / schedule.everyMs);
    if (schedule.lastSlot === slot) continue;
    const runAt = new Date(slot * schedule.everyMs);
    await enqueueJob(db, {
      kind,
      payload: { slot: runAt.toISOString() },
      runAt,
      uniqueKey: `schedule:${kind}:${slot}`,
    });
    schedule.lastSlot = slot;
  }
}

async function runClaimed(
  db: Database,
  job: Claimed,
  workerId: string,
  leaseMs: number,
  leaseTimer: LeaseTimer,
) {
  // Only the holder of this attempt may renew or settle it (a lease may have been taken over).
  const mine = and(
    eq(jobs.id, job.id),
    eq(jobs.state, "running"),
    eq(jobs.attempts, job.attempts),
    eq(jobs.lockedBy, workerId),
  );
  const stopRenewing = leaseTimer(
    () =>
      db
        .update(jobs)
        .set({ lockedUntil: sql`now() + ${leaseMs} * interval '1 millisecond'` })
        .where(mine)
        .then(
          () => {},
          (error) => logger.warn({ err: error, jobId: job.id }, "job lease renewal failed"),
        ),
    Math.max(1_000, Math.floor(leaseMs / 3)),
  );
  const log = logger.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
  try {
    const entry = handlers.get(job.kind);
    if (!entry) throw new Error(`No handler for job kind ${job.kind}`);
    await entry.handler(job.payload ?? {}, { jobId: job.id, attempt: job.attempts });
    stopRenewing();
    await db
      .update(jobs)
      .set({ state: "succeeded", lockedUntil: null, finishedAt: sql`now()` }) // locked_by: who ran it
      .where(mine);
    log.info("job succeeded");
  } catch (error) {
    stopRenewing();
    const message = errorText(error);
    const [row] = await db
      .select({ maxAttempts: jobs.maxAttempts })
      .from(jobs)
      .where(eq(jobs.id, job.id));
    const exhausted = !row || job.attempts >= row.maxAttempts;
    await db
      .update(jobs)
      .set(
        exhausted
          ? {
              state: "failed",
              lastError: message,
              lockedBy: null,
              lockedUntil: null,
              finishedAt: sql`now()`,
            }
          : {
              state: "queued",
              lastError: message,
              lockedBy: null,
              lockedUntil: null,
              runAt: sql`now() + ${retryDelayMs(job.attempts)} * interval '1 millisecond'`,
            },
      )
      .where(mine);
    if (exhausted) log.error({ err: error }, "job failed for good");
    else log.warn({ err: error }, "job failed; will retry");
  }
}

function errorText(error: unknown) {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.slice(0, ERROR_MAX_CHARS);
}

const defaultWorkerId = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

/**
 * Starts polling (server start-up); stop() waits for running jobs, at most `timeoutMs` (a job
 * still running then is left to its lease: another instance, or the next start, runs it again).
 */
export function startJobWorker(
  options: WorkerOptions & {
    pollMs?: number;
    /**
     * True while the site is busy answering requests: the worker then runs one job a pass and
     * waits `pollMs` between passes, so jobs never take the processor from visitors (a
     * registration rush); the backlog drains at full speed once it is over.
     */
    busy?: () => boolean;
  } = {},
): {
  stop(timeoutMs?: number): Promise<void>;
} {
  const pollMs = options.pollMs ?? 5_000;
  const fullLimit = options.limit ?? 5;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> = Promise.resolve();

  const tick = () => {
    pass = (async () => {
      let ran = 0;
      const busy = options.busy?.() ?? false;
      const limit = busy ? 1 : fullLimit;
      try {
        ran = await runDueJobs({ ...options, limit });
      } catch (error) {
        logger.warn({ err: error }, "job worker pass failed");
      }
      // A full pass means more may be due: go again at once (unless the site is busy).
      if (!stopped) timer = setTimeout(tick, ran >= limit && !busy ? 0 : pollMs);
    })();
  };
  timer = setTimeout(tick, 0);
  return {
    async stop(timeoutMs = 10_000) {
      stopped = true;
      clearTimeout(timer);
      let waited: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => {
        waited = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([pass, timedOut]);
      clearTimeout(waited);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Built-in jobs
// ---------------------------------------------------------------------------------------------
const MAIL_JOB = "mail.send";
type MailJobPayload = { key: string; mail: Omit<Mail, "attachments" | "messageId"> };

/**
 * Sends a mail from a job, once per `key`: it survives an SMTP outage or a restart (retried with
 * backoff) and is never sent twice. Enqueue it in the transaction that makes the mail due.
 */
export function enqueueMail(
  db: Database | DbTransaction,
  key: string,
  mail: MailJobPayload["mail"],
  options: { runAt?: Date } = {},
) {
  return enqueueJob(db, {
    kind: MAIL_JOB,
    payload: { key, mail },
    uniqueKey: `mail:${key}`,
    runAt: options.runAt,
  });
}

/** Finished jobs are kept this long for the record, then pruned (failed ones stay until retried). */
export const SUCCEEDED_JOB_RETENTION_DAYS = 30;

/** The jobs' own kinds: the plain mail of enqueueMail, and the pruning of finished jobs. */
export function registerBuiltInJobs() {
  defineJob<MailJobPayload>(MAIL_JOB, async ({ key, mail }) => {
    await sendMailOnce(key, mail);
  });
  defineSchedule("jobs.prune", 6 * 60 * 60_000, async () => {
    await getDb()
      .delete(jobs)
      .where(
        and(
          eq(jobs.state, "succeeded"),
          sql`${jobs.finishedAt} < now() - ${SUCCEEDED_JOB_RETENTION_DAYS} * interval '1 day'`,
        ),
      );
  });
}

// ---------------------------------------------------------------------------------------------
// Back office (/admin/jobs)
// ---------------------------------------------------------------------------------------------
export type JobListItem = Pick<
  JobRow,
  | "id"
  | "kind"
  | "state"
  | "runAt"
  | "attempts"
  | "maxAttempts"
  | "lastError"
  | "createdAt"
  | "updatedAt"
  | "finishedAt"
>;

/** Failed and pending (queued or running) jobs, newest change first. */
export async function listJobsForAdmin(
  states: JobState[] = ["failed", "queued", "running"],
  limit = 200,
): Promise<JobListItem[]> {
  return getDb()
    .select({
      id: jobs.id,
      kind: jobs.kind,
      state: jobs.state,
      runAt: jobs.runAt,
      attempts: jobs.attempts,
      maxAttempts: jobs.maxAttempts,
      lastError: jobs.lastError,
      createdAt: jobs.createdAt,
      updatedAt: jobs.updatedAt,
      finishedAt: jobs.finishedAt,
    })
    .from(jobs)
    .where(inArray(jobs.state, states))
    .orderBy(desc(jobs.updatedAt))
    .limit(limit);
}

export async function countFailedJobs(): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(eq(jobs.state, "failed"));
  return row?.n ?? 0;
}

/**
 * An admin retries a failed job: queued to run now with a fresh set of attempts. Returns false
 * when the job is not failed (already retried, or never failed). Audited.
 */
export async function retryFailedJob(actor: PersonActor, jobId: string): Promise<boolean> {
  const [row] = await getDb()
    .update(jobs)
    .set({ state: "queued", attempts: 0, runAt: sql`now()`, finishedAt: null })
    .where(and(eq(jobs.id, jobId), eq(jobs.state, "failed")))
    .returning({ id: jobs.id, kind: jobs.kind });
  if (!row) return false;
  await recordAudit(actor.request ?? null, {
    action: "job.retry",
    actorId: actor.id,
    entity: "job",
    entityId: row.id,
    details: { kind: row.kind },
  });
  return true;
}
