import { type ChildProcess, execFile, spawn } from "node:child_process";
import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { connect } from "node:net";
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

/**
 * Starts the production build on a free port and waits until it is ready. Fails loudly (never a
 * silent exit) when the port is already taken (a leftover server would answer in our place), when
 * the server exits during start-up, or when it is not ready within two minutes.
 */
export async function startBuiltServer(
  env: Record<string, string>,
  port: number,
  nodeArgs: string[] = [],
): Promise<Server> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "kongamano-bench-"));
  const url = `http://127.0.0.1:${port}`;
  if (await portAnswers(port)) {
    throw new Error(
      `Port ${port} is already in use (a server left over from an earlier run?): stop that process first, e.g. find it with \`ss -ltnp 'sport = :${port}'\`.`,
    );
  }
  // The server's own log (errors only) goes to a file, so the figures stay readable.
  const logFile = path.join(tmpdir(), `kongamano-bench-${port}.log`);
  const log = openSync(logFile, "a");
  const logStart = statSync(logFile).size;
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
  closeSync(log);
  const exited = new Promise<string>((resolve) => {
    child.once("exit", (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`));
  });
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  const failure = (what: string) => {
    const tail = readFileSync(logFile, "utf8").slice(logStart).trim().split("\n").slice(-15);
    return new Error(
      `The server on port ${port} ${what}. Its log (${logFile}):\n${tail.join("\n") || "(empty)"}`,
    );
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (hasExited()) throw failure(`exited during start-up (${await exited})`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw failure("was not ready within 120 s and was killed");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  // Ready, but maybe from another process that took the port meanwhile: ours must still run.
  if (hasExited()) throw failure(`exited during start-up (${await exited})`);
  return {
    url,
    logFile,
    child,
    dataDir,
    stop: async () => {
      if (!hasExited()) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Whether something already accepts connections on 127.0.0.1:port. */
function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
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
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  for (let i = 0; ; i++) {
    // nginx reports its own failures (a port in use) on stderr, which this process shows.
    if (hasExited()) throw new Error(`nginx on port ${port} exited during start-up`);
    try {
      if ((await fetch(url)).ok) break;
    } catch {}
    if (i === 50) {
      child.kill("SIGKILL");
      throw new Error(`nginx on port ${port} did not serve ${url} within 5 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: async () => {
      if (!hasExited()) child.kill("SIGQUIT");
      await exited;
    },
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
