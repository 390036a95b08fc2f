import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

const include = [
  "app/**/*.test.{ts,tsx}",
  "server/**/*.test.ts",
  "tests/integration/**/*.test.ts",
  "scripts/**/*.test.ts",
];

/**
 * With TEST_DATABASE_URL (CI's PostgreSQL pass) only the files that open a test database run
 * again: the others would repeat the embedded-database pass line for line (issue 28).
 */
function databaseTestFiles() {
  const marker = /useTestDatabase|createTestDatabase|partial-migrations|TEST_DATABASE_URL/;
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.test\.tsx?$/.test(entry.name) && marker.test(readFileSync(file, "utf8"))) {
        files.push(file);
      }
    }
  };
  for (const dir of ["app", "server", "tests/integration", "scripts"]) walk(dir);
  return files;
}

/**
 * Files that need a process of their own: they test what a process does before a module is wired
 * or loaded, or replace a module with vi.mock. Every other file shares its worker's modules with
 * the files before it (decision 0118).
 */
const OWN_PROCESS = ["app/models/orders/reactions.server.test.ts"];

const files = process.env.TEST_DATABASE_URL ? databaseTestFiles() : include;

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // Vitest never picks up Playwright specs (tests/e2e).
    projects: [
      {
        extends: true,
        test: { name: "shared modules", include: files, exclude: OWN_PROCESS, isolate: false },
      },
      {
        extends: true,
        test: {
          name: "own process",
          include: process.env.TEST_DATABASE_URL
            ? files.filter((file) => OWN_PROCESS.includes(file))
            : OWN_PROCESS,
        },
      },
    ],
    environment: "node",
    setupFiles: ["tests/helpers/setup.ts"],
    // One migrated database per run, copied by each test file (tests/helpers/db.ts).
    globalSetup: ["tests/helpers/template-database.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at a time. Vitest's default is one worker fewer than the cores, which on a
    // 2-core machine is one: every file ran after the other while a core waited on a spawned
    // server, PostgreSQL or a mail. Each file still has its own database and data directory;
    // VITEST_MAX_WORKERS overrides (decision 0088).
    maxWorkers: 2,
  },
});
