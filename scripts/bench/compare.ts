// npm run bench:compare -- --build before=.build-before --build after=build [--page /events --rounds 2 --paired]
// Two or more production builds compared in alternating runs, as decision 0071 measured them:
// runs of one build vary by a quarter between the machine's fast and slow phases, so builds are
// taken in turn, each as a fresh server (page cache off) warmed for --warmup seconds, then
// --runs measured wrk runs with browser headers. Beside req/s it prints the CPU time of the
// server's main thread and of the whole process per request, read from /proc: the main thread
// is the one that limits uncached pages. A build directory must sit inside the project (its
// bundle resolves packages from node_modules): `cp -r build .build-before`, then rebuild. The
// busiest other thread is, on the embedded database, PGlite's worker (its CPU per request).
// --paired runs every build's server at once, loaded at the same time (a shared, busy machine).
import { readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { BROWSER_HEADERS, type Server, startBuiltServer, table, wrk } from "./lib";

const { values } = parseArgs({
  options: {
    build: { type: "string", multiple: true, default: ["current=build"] },
    page: { type: "string", default: "/events" },
    rounds: { type: "string", default: "2" },
    runs: { type: "string", default: "2" },
    warmup: { type: "string", default: "15" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    paired: { type: "boolean", default: false },
    /** The first server's port (--paired: the first of one port per build). */
    port: { type: "string", default: "4907" },
  },
});
const builds = (values.build ?? []).map((spec) => {
  const [name, dir] = spec.includes("=") ? spec.split("=", 2) : [spec, spec];
  return { name, dir };
});
const options = { connections: Number(values.connections), headers: BROWSER_HEADERS };

/** CPU time (user + system) in ms of one thread, or of the whole process without `tid`. */
function cpuMs(pid: number, tid?: number) {
  const file = tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`;
  const fields = readFileSync(file, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // USER_HZ is 100 on Linux
}

/**
 * CPU time of every thread but the main one. The PGlite worker (decision 0014) is the one that
 * works hardest during a run; V8's and libuv's helpers take the rest.
 */
function threadCpu(pid: number) {
  const ms = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`).map(Number)) {
    if (tid === pid) continue;
    try {
      ms.set(tid, cpuMs(pid, tid));
    } catch {} // a thread that ended meanwhile
  }
  return ms;
}

/** The thread that used most CPU between two readings, and how much (ms). */
function busiestThread(before: Map<number, number>, after: Map<number, number>) {
  let most = 0;
  for (const [tid, ms] of after) most = Math.max(most, ms - (before.get(tid) ?? 0));
  return most;
}

const rows: Array<Record<string, string | number>> = [];
const perRequest = (ms: number, requests: number) => (ms / Math.max(1, requests)).toFixed(2);

if (values.paired) await paired();
else await alternating();

/** Builds in turn, one server at a time (the default). */
async function alternating() {
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const build of builds) {
      const server = await startBuiltServer(
        { PAGE_CACHE: "false", BUILD_DIR: build.dir },
        Number(values.port),
      );
      const pid = server.child.pid as number;
      try {
        const url = `${server.url}${values.page}`;
        await wrk(url, { ...options, duration: Number(values.warmup) });
        for (let run = 1; run <= Number(values.runs); run++) {
          rows.push({ build: build.name, round, ...(await measured(pid, url)) });
        }
      } finally {
        await server.stop();
      }
    }
  }
}

/**
 * Every build's server at once, each loaded by its own wrk at the same time: on a machine shared
 * with other work the builds then meet the same conditions in every round, so their CPU time per
 * request compares even when the machine's load swings from round to round (issue 27).
 */
async function paired() {
  const servers: Array<{ name: string; server: Server }> = [];
  try {
    for (const [i, build] of builds.entries()) {
      const env = { PAGE_CACHE: "false", BUILD_DIR: build.dir };
      servers.push({
        name: build.name,
        server: await startBuiltServer(env, Number(values.port) + i),
      });
    }
    const urls = servers.map(({ server }) => `${server.url}${values.page}`);
    await Promise.all(urls.map((url) => wrk(url, { ...options, duration: Number(values.warmup) })));
    for (let round = 1; round <= Number(values.rounds) * Number(values.runs); round++) {
      const results = await Promise.all(
        servers.map(({ server }, i) => measured(server.child.pid as number, urls[i])),
      );
      results.forEach((result, i) => {
        rows.push({ build: servers[i].name, round, ...result });
      });
    }
  } finally {
    await Promise.all(servers.map(({ server }) => server.stop()));
  }
}

/** One measured wrk run against a server, with its CPU time per request by thread. */
async function measured(pid: number, url: string) {
  const [main, all, threads] = [cpuMs(pid, pid), cpuMs(pid), threadCpu(pid)];
  const r = await wrk(url, { ...options, duration: Number(values.duration) });
  const worker = busiestThread(threads, threadCpu(pid));
  return {
    "req/s": r.rps.toFixed(0),
    "p99 ms": r.p99.toFixed(0),
    errors: r.errors + r.non2xx,
    "main thread ms/req": perRequest(cpuMs(pid, pid) - main, r.requests),
    "busiest other thread ms/req": perRequest(worker, r.requests),
    "process ms/req": perRequest(cpuMs(pid) - all, r.requests),
  };
}

console.log(
  `\nbench:compare — ${values.page}, page cache off, wrk -t1 -c${values.connections} -d${values.duration}s after ${values.warmup} s, browser headers${values.paired ? ", builds loaded at the same time" : ""}; load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}\n`,
);
table(rows);
// Medians per build (the rounds' middle value), and each build's against the first build's.
const columns = ["req/s", "main thread ms/req", "busiest other thread ms/req", "process ms/req"];
const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const medians = builds.map(({ name }) => {
  const mine = rows.filter((row) => row.build === name);
  return Object.fromEntries(columns.map((c) => [c, median(mine.map((row) => Number(row[c])))]));
});
console.log("");
table(
  builds.map(({ name }, i) => ({
    build: name,
    ...Object.fromEntries(
      columns.map((c) => [
        `${c} (median)`,
        `${medians[i][c].toFixed(c === "req/s" ? 0 : 2)}${i > 0 ? ` (×${(medians[i][c] / medians[0][c]).toFixed(2)})` : ""}`,
      ]),
    ),
  })),
);
