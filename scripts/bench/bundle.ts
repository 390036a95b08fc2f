// npm run bench:bundle — JavaScript a browser loads on the first visit of each page, as
// transferred: Chromium (Debian) opens each page in a fresh profile, waits until it has
// hydrated and the network is idle, and sums the scripts' encoded body sizes (brotli, as the
// server sends them) from the page's resource timing.
import { chromium } from "@playwright/test";
import { startBuiltServer, table } from "./lib";

const server = await startBuiltServer({}, 4901);
const rows: Array<Record<string, string | number>> = [];
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
  // The admin area as an editor sees it (signed in through the real endpoint).
  const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.url },
    body: JSON.stringify({ email: "editor@kongamano.org", password: "Kongamano-demo-2026" }),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!signIn.ok || !cookie) throw new Error(`editor sign-in failed: HTTP ${signIn.status}`);
  pages.push(
    ["/admin (editor)", "/admin", { cookie }],
    ["/admin/events/new", "/admin/events/new", { cookie }],
  );

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
          .map((entry) => ({ encoded: entry.encodedBodySize, decoded: entry.decodedBodySize })),
      );
      await context.close();
      const sum = (key: "encoded" | "decoded") =>
        scripts.reduce((total, script) => total + script[key], 0) / 1024;
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
  "\nbench:bundle — JavaScript transferred on a first visit in Chromium (budget: 130 KB for public pages)\n",
);
table(rows);
