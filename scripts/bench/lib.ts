import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, openSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";

/** What Chromium sends for a document: the server must answer as it would a real visitor. */
export const BROWSER_HEADERS: Record<string, string> = {
  Accept:
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8",
  "Accept-Encoding": "gzip, deflate, br, zstd",
  "Accept-Language": "en-GB,en;q=0.9",
  "User-Agent":
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
};

export type Server = {
  url: string;
  child: ChildProcess;
  dataDir: string;
  /** Where the server's stdout and stderr go. */
  logFile: string;
  stop: () => Promise<void>;
};

/** Starts the production build on a free port and waits until it is ready. */
export async function startBuiltServer(
  env: Record<string, string>,
  port: number,
  nodeArgs: string[] = [],
): Promise<Server> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "kongamano-bench-"));
  const url = `http://127.0.0.1:${port}`;
  // The server's own log (errors only) goes to a file, so the figures stay readable.
  const logFile = path.join(tmpdir(), `kongamano-bench-${port}.log`);
  const log = openSync(logFile, "a");
  const child = spawn(process.execPath, [...nodeArgs, "server/index.js"], {
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

/**
 * One wrk run (Debian's `wrk`, one thread): a C load generator that leaves the server most of a
 * 2-core machine, where autocannon in the same Node process as the script competes with it.
 */
export async function wrk(
  url: string,
  options: { connections?: number; duration?: number; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  const args = [
    "-t1",
    `-c${options.connections ?? 50}`,
    `-d${options.duration ?? 10}s`,
    "--latency",
  ];
  for (const [name, value] of Object.entries(options.headers ?? {}))
    args.push("-H", `${name}: ${value}`);
  const { stdout } = await promisify(execFile)("wrk", [...args, url], { maxBuffer: 1 << 20 });
  return parseWrk(stdout);
}

/** The figures of wrk's `--latency` report. */
export function parseWrk(output: string): LoadResult {
  const ms = (label: string) => {
    const m = output.match(new RegExp(`^\\s*${label}%\\s+([\\d.]+)(us|ms|s)\\s*$`, "m"));
    if (!m) return Number.NaN;
    const value = Number(m[1]);
    return m[2] === "us" ? value / 1000 : m[2] === "s" ? value * 1000 : value;
  };
  const socket = output.match(
    /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/,
  );
  const errors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    rps: Number(output.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? Number.NaN),
    p50: ms("50"),
    p99: ms("99"),
    errors,
    non2xx: Number(output.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
    requests: Number(output.match(/(\d+) requests in/)?.[1] ?? 0),
  };
}

/**
 * nginx (Debian) on 127.0.0.1 serving one HTML file with `gzip_static` (a gzip -9 copy beside
 * it), one worker: the yardstick for "static-file speed" on this machine.
 */
export async function startNginxStatic(html: string, port: number) {
  const work = mkdtempSync(path.join(tmpdir(), "kongamano-nginx-"));
  chmodSync(work, 0o755); // nginx's workers may run as another user
  mkdirSync(path.join(work, "root"));
  writeFileSync(path.join(work, "root", "page.html"), html);
  writeFileSync(path.join(work, "root", "page.html.gz"), gzipSync(html, { level: 9 }));
  writeFileSync(
    path.join(work, "nginx.conf"),
    `daemon off; worker_processes 1; pid ${work}/nginx.pid; error_log ${work}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${work}/body;
  types { text/html html; }
  server {
    listen 127.0.0.1:${port};
    root ${work}/root;
    location / { gzip_static on; gzip_vary on; }
  }
}`,
  );
  const child = spawn(
    "nginx",
    ["-c", path.join(work, "nginx.conf"), "-e", path.join(work, "error.log")],
    {
      stdio: "inherit",
    },
  );
  const url = `http://127.0.0.1:${port}/page.html`;
  for (let i = 0; i < 50; i++) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGQUIT");
      }),
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
