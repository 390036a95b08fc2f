import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { parseEnv, setEnv } from "~/lib/env.server";
import { TEST_SETTINGS } from "./env";
import { unexpectedServerErrors } from "./server-process";

// Every test file gets its own data directory and a known configuration.
const dataDir = mkdtempSync(path.join(tmpdir(), "kongamano-test-"));
setEnv(parseEnv({ ...TEST_SETTINGS, DATA_DIR: dataDir }));

// A production server started by this file (tests/helpers/server-process.ts) answered no 5xx
// that its test did not provoke on purpose.
afterAll(() => {
  const errors = unexpectedServerErrors();
  if (errors.length > 0) {
    throw new Error(`The server logged unexpected 5xx responses:\n${errors.join("\n")}`);
  }
});
