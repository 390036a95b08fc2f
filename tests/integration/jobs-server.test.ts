import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { jobs, sentMail } from "~/db/schema";
import { enqueueMail } from "~/models/jobs.server";
import { createTestDatabase } from "../helpers/db";
import { type RunningServer, startServer } from "../helpers/server-process";
import { startTestSmtp } from "../helpers/smtp";

// Real server processes (the production build: `npm run build` first) with their job workers.
// Without TEST_DATABASE_URL they run on the embedded PGlite, with it on PostgreSQL (CI runs both).

let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp.close();
});

function mailsTo(address: string) {
  return smtp.messages.filter((m) => m.to.includes(address));
}

const SECRET = "jobs-test-secret-jobs-test-secret-0123456789";

describe("jobs in a running server", () => {
  it("a job that fell due while the server was down runs once after it starts", async () => {
    // The stopped server's database, with a reminder that was due an hour ago.
    const postgres = process.env.TEST_DATABASE_URL ? await createTestDatabase() : undefined;
    const dataDir = mkdtempSync(path.join(tmpdir(), "kongamano-jobs-"));
    const offline = postgres ?? (await openDatabase({ dataDir }));
    if (!postgres) await offline.migrate();
    const { id } = await enqueueMail(
      offline.db,
      "reminder:downtime",
      { to: "wanjiru@example.com", subject: "Your workshop starts tomorrow", text: "See you." },
      { runAt: new Date(Date.now() - 60 * 60_000) },
    );
    if (!postgres) await offline.close();

    let server: RunningServer | undefined;
    try {
      server = await startServer({
        DATA_DIR: dataDir,
        SMTP_URL: smtp.url,
        JOBS_POLL_MS: "200",
        SEED_DEMO: "false",
        ...(postgres?.url ? { DATABASE_URL: postgres.url, SESSION_SECRET: SECRET } : {}),
      });
      await smtp.waitFor("wanjiru@example.com", /workshop starts tomorrow/, 20_000);
      // Stopping waits for the worker's pass in progress: after it, no mail is on its way.
      expect(await server.stop()).toBe(0);
      expect(mailsTo("wanjiru@example.com")).toHaveLength(1);

      const after = postgres ?? (await openDatabase({ dataDir }));
      try {
        const [job] = await after.db.select().from(jobs).where(eq(jobs.id, id));
        expect(job.state).toBe("succeeded");
        expect(job.attempts).toBe(1);
        const [sent] = await after.db
          .select()
          .from(sentMail)
          .where(eq(sentMail.key, "reminder:downtime"));
        expect(sent.sentAt).toBeInstanceOf(Date);
      } finally {
        await after.close();
      }
    } finally {
      await server?.stop();
    }
  }, 90_000); // two server starts and a shutdown: slow on a busy 2-core machine

  // Several instances share one PostgreSQL; the embedded PGlite is one process by design (its
  // data directory is locked), so this runs only when TEST_DATABASE_URL is set, as in CI.
  it.runIf(process.env.TEST_DATABASE_URL)(
    "two instances on PostgreSQL run each due job exactly once",
    async () => {
      const database = await createTestDatabase();
      const servers: RunningServer[] = [];
      try {
        const env = {
          DATABASE_URL: database.url as string,
          SESSION_SECRET: SECRET,
          SMTP_URL: smtp.url,
          JOBS_POLL_MS: "100",
        };
        servers.push(await startServer(env), await startServer(env));
        // All become due at once, while both workers poll every 100 ms.
        const count = 40;
        const ids = await database.db.transaction(async (tx) => {
          const created: string[] = [];
          for (let i = 0; i < count; i++) {
            const job = await enqueueMail(tx, `race:${i}`, {
              to: "race@example.com",
              subject: `Race ${i}`,
              text: "Exactly once.",
            });
            created.push(job.id);
          }
          return created;
        });
        // Every job settled (a job succeeds only once its mail was accepted), then both servers
        // stopped, which waits for their passes in progress: no duplicate can still be on its way.
        await expect
          .poll(
            async () => {
              const states = await database.db
                .select({ state: jobs.state })
                .from(jobs)
                .where(inArray(jobs.id, ids));
              return states.filter((r) => r.state === "succeeded" || r.state === "failed").length;
            },
            { timeout: 30_000, interval: 100 },
          )
          .toBe(count);
        for (const server of servers) expect(await server.stop()).toBe(0);
        const subjects = mailsTo("race@example.com").map((m) => m.subject);
        expect(subjects).toHaveLength(count);
        expect(new Set(subjects).size).toBe(count);
        const rows = await database.db
          .select({ state: jobs.state, attempts: jobs.attempts, ranBy: jobs.lockedBy })
          .from(jobs)
          .where(inArray(jobs.id, ids));
        expect(rows.every((r) => r.state === "succeeded" && r.attempts === 1)).toBe(true);
        // Both instances took jobs (the race was real), yet no job ran twice.
        expect(new Set(rows.map((r) => r.ranBy)).size).toBe(2);
      } finally {
        await Promise.all(servers.map((s) => s.stop()));
        await database.close();
      }
    },
    120_000,
  );
});
