// npm run bench:search [-- --database-url postgres://… --events 100000 --papers 50000 --iterations 200]
// Public event and paper search (the queries the listing pages run: one page + the count) on
// PostgreSQL with a large data set; fills the database with db:seed:large when it is smaller.
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase, queryRows, setDatabase } from "../../app/db/client.server";
import { parseEnv, setEnv } from "../../app/lib/env.server";
import { DEFAULT_EVENT_FILTERS } from "../../app/models/events/filters";
import { listPublishedEvents } from "../../app/models/events/queries.server";
import { DEFAULT_PAPER_FILTERS } from "../../app/models/papers/filters";
import { listPapers } from "../../app/models/papers/queries.server";
import { table } from "./lib";

const { values } = parseArgs({
  options: {
    "database-url": {
      type: "string",
      default: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/kongamano_bench",
    },
    events: { type: "string", default: "100000" },
    papers: { type: "string", default: "50000" },
    iterations: { type: "string", default: "200" },
  },
});
const url = values["database-url"]!;
const iterations = Number(values.iterations);

// Create the benchmark database when it does not exist.
const server = new URL(url);
const dbName = server.pathname.slice(1);
server.pathname = "/postgres";
const admin = new pg.Client({ connectionString: server.toString() });
await admin.connect();
const exists = await admin.query("select 1 from pg_database where datname = $1", [dbName]);
if (!exists.rowCount) await admin.query(`create database ${pg.escapeIdentifier(dbName)}`);
await admin.end();

setEnv(
  parseEnv({
    ...process.env,
    DATABASE_URL: url,
    SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0",
    LOG_LEVEL: "error",
  }),
);
const database = await openDatabase({ databaseUrl: url });
setDatabase(database);
await database.migrate();
const [counts] = await queryRows<{ events: number; papers: number }>(
  sql`select (select count(*) from events)::int as events, (select count(*) from papers)::int as papers`,
);
const wantEvents = Math.max(0, Number(values.events) - counts.events);
const wantPapers = Math.max(0, Number(values.papers) - counts.papers);
if (wantEvents > 0 || wantPapers > 0) {
  console.log(`Filling ${dbName}: +${wantEvents} events, +${wantPapers} papers…`);
  const result = spawnSync(
    "npx",
    [
      "tsx",
      "scripts/seed-large.ts",
      "--events",
      String(wantEvents),
      "--papers",
      String(wantPapers),
    ],
    {
      stdio: "inherit",
      env: {
        ...process.env,
        DATABASE_URL: url,
        SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0",
      },
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await database.db.execute(sql`analyze events; analyze papers`);
const [sizes] = await queryRows<{ events: number; papers: number }>(
  sql`select (select count(*) from events)::int as events, (select count(*) from papers)::int as papers`,
);

const terms = [
  "data",
  "governance",
  "records",
  "nairobi",
  "privacy",
  "machine learning",
  "open",
  "ai",
  "archives",
  "zzzz-no-match",
];
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
async function measure(name: string, run: (term: string) => Promise<unknown>) {
  for (const term of terms) await run(term); // warm up
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const term = terms[i % terms.length];
    const started = performance.now();
    await run(term);
    times.push(performance.now() - started);
  }
  return {
    query: name,
    runs: iterations,
    "p50 ms": percentile(times, 50).toFixed(1),
    "p95 ms": percentile(times, 95).toFixed(1),
    "max ms": Math.max(...times).toFixed(1),
  };
}

const rows = [
  await measure("events: search, page 1 + count", (search) =>
    listPublishedEvents({ ...DEFAULT_EVENT_FILTERS, search }),
  ),
  await measure("events: search sorted by title", (search) =>
    listPublishedEvents({ ...DEFAULT_EVENT_FILTERS, search, sort: "title" }),
  ),
  await measure("papers: search, page 1 + count", (search) =>
    listPapers({ ...DEFAULT_PAPER_FILTERS, search }, { canSeeAll: false }),
  ),
  await measure("papers: search sorted by title", (search) =>
    listPapers({ ...DEFAULT_PAPER_FILTERS, search, sort: "title" }, { canSeeAll: false }),
  ),
];
await database.close();
console.log(
  `\nbench:search — PostgreSQL, ${sizes.events.toLocaleString("en-US")} events, ${sizes.papers.toLocaleString("en-US")} papers (budget: p95 ≤ 50 ms)\n`,
);
table(rows);
