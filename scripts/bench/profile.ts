// npm run bench:profile [-- --page /events --duration 10 --connections 50 --top 25]
// Where an uncached page's CPU goes: the production build runs with the page cache off under
// `node --cpu-prof`, wrk asks for one page with browser headers, and the script prints the
// throughput and the functions with the most self time (share of all samples, idle excluded),
// plus the same grouped by package. The profile file is kept for Chrome DevTools.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { BROWSER_HEADERS, startBuiltServer, table, wrk } from "./lib";

const { values } = parseArgs({
  options: {
    page: { type: "string", default: "/events" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    top: { type: "string", default: "25" },
    port: { type: "string", default: "4906" },
    "node-arg": { type: "string", multiple: true, default: [] },
  },
});
const profileDir = mkdtempSync(path.join(tmpdir(), "kongamano-profile-"));
const server = await startBuiltServer({ PAGE_CACHE: "false" }, Number(values.port), [
  "--cpu-prof",
  `--cpu-prof-dir=${profileDir}`,
  ...(values["node-arg"] ?? []),
]);
const loadavg = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
let result: Awaited<ReturnType<typeof wrk>>;
// The measured run's window on the monotonic clock V8's profiler also uses (microseconds).
const now = () => Number(process.hrtime.bigint() / 1000n);
let window = [0, 0];
let cpuMs = 0;
/** CPU time the whole server process used (all threads, user + system), in clock ticks. */
function cpuTicks(pid: number | undefined) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
}
try {
  const url = `${server.url}${values.page}`;
  // Warm up (JIT, first queries) before the measured run.
  await wrk(url, { duration: 3, connections: 8, headers: BROWSER_HEADERS });
  const cpuBefore = cpuTicks(server.child.pid);
  const begin = now();
  result = await wrk(url, {
    duration: Number(values.duration),
    connections: Number(values.connections),
    headers: BROWSER_HEADERS,
  });
  window = [begin, now()];
  cpuMs = (cpuTicks(server.child.pid) - cpuBefore) * 10; // USER_HZ is 100 on Linux
} finally {
  await server.stop();
}

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };

// One profile per thread: CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile; thread 0 is the
// main thread, the others are PGlite's worker (decision 0014).
const files = readdirSync(profileDir)
  .filter((f) => f.endsWith(".cpuprofile"))
  .map((f) => path.join(profileDir, f));
const main = files.find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f)) ?? files[0];

function summarise(file: string) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  // Only the samples of the measured run (not start-up, seeding or the warm-up).
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < window[0] || at > window[1]) return;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  let busy = 0;
  let gc = 0;
  const fn = new Map<string, number>();
  const pkg = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)?.callFrame ?? {
      functionName: "?",
      url: "",
      lineNumber: 0,
    };
    if (functionName === "(idle)") continue;
    if (functionName === "(garbage collector)") gc += us;
    busy += us;
    const where = url.replace(/^file:\/\//, "").replace(`${process.cwd()}/`, "");
    const key = `${functionName || "(anonymous)"} ${where ? `${path.basename(where)}:${lineNumber + 1}` : ""}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    const group = IDLE.has(functionName)
      ? functionName
      : (where.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ??
        (where.startsWith("node:") || !where.includes("/")
          ? where
            ? "node internals"
            : "native (V8, libuv, zlib…)"
          : "build (app + bundled packages)"));
    pkg.set(group, (pkg.get(group) ?? 0) + us);
  }
  return { busy, gc, fn, pkg };
}
const IDLE = new Set(["(idle)", "(program)", "(garbage collector)"]);
const { busy, gc, fn, pkg } = summarise(main);
const workers = files.filter((f) => f !== main).map(summarise);
const workerBusy = workers.reduce((total, w) => total + w.busy, 0);
const share = (us: number) => `${((us / busy) * 100).toFixed(1)}%`;
console.log(
  `\nbench:profile — ${values.page}, page cache off, wrk -t1 -c${values.connections} -d${values.duration}s, browser headers; load average ${loadavg}\n`,
);
console.log(
  `${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(0)} ms, p99 ${result.p99.toFixed(0)} ms, errors ${result.errors + result.non2xx}; main thread: busy ${(busy / 1e6).toFixed(1)} s of ${((window[1] - window[0]) / 1e6).toFixed(1)} s (GC ${share(gc)}), ${(busy / 1000 / Math.max(1, result.requests)).toFixed(2)} ms per request\n`,
);
table(
  [...fn]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(values.top))
    .map(([name, us]) => ({ "self time": share(us), function: name })),
);
console.log("");
table(
  [...pkg]
    .sort((a, b) => b[1] - a[1])
    .map(([name, us]) => ({ "self time": share(us), group: name })),
);
console.log(
  `\nCPU time of the whole process (all threads: main, PGlite, compression): ${(cpuMs / Math.max(1, result.requests)).toFixed(2)} ms per request (${result.requests} requests)`,
);
console.log(
  `PGlite worker thread: busy ${(workerBusy / 1e6).toFixed(1)} s, ${(workerBusy / 1000 / Math.max(1, result.requests)).toFixed(2)} ms per request`,
);
console.log(`main thread profile: ${main}`);
// The measured window (V8 profile clock, µs), for reading the profiles again later.
writeFileSync(
  path.join(profileDir, "window.json"),
  JSON.stringify({ begin: window[0], end: window[1], requests: result.requests }),
);
