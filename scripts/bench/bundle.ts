// npm run bench:bundle — JavaScript (gzip) a browser loads on the first visit of each page:
// every script the server-rendered HTML has the browser load on its own.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { startBuiltServer, table } from "./lib";

const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
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

  for (const [name, url, headers] of pages) {
    const html = await (await fetch(`${server.url}${url}`, { headers })).text();
    // Script tags and preloads, the deferred loader's preload list, the inline module's imports.
    const preloadList = html.match(/\}\)\((\["\/assets\/[^\]]*\])\)<\/script>/)?.[1];
    const scripts = new Set([
      ...[...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]),
      ...(preloadList ? (JSON.parse(preloadList) as string[]) : []),
      ...[...html.matchAll(/(?:from |import\()"(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]),
    ]);
    let raw = 0;
    let gzip = 0;
    for (const script of scripts) {
      const content = readFileSync(path.join(buildDir, "client", script));
      raw += content.length;
      gzip += gzipSync(content, { level: 9 }).length;
    }
    rows.push({
      page: name,
      files: scripts.size,
      "raw KB": (raw / 1024).toFixed(1),
      "gzip KB": (gzip / 1024).toFixed(1),
    });
  }
} finally {
  await server.stop();
}
console.log(
  "\nbench:bundle — JavaScript loaded on first visit (budget: 150 KB gzip for public pages)\n",
);
table(rows);
