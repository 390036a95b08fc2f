// `npm test`: unit + integration (Vitest), then end-to-end (Playwright, Debian Chromium), then a
// timing table: each phase and the ten slowest test files (issue 28).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const reports = mkdtempSync(path.join(tmpdir(), "kongamano-test-times-"));
const phases = [];
const files = [];
const counts = [];

const run = (name, cmd, args, env = {}) => {
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  phases.push([name, Date.now() - started]);
  if (result.status !== 0) {
    printTimes();
    process.exit(result.status ?? 1);
  }
};

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
};

function collectTimes() {
  const vitest = readJson(path.join(reports, "vitest.json"));
  if (vitest) {
    counts.push(
      `vitest: ${vitest.numTotalTests} tests in ${vitest.testResults.length} files, ${vitest.numFailedTests} failed`,
    );
  }
  for (const file of vitest?.testResults ?? []) {
    files.push([path.relative(process.cwd(), file.name), file.endTime - file.startTime]);
  }
  const playwright = readJson(path.join(reports, "playwright.json"));
  const walk = (suite, file) => {
    let total = 0;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        for (const result of test.results ?? []) total += result.duration ?? 0;
      }
    }
    for (const child of suite.suites ?? []) total += walk(child, file);
    return total;
  };
  if (playwright?.stats) {
    const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = playwright.stats;
    counts.push(
      `playwright: ${expected + unexpected + flaky + skipped} tests, ${unexpected} failed, ${flaky} flaky (passed on retry)`,
    );
  }
  for (const suite of playwright?.suites ?? []) {
    files.push([path.join("tests/e2e", suite.file), walk(suite, suite.file)]);
  }
}

/** Prints the table; with TEST_TIMES_FILE set (.ci/run) also writes it there, to print at its end. */
function printTimes() {
  collectTimes();
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(9);
  const lines = ["Times"];
  for (const [name, ms] of phases) lines.push(`  ${seconds(ms)}  ${name}`);
  for (const line of counts) lines.push(`  ${line}`);
  if (files.length > 0) {
    lines.push("Slowest test files (Playwright: sum of its tests' durations)");
    for (const [file, ms] of files.sort((a, b) => b[1] - a[1]).slice(0, 10)) {
      lines.push(`  ${seconds(ms)}  ${file}`);
    }
  }
  console.log(`\n${lines.join("\n")}`);
  if (process.env.TEST_TIMES_FILE)
    writeFileSync(process.env.TEST_TIMES_FILE, `${lines.join("\n")}\n`);
}

// The server integration tests and the e2e tests run the production build.
run("build (when missing)", "node", ["scripts/ensure-build.js"]);
run("vitest", "npx", [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${path.join(reports, "vitest.json")}`,
]);

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  const message = `End-to-end tests need Chromium at ${chromium}. Install it with: sudo apt-get install -y chromium (or set CHROMIUM_PATH).`;
  if (process.env.CI === "true") {
    console.error(`✖ ${message}`);
    process.exit(1);
  }
  console.warn(`⚠ Skipping end-to-end tests. ${message}`);
  printTimes();
  process.exit(0);
}

run("playwright", "npx", ["playwright", "test", "--reporter=list,json", ...process.argv.slice(2)], {
  PLAYWRIGHT_JSON_OUTPUT_FILE: path.join(reports, "playwright.json"),
});
printTimes();
