// npm run bench:lighthouse [-- --runs 5 --only /,/events] — Lighthouse (mobile, default throttling) in Debian's
// Chromium against the production build with demo data; median score of each category.
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { startBuiltServer, table } from "./lib";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    // e.g. --only /,/events: measure only these pages (comma-separated paths)
    only: { type: "string" },
  },
});
const runs = Number(values.runs);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const server = await startBuiltServer({}, 4902);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  chromeFlags: [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
const rows: Array<Record<string, string | number>> = [];
const failed: string[] = [];
try {
  const eventsHtml = await (await fetch(`${server.url}/events`)).text();
  const papersHtml = await (await fetch(`${server.url}/papers`)).text();
  const pages = [
    "/",
    "/events",
    eventsHtml.match(/href="(\/events\/[a-z0-9-]+)"/)?.[1] ?? "/events",
    "/papers",
    papersHtml.match(/href="(\/papers\/[a-z0-9-]+)"/)?.[1] ?? "/papers",
    "/offices",
  ];
  const only = values.only?.split(",");
  for (const page of pages.filter((p) => !only || only.some((prefix) => p === prefix))) {
    const scores: Record<string, number[]> = {
      performance: [],
      accessibility: [],
      "best-practices": [],
      seo: [],
    };
    const metrics: Record<string, number[]> = {
      "first-contentful-paint": [],
      "largest-contentful-paint": [],
      "total-blocking-time": [],
      "cumulative-layout-shift": [],
    };
    for (let i = 0; i < runs; i++) {
      const result = await lighthouse(`${server.url}${page}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: Object.keys(scores),
      });
      const failure = result?.lhr.runtimeError;
      if (!result || failure) {
        // A run Lighthouse could not complete is reported, not scored as 0.
        failed.push(`${page}: ${failure?.code ?? "no result"}`);
        continue;
      }
      for (const key of Object.keys(scores)) {
        scores[key].push(Math.round((result.lhr.categories[key]?.score ?? 0) * 100));
      }
      for (const key of Object.keys(metrics)) {
        metrics[key].push(result?.lhr.audits[key]?.numericValue ?? Number.NaN);
      }
    }
    rows.push({
      page,
      performance: median(scores.performance),
      accessibility: median(scores.accessibility),
      "best practices": median(scores["best-practices"]),
      seo: median(scores.seo),
      "FCP ms": Math.round(median(metrics["first-contentful-paint"])),
      "LCP ms": Math.round(median(metrics["largest-contentful-paint"])),
      "TBT ms": Math.round(median(metrics["total-blocking-time"])),
      CLS: median(metrics["cumulative-layout-shift"]).toFixed(3),
      "perf runs": scores.performance.join(" "),
    });
  }
} finally {
  await chrome.kill();
  await server.stop();
}
console.log(
  `\nbench:lighthouse — mobile, median of ${runs} runs (budgets: performance ≥ 95, accessibility 100, best practices ≥ 95, SEO 100)\n`,
);
table(rows);
if (failed.length)
  console.log(`\nruns Lighthouse could not complete (left out): ${failed.join("; ")}`);
