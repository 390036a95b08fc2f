// npm run bench:http [-- --database-url postgres://… --duration 10 --connections 50]
// Throughput and latency of public pages on the production build, each beside the same server's
// static-file throughput (a copy of the /events HTML served by express.static) as a ratio.
// Runs the server twice: with the anonymous page cache (default) and without it.
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { load, startBuiltServer, table } from "./lib";

const { values } = parseArgs({
  options: {
    "database-url": { type: "string" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const staticFile = path.join(buildDir, "client", "__bench-static.html");
const env: Record<string, string> = values["database-url"]
  ? {
      DATABASE_URL: values["database-url"],
      SEED_DEMO: "true", // demo content when the database is empty (a large data set is kept)
      SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0",
    }
  : {};

const rows: Array<Record<string, string | number>> = [];
let dataDir: string | undefined;
try {
  for (const cache of [true, false]) {
    const server = await startBuiltServer(
      { ...env, PAGE_CACHE: String(cache), ...(dataDir ? { DATA_DIR: dataDir } : {}) },
      4900,
    );
    dataDir = server.dataDir;
    try {
      const eventsHtml = await (await fetch(`${server.url}/events`)).text();
      writeFileSync(staticFile, eventsHtml);
      const eventPath = eventsHtml.match(/href="(\/events\/[a-z0-9-]+)"/)?.[1] ?? "/events";
      const pages = ["/", "/events", "/events?search=data", eventPath, "/papers"];
      const baseline = await load(`${server.url}/__bench-static.html`, { duration, connections });
      rows.push(
        row(`static file (${(eventsHtml.length / 1024).toFixed(0)} KB)`, cache, baseline, baseline),
      );
      for (const page of pages) {
        rows.push(
          row(page, cache, await load(`${server.url}${page}`, { duration, connections }), baseline),
        );
      }
    } finally {
      await server.stop();
    }
  }
} finally {
  rmSync(staticFile, { force: true });
}

function row(
  name: string,
  cache: boolean,
  r: Awaited<ReturnType<typeof load>>,
  baseline: Awaited<ReturnType<typeof load>>,
) {
  return {
    page: name,
    cache: cache ? "on" : "off",
    "req/s": r.rps.toFixed(0),
    "p50 ms": r.p50,
    "p99 ms": r.p99,
    errors: r.errors + r.non2xx,
    "ratio to static": (r.rps / baseline.rps).toFixed(2),
  };
}

console.log(
  `\nbench:http — ${connections} connections, ${duration} s per row, database: ${values["database-url"] ? "PostgreSQL" : "embedded (demo data)"}\n`,
);
table(rows);
