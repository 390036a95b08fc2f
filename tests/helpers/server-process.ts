import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
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
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "kongamano-srv-"));
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
