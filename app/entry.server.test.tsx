import { Suspense } from "react";
import { Await, createRequestHandler, Outlet, type ServerBuild, useLoaderData } from "react-router";
import { describe, expect, it } from "vitest";
import handleRequest from "./entry.server";

function Root() {
  const { title, speakers } = useLoaderData<{ title: string; speakers?: Promise<string> }>();
  return (
    <html lang="en">
      <body>
        <h1>{title}</h1>
        {speakers ? (
          <Suspense fallback={<p>Loading speakers…</p>}>
            <Await resolve={speakers}>{(names) => <p>{names}</p>}</Await>
          </Suspense>
        ) : null}
        <Outlet />
      </body>
    </html>
  );
}

/** The smallest build React Router will render through our entry: one root route with data. */
function buildWith(loader: () => unknown): ServerBuild {
  return {
    entry: { module: { default: handleRequest } as ServerBuild["entry"]["module"] },
    routes: {
      root: {
        id: "root",
        path: "",
        module: { default: Root, loader },
      },
    },
    assets: {
      entry: { module: "/assets/entry.client.js", imports: [] },
      routes: {
        root: {
          id: "root",
          path: "",
          module: "/assets/root.js",
          hasLoader: true,
          hasAction: false,
          hasClientLoader: false,
          hasClientAction: false,
          hasClientMiddleware: false,
          hasErrorBoundary: false,
        },
      },
      url: "/assets/manifest.js",
      version: "test",
    },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
    basename: "/",
  } as unknown as ServerBuild;
}

const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

describe("document rendering (entry.server)", () => {
  it("leaves no timer behind once a document has been sent, for browsers and for bots", async () => {
    const handle = createRequestHandler(
      buildWith(() => ({ title: "Upcoming events" })),
      "production",
    );
    const before = timers();
    for (const userAgent of ["Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0", "Googlebot/2.1"]) {
      for (let i = 0; i < 10; i++) {
        const response = await handle(
          new Request("http://127.0.0.1/", { headers: { "user-agent": userAgent } }),
          { cspNonce: "n0nce", requestId: "r" },
        );
        expect(response.status).toBe(200);
        expect(await response.text()).toContain("<h1>Upcoming events</h1>");
      }
    }
    // React's renderer schedules its own work with zero-delay timers; let those run first.
    await new Promise((resolve) => setTimeout(resolve, 10));
    // A timer still pending holds its closure, and with it the render's state and loader data:
    // at a few hundred pages a second, seconds of them.
    expect(timers() - before).toBeLessThan(3);
  });

  it("sends the document as UTF-8 with its exact length, whatever the script and size", async () => {
    // Non-ASCII text, and a piece long enough that React writes it on its own rather than with
    // its neighbours: both must come out as the same characters, and the length must be bytes.
    const title = "Kongamano la Nairobi — Café ✓ 会議 🎉 <&>";
    const long = "Ushirikiano wa kimataifa · ".repeat(400);
    const handle = createRequestHandler(
      buildWith(() => ({ title, speakers: Promise.resolve(long) })),
      "production",
    );
    for (const userAgent of ["Mozilla/5.0 Chrome/130.0", "Googlebot/2.1"]) {
      const response = await handle(
        new Request("http://127.0.0.1/", { headers: { "user-agent": userAgent } }),
        { cspNonce: "n0nce", requestId: "r" },
      );
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(response.headers.get("content-length")).toBe(String(bytes.byteLength));
      const html = bytes.toString("utf8");
      expect(html).toContain("<h1>Kongamano la Nairobi — Café ✓ 会議 🎉 &lt;&amp;&gt;</h1>");
      expect(html).toContain(`<p>${long}</p>`);
      expect(html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
      expect(html.endsWith("</body></html>")).toBe(true);
    }
  });

  it("streams slow data behind its fallback, and leaves no timer behind either", async () => {
    const handle = createRequestHandler(
      buildWith(() => ({
        title: "Summit",
        speakers: new Promise((resolve) => setTimeout(() => resolve("Amina, Brian"), 150)),
      })),
      "production",
    );
    const before = timers();
    for (let i = 0; i < 8; i++) {
      const response = await handle(
        new Request("http://127.0.0.1/", { headers: { "user-agent": "Mozilla/5.0 Chrome/130.0" } }),
        { cspNonce: "n0nce", requestId: "r" },
      );
      // Streamed: no length known up front, the fallback first and the data after it.
      expect(response.headers.get("content-length")).toBeNull();
      const html = await response.text();
      expect(html).toContain("Loading speakers…");
      expect(html).toContain("Amina, Brian");
    }
    expect(timers() - before).toBeLessThan(3);
  });
});
