// npm run bench:http [-- --database-url postgres://… --duration 10 --warmup 10 --connections 50 --only /events]
// Throughput and latency of public pages on the production build as browsers ask for them
// (Accept-Encoding: gzip, deflate, br, zstd), measured with wrk, each beside nginx serving the
// same /events HTML with gzip_static in the same run (the ratio column). Runs the server twice:
// with the anonymous page cache (default) and without it. A second table repeats the rows
// without Accept-Encoding (uncompressed), as the figures before issue 17 were measured.
// Every row is measured warm, as a server that has been up a while answers: the same load runs
// for --warmup seconds first and is discarded (decision 0069: V8 is still compiling the page's
// code during the first ~15 s of a fresh process, which cost up to 10% of an uncached row).
import { parseArgs } from "node:util";
import {
  BROWSER_HEADERS,
  type LoadResult,
  startBuiltServer,
  startNginxStatic,
  table,
  wrk,
} from "./lib";

const { values } = parseArgs({
  options: {
    "database-url": { type: "string" },
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    only: { type: "string" },
    "no-uncompressed": { type: "boolean", default: false },
  },
});
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
const env: Record<string, string> = values["database-url"]
  ? {
      DATABASE_URL: values["database-url"],
      SEED_DEMO: "true", // demo content when the database is empty (a large data set is kept)
      SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0",
    }
  : {};
const { Accept, "User-Agent": userAgent } = BROWSER_HEADERS;
const variants = [
  { name: "browser", headers: BROWSER_HEADERS },
  { name: "uncompressed", headers: { Accept, "User-Agent": userAgent } },
].filter((v) => v.name === "browser" || !values["no-uncompressed"]);

const rows: Record<string, Array<Record<string, string | number>>> = {
  browser: [],
  uncompressed: [],
};
let dataDir: string | undefined;
for (const cache of [true, false]) {
  const server = await startBuiltServer(
    { ...env, PAGE_CACHE: String(cache), ...(dataDir ? { DATA_DIR: dataDir } : {}) },
    4900,
  );
  dataDir = server.dataDir;
  try {
    const eventsHtml = await (await fetch(`${server.url}/events`)).text();
    const eventPath = eventsHtml.match(/href="(\/events\/[a-z0-9-]+)"/)?.[1] ?? "/events";
    const pages = ["/", "/events", "/events?search=data", eventPath, "/papers"].filter(
      (page) => !values.only || values.only.split(",").includes(page),
    );
    const nginx = await startNginxStatic(eventsHtml, 4905);
    try {
      for (const variant of variants) {
        const run = async (url: string) => {
          const options = { connections, headers: variant.headers };
          if (warmup > 0) await wrk(url, { ...options, duration: warmup });
          return wrk(url, { ...options, duration });
        };
        const baseline = await run(nginx.url);
        const kb = (Buffer.byteLength(eventsHtml) / 1024).toFixed(0);
        rows[variant.name].push(row(`nginx static /events (${kb} KB)`, cache, baseline, baseline));
        for (const page of pages) {
          if (cache) await warmUp(`${server.url}${page}`);
          rows[variant.name].push(row(page, cache, await run(`${server.url}${page}`), baseline));
        }
      }
    } finally {
      await nginx.stop();
    }
  } finally {
    await server.stop();
  }
}

/** The cached rows measure hits: ask until the page is served from the cache (at most 5 s). */
async function warmUp(url: string) {
  for (let i = 0; i < 50; i++) {
    const response = await fetch(url, { headers: BROWSER_HEADERS });
    await response.arrayBuffer();
    if (response.headers.get("x-cache") === "HIT") return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function row(name: string, cache: boolean, r: LoadResult, baseline: LoadResult) {
  return {
    page: name,
    cache: cache ? "on" : "off",
    "req/s": r.rps.toFixed(0),
    "p50 ms": r.p50.toFixed(1),
    "p99 ms": r.p99.toFixed(1),
    errors: r.errors + r.non2xx,
    "ratio to nginx": (r.rps / baseline.rps).toFixed(2),
  };
}

const database = values["database-url"] ? "PostgreSQL" : "embedded (demo data)";
console.log(
  `\nbench:http — wrk -t1 -c${connections} -d${duration}s after a ${warmup} s warm-up, browser headers (Accept-Encoding: ${BROWSER_HEADERS["Accept-Encoding"]}), database: ${database}\n`,
);
table(rows.browser);
if (rows.uncompressed.length > 0) {
  console.log("\nWithout Accept-Encoding (uncompressed; how figures before issue 17 were taken)\n");
  table(rows.uncompressed);
}
