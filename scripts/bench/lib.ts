import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";

export type Server = {
  url: string;
  child: ChildProcess;
  dataDir: string;
  /** Where the server's stdout and stderr go. */
  logFile: string;
  stop: () => Promise<void>;
};

/** Starts the production build on a free port and waits until it is ready. */
export async function startBuiltServer(env: Record<string, string>, port: number): Promise<Server> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "kongamano-bench-"));
  const url = `http://127.0.0.1:${port}`;
  // The server's own log (errors only) goes to a file, so the figures stay readable.
  const logFile = path.join(tmpdir(), `kongamano-bench-${port}.log`);
  const log = openSync(logFile, "a");
  const child = spawn(process.execPath, ["server/index.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      BASE_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: "error",
      ...env,
    },
    stdio: ["ignore", log, log],
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    logFile,
    child,
    dataDir,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export type LoadResult = {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
};

export async function load(
  url: string,
  options: {
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    overallRate?: number;
  } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections ?? 50,
    duration: options.duration ?? 10,
    headers: options.headers,
    overallRate: options.overallRate,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}

export function table(rows: Array<Record<string, string | number>>) {
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");
  console.log(line(columns));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const row of rows) console.log(line(columns.map((c) => String(row[c]))));
}
