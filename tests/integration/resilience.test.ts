import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase, queryRows } from "~/db/client.server";
import { startServer } from "../helpers/server-process";

const journal = JSON.parse(readFileSync("drizzle/meta/_journal.json", "utf8")) as {
  entries: unknown[];
};

async function postContact(url: string, subject: string, clientIp: string) {
  const body = new URLSearchParams({
    name: "Load Tester",
    email: "load.tester@example.org",
    subject,
    message: "Checking that acknowledged writes survive a crash.",
  });
  const response = await fetch(`${url}/contact`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Forwarded-For": clientIp,
      Origin: url,
    },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

/** A new, empty PostgreSQL database on TEST_DATABASE_URL's server, and a way to drop it. */
async function scratchDatabase(prefix: string) {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL! });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    admin,
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

describe("resilience", () => {
  it("keeps every acknowledged write when the app is killed with SIGKILL on PGlite", async () => {
    const server = await startServer({ TRUST_PROXY: "loopback" });
    const acknowledged: string[] = [];
    let killed = false;
    const writer = async (worker: number) => {
      for (let i = 0; !killed; i++) {
        const subject = `crash-test ${worker}-${i}`;
        try {
          const status = await postContact(server.url, subject, `10.9.${worker}.${i % 250}`);
          if (status === 200 && !killed) acknowledged.push(subject);
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const writers = Array.from({ length: 4 }, (_, w) => writer(w));
    while (acknowledged.length < 20) await new Promise((r) => setTimeout(r, 20));
    killed = true;
    server.child.kill("SIGKILL");
    await server.exited;
    await Promise.all(writers);

    // The database opens again (stale lock taken over) and holds every acknowledged message.
    const restarted = await startServer({ DATA_DIR: server.dataDir });
    expect((await fetch(`${restarted.url}/readyz`)).status).toBe(200);
    expect(await restarted.stop()).toBe(0);
    const database = await openDatabase({ dataDir: server.dataDir });
    try {
      const rows = await queryRows<{ subject: string }>(
        sql`select subject from contact_messages where subject like 'crash-test %'`,
        database.db,
      );
      const stored = new Set(rows.map((r) => r.subject));
      expect(acknowledged.filter((s) => !stored.has(s))).toEqual([]);
    } finally {
      await database.close();
    }
  }, 180_000);

  it.runIf(process.env.TEST_DATABASE_URL)(
    "answers 503 with Retry-After while its database is unreachable, and recovers by itself",
    async () => {
      const { name, url, admin, drop } = await scratchDatabase("kongamano_outage");
      const server = await startServer(
        {
          DATABASE_URL: url,
          SESSION_SECRET: "outage-secret-outage-secret-outage-secret",
          PAGE_CACHE: "false",
        },
        { expectedErrors: [503] }, // the outage is the point: 503 while the database is away
      );
      try {
        expect((await fetch(`${server.url}/events`)).status).toBe(200);
        // The database goes away: no new connections, the open ones cut.
        await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
        await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1",
          [name],
        );
        const down = await fetch(`${server.url}/events`);
        expect(down.status).toBe(503);
        expect(down.headers.get("retry-after")).toBe("5");
        expect(down.headers.get("cache-control")).toBe("no-store");
        expect(await down.text()).toContain("</html>");
        expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
        // Back again: the same process serves pages without a restart.
        await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
        let status = 0;
        for (let i = 0; i < 50 && status !== 200; i++) {
          status = (await fetch(`${server.url}/events`)).status;
          if (status !== 200) await new Promise((r) => setTimeout(r, 200));
        }
        expect(status).toBe(200);
      } finally {
        await server.stop();
        await drop();
      }
    },
    180_000,
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    "applies each migration once when three instances start together on one PostgreSQL",
    async () => {
      const { url, drop } = await scratchDatabase("kongamano_multi");
      const env = {
        DATABASE_URL: url,
        SESSION_SECRET: "multi-instance-secret-multi-instance-secret",
      };
      const servers = await Promise.all([startServer(env), startServer(env), startServer(env)]);
      try {
        for (const s of servers) expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
        const check = new pg.Client({ connectionString: url });
        await check.connect();
        const { rows } = await check.query(
          "select count(*)::int as n, count(distinct hash)::int as d from drizzle.__drizzle_migrations",
        );
        await check.end();
        expect(rows[0]).toEqual({ n: journal.entries.length, d: journal.entries.length });
      } finally {
        await Promise.all(servers.map((s) => s.stop()));
        await drop();
      }
    },
    180_000,
  );
});
