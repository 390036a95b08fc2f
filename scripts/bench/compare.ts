// npm run bench:compare -- --build before=.build-before --build after=build [--page /events --rounds 2]
// Two or more production builds compared in alternating runs, as decision 0071 measured them:
// runs of one build vary by a quarter between the machine's fast and slow phases, so builds are
// taken in turn, each as a fresh server (page cache off) warmed for --warmup seconds, then
// --runs measured wrk runs with browser headers. Beside req/s it prints the CPU time of the
// server's main thread and of the whole process per request, read from /proc: the main thread
// is the one that limits uncached pages. A build directory must sit inside the project (its
// bundle resolves packages from node_modules): `cp -r build .build-before`, then rebuild.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { BROWSER_HEADERS, startBuiltServer, table, wrk } from "./lib";

const { values } = parseArgs({
  options: {
    build: { type: "string", multiple: true, default: ["current=build"] },
    page: { type: "string", default: "/events" },
    rounds: { type: "string", default: "2" },
    runs: { type: "string", default: "2" },
    warmup: { type: "string", default: "15" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
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

const rows: Array<Record<string, string | number>> = [];
for (let round = 1; round <= Number(values.rounds); round++) {
  for (const build of builds) {
    const server = await startBuiltServer({ PAGE_CACHE: "false", BUILD_DIR: build.dir }, 4907);
    const pid = server.child.pid as number;
    try {
      const url = `${server.url}${values.page}`;
      await wrk(url, { ...options, duration: Number(values.warmup) });
      for (let run = 1; run <= Number(values.runs); run++) {
        const [main, all] = [cpuMs(pid, pid), cpuMs(pid)];
        const r = await wrk(url, { ...options, duration: Number(values.duration) });
        const perRequest = (ms: number) => (ms / Math.max(1, r.requests)).toFixed(2);
        rows.push({
          build: build.name,
          round,
          "req/s": r.rps.toFixed(0),
          "p99 ms": r.p99.toFixed(0),
          errors: r.errors + r.non2xx,
          "main thread ms/req": perRequest(cpuMs(pid, pid) - main),
          "process ms/req": perRequest(cpuMs(pid) - all),
        });
      }
    } finally {
      await server.stop();
    }
  }
}

console.log(
  `\nbench:compare — ${values.page}, page cache off, wrk -t1 -c${values.connections} -d${values.duration}s after ${values.warmup} s, browser headers\n`,
);
table(rows);
