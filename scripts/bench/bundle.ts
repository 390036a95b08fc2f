// npm run bench:bundle — JavaScript a browser loads on the first visit of each page, as
// transferred: Chromium (Debian) opens each page in a fresh profile, waits until it has
// hydrated and the network is idle, and sums the scripts' encoded body sizes (brotli, as the
// server sends them) from the page's resource timing. Public pages and every back-office screen.
import { readFileSync } from "node:fs";
import { chromium } from "@playwright/test";
import { startBuiltServer, table } from "./lib";

// BENCH_PORT: another session may be measuring on the default port at the same time.
// Admins' two-factor requirement is off for the run: otherwise every admin screen redirects to
// the enrolment page and the figures would be that page's (the scripts do not depend on it).
const server = await startBuiltServer(
  { REQUIRE_ADMIN_MFA: "false" },
  Number(process.env.BENCH_PORT ?? 4901),
);
const rows: Array<Record<string, string | number>> = [];
/** Staff pages over the 160 KB back-office budget (design.md §5): the run fails with them. */
const overBudget: string[] = [];
try {
  const eventsHtml = await (await fetch(`${server.url}/events`)).text();
  const papersHtml = await (await fetch(`${server.url}/papers`)).text();
  const eventPath = eventsHtml.match(/href="(\/events\/[a-z0-9-]+)"/)?.[1];
  const paperPath = papersHtml.match(/href="(\/papers\/[a-z0-9-]+)"/)?.[1];
  const pages: Array<[string, string, Record<string, string>?]> = [
    ["/", "/"],
    ["/events", "/events"],
    ["event page", eventPath ?? "/events"],
    ["/papers", "/papers"],
    ["paper page", paperPath ?? "/papers"],
    ["/offices", "/offices"],
    ["/contact", "/contact"],
    ["/membership", "/membership"],
    ["/auth", "/auth"],
  ];
  // Every back-office screen (issue 30 item 8), as an admin sees it (signed in through the real
  // endpoint): the screens of app/routes.ts, their ids taken from the links of the lists.
  const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.url },
    body: JSON.stringify({ email: "admin@kongamano.org", password: "Kongamano-demo-2026" }),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!signIn.ok || !cookie) throw new Error(`admin sign-in failed: HTTP ${signIn.status}`);
  for (const [path, url] of await staffPages(server.url, cookie)) {
    pages.push([`${path} (admin)`, url, { cookie }]);
  }
  // BENCH_ONLY=/admin/events: measure only the pages whose name contains it.
  const only = process.env.BENCH_ONLY;
  if (only) pages.splice(0, pages.length, ...pages.filter(([name]) => name.includes(only)));

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox"],
  });
  try {
    for (const [name, url, headers] of pages) {
      // A fresh profile per page: a first visit, nothing cached. Chromium asks with its own
      // Accept-Encoding (gzip, deflate, br, zstd), so the bytes are what its network panel shows.
      const context = await browser.newContext();
      if (headers?.cookie) {
        await context.addCookies(
          headers.cookie.split("; ").map((pair) => {
            const [cookieName, ...value] = pair.split("=");
            return { name: cookieName, value: value.join("="), url: server.url };
          }),
        );
      }
      const page = await context.newPage();
      await page.goto(`${server.url}${url}`);
      await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
      await page.waitForLoadState("networkidle");
      const scripts = await page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .map((entry) => entry as PerformanceResourceTiming)
          .filter((entry) => new URL(entry.name).pathname.endsWith(".js"))
          .map((entry) => ({
            name: new URL(entry.name).pathname,
            encoded: entry.encodedBodySize,
            decoded: entry.decodedBodySize,
          })),
      );
      // BENCH_FILES=1: which scripts a page loads (to find what to split or load later).
      if (process.env.BENCH_FILES) {
        console.log(`\n${name}`);
        for (const script of scripts.sort((a, b) => b.encoded - a.encoded)) {
          console.log(`  ${(script.encoded / 1024).toFixed(1).padStart(6)} KB  ${script.name}`);
        }
      }
      await context.close();
      const sum = (key: "encoded" | "decoded") =>
        scripts.reduce((total, script) => total + script[key], 0) / 1024;
      if (name.startsWith("/admin") && sum("encoded") > 160) overBudget.push(name);
      rows.push({
        page: name,
        files: scripts.length,
        "raw KB": sum("decoded").toFixed(1),
        "transferred KB": sum("encoded").toFixed(1),
      });
    }
  } finally {
    await browser.close();
  }
} finally {
  await server.stop();
}
console.log(
  "\nbench:bundle — JavaScript transferred on a first visit in Chromium (budgets: 130 KB for public pages, 160 KB for staff pages)\n",
);
table(rows);
if (overBudget.length > 0) {
  console.error(`\nOver the 160 KB staff budget: ${overBudget.join(", ")}`);
  process.exitCode = 1;
}

/**
 * The back-office screens of app/routes.ts (routes with a default export under /admin), each
 * with a URL: a route with parameters gets the first matching link found on the screens without.
 */
async function staffPages(origin: string, cookie: string): Promise<Array<[string, string]>> {
  const routes = (await import("../../app/routes")).default as RouteEntry[];
  const screens = flattenRoutes(routes).filter(
    ({ path, file }) =>
      path.startsWith("/admin") && /^export default /m.test(readFileSync(`app/${file}`, "utf8")),
  );
  const html: string[] = [];
  const found: Array<[string, string]> = [];
  for (const { path } of screens.filter((r) => !r.path.includes(":"))) {
    found.push([path, path]);
    html.push(await (await fetch(`${origin}${path}`, { headers: { cookie } })).text());
  }
  // A screen with parameters may be linked from another one (check-in from registrations).
  let waiting = screens.filter((r) => r.path.includes(":"));
  for (let progress = true; progress && waiting.length > 0; ) {
    progress = false;
    for (const { path } of waiting) {
      const pattern = new RegExp(`href="(${path.replace(/:[a-zA-Z]+/g, '[^/"?#]+')})"`);
      const url = html.map((page) => page.match(pattern)?.[1]).find(Boolean);
      if (!url) continue;
      found.push([path, url]);
      html.push(await (await fetch(`${origin}${url}`, { headers: { cookie } })).text());
      waiting = waiting.filter((r) => r.path !== path);
      progress = true;
    }
  }
  for (const { path } of waiting)
    console.error(`No link to ${path} on the staff pages: not measured`);
  return found;
}

type RouteEntry = { path?: string; file: string; index?: boolean; children?: RouteEntry[] };

function flattenRoutes(entries: RouteEntry[], parent = ""): Array<{ path: string; file: string }> {
  return entries.flatMap((entry) => {
    const full = `/${[parent, entry.path ?? ""].filter(Boolean).join("/")}`.replace(/\/+/g, "/");
    if (entry.children?.length) return flattenRoutes(entry.children, full);
    return [{ path: full.length > 1 ? full.replace(/\/$/, "") : full, file: entry.file }];
  });
}
