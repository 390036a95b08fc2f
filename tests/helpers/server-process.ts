import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { serverErrorsIn } from "./server-log";

export type RunningServer = {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
};

/**
 * A port no one listens on, from the system: test files run side by side (Vitest's workers), and
 * a port picked from a fixed range could meet another file's server, whose /healthz would answer.
 */
async function freePort() {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", resolve);
  });
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (typeof address !== "object" || !address) throw new Error("no free port");
  return address.port;
}

/** Every server this test file started, with the 5xx statuses its test provokes on purpose. */
const started: Array<{ output: () => string; expected: (status: number) => boolean }> = [];

/**
 * 5xx responses logged by this file's servers that no test asked for (tests/helpers/setup.ts
 * fails the file on any: a full run's server logs hold no 500).
 */
export function unexpectedServerErrors() {
  return started.flatMap(({ output, expected }) => serverErrorsIn(output(), expected));
}

/** Starts the production build (`node server/index.js`) and waits for /healthz. */
export async function startServer(
  env: Record<string, string> = {},
  {
    timeoutMs = 60_000,
    expectedErrors = [],
  }: {
    timeoutMs?: number;
    /** 5xx statuses the test provokes on purpose (e.g. 503 with the database cut off). */
    expectedErrors?: number[];
  } = {},
): Promise<RunningServer> {
  const port = await freePort();
  let dataDir = env.DATA_DIR;
  if (!dataDir) {
    dataDir = mkdtempSync(path.join(tmpdir(), "kongamano-srv-"));
    const seeded = firstStartLikeEveryOther(env) ? await seededDataDir() : undefined;
    if (seeded) cpSync(seeded, dataDir, { recursive: true });
  }
  const child = spawn(process.execPath, ["server/index.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: dataDir,
      BASE_URL: `http://127.0.0.1:${port}`, // Vitest puts Vite's BASE_URL ("/") in process.env
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  started.push({ output: () => output, expected: (status) => expectedErrors.includes(status) });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  exited.then((code) => {
    exitCode = code;
  });
  while (Date.now() < deadline) {
    if (exitCode !== undefined)
      throw new Error(`server exited (${exitCode}) during start:\n${output}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    dataDir,
    child,
    output: () => output,
    exited,
    async stop(signal = "SIGTERM") {
      if (exitCode === undefined) child.kill(signal);
      return exited;
    },
  };
}

/** Runs the server to completion (for start-up failures) and returns its exit code and output. */
export async function runServerExpectingExit(env: Record<string, string>, timeoutMs = 30_000) {
  const child = spawn(process.execPath, ["server/index.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      BASE_URL: "http://127.0.0.1:3000",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearTimeout(timer);
  return { code, output };
}

/**
 * A server on a new embedded database with the demo seeded: what every fresh start makes the
 * same way (migrations, demo content), so it is made once per run and copied (issue 28).
 */
function firstStartLikeEveryOther(env: Record<string, string>) {
  return !env.DATABASE_URL && env.SEED_DEMO === undefined;
}

/**
 * The run's seeded data directory, made by the first file that needs it (the others wait for
 * it): a server started on an empty directory with its job worker off, so the demo's jobs are
 * still due in every copy, and stopped. Undefined outside Vitest or when the making failed;
 * the server then seeds its own directory, as before.
 */
async function seededDataDir(): Promise<string | undefined> {
  let root: string;
  try {
    root = inject("serverDataTemplate");
  } catch {
    return undefined;
  }
  if (!root) return undefined;
  const dir = path.join(root, "data");
  const ready = path.join(root, "ready");
  const failed = path.join(root, "failed");
  try {
    mkdirSync(path.join(root, "making"));
  } catch {
    // Another file is making it (or has): wait for the outcome.
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (existsSync(ready)) return dir;
      if (existsSync(failed)) return undefined;
      await new Promise((r) => setTimeout(r, 100));
    }
    return undefined;
  }
  try {
    const server = await startServer({
      DATA_DIR: dir,
      JOBS_WORKER: "false",
      SHUTDOWN_DRAIN_MS: "0",
    });
    const code = await server.stop();
    if (code !== 0) throw new Error(`the template server exited with ${code}:\n${server.output()}`);
    writeFileSync(ready, "");
    return dir;
  } catch (error) {
    writeFileSync(failed, String(error));
    return undefined;
  }
}
