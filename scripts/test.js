// `npm test`: unit + integration (Vitest), then end-to-end (Playwright, Debian Chromium).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const run = (cmd, args, env = {}) => {
  const result = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

// The server integration tests and the e2e tests run the production build.
run("node", ["scripts/ensure-build.js"]);
run("npx", ["vitest", "run"]);

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  const message = `End-to-end tests need Chromium at ${chromium}. Install it with: sudo apt-get install -y chromium (or set CHROMIUM_PATH).`;
  if (process.env.CI === "true") {
    console.error(`✖ ${message}`);
    process.exit(1);
  }
  console.warn(`⚠ Skipping end-to-end tests. ${message}`);
  process.exit(0);
}

run("npx", ["playwright", "test", ...process.argv.slice(2)]);
