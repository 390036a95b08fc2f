import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseEnv, setEnv } from "~/lib/env.server";

// Every test file gets its own data directory and a known configuration.
const dataDir = mkdtempSync(path.join(tmpdir(), "kongamano-test-"));
setEnv(
  parseEnv({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    BASE_URL: "http://localhost:3000",
    SESSION_SECRET: "test-secret-test-secret-test-secret-0123456789",
    LOG_LEVEL: "silent",
  }),
);
