import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, runServerExpectingExit, startServer } from "../helpers/server-process";

// The production build served as `npm start` serves it (scripts/test.js builds it first).
describe("production server", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("answers health and readiness checks", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.text()).toBe("ready");
  });

  it("sends an enforced CSP with a fresh nonce per response and the other security headers", async () => {
    const [a, b] = await Promise.all([fetch(`${server.url}/`), fetch(`${server.url}/`)]);
    const nonceOf = (r: Response) =>
      r.headers.get("content-security-policy")?.match(/'nonce-([^']+)'/)?.[1];
    const csp = a.headers.get("content-security-policy") ?? "";
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
      expect(csp).toContain(directive);
    }
    expect(nonceOf(a)).toBeTruthy();
    expect(nonceOf(a)).not.toBe(nonceOf(b));
    // The page's scripts carry this response's nonce (also when served from the page cache).
    const html = await b.text();
    expect(html).toContain(`nonce="${nonceOf(b)}"`);
    expect(a.headers.get("x-content-type-options")).toBe("nosniff");
    expect(a.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(a.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get("strict-transport-security")).toBeNull(); // plain HTTP here
  });

  it("refuses state changes from a foreign origin", async () => {
    const response = await fetch(`${server.url}/contact`, {
      method: "POST",
      headers: {
        Origin: "https://evil.example",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "name=x",
    });
    expect(response.status).toBe(403);
  });

  it("shows the not-found screen with status 404 for unknown paths", async () => {
    const response = await fetch(`${server.url}/no-such-page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Oops! Page not found");
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>(?:(?!<\/a>)[\s\S])*Return to Home<\/a>/);
  });

  it("serves hashed assets as immutable for a year", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const asset = html.match(/\/assets\/[^"]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const response = await fetch(`${server.url}${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("refuses a second process on the same data directory with a clear message", async () => {
    const { code, output } = await runServerExpectingExit({ DATA_DIR: server.dataDir, PORT: "0" });
    expect(code).not.toBe(0);
    expect(output).toMatch(/is in use by another Kongamano process/);
  });
});

describe("start-up and shutdown", () => {
  it("stops with one line naming a bad variable", async () => {
    const { code, output } = await runServerExpectingExit({ PORT: "eighty" });
    expect(code).toBe(1);
    expect(output.trim()).toMatch(/^Invalid configuration: PORT .*"eighty"/);
    expect(output.trim().split("\n")).toHaveLength(1);
  });

  it("finishes in-flight requests on SIGTERM and exits 0 within 10 s", async () => {
    const server = await startServer({ PAGE_CACHE: "false" });
    const inflight = Array.from({ length: 40 }, () =>
      fetch(`${server.url}/events`).then(
        (r) => r.status,
        () => "failed",
      ),
    );
    await new Promise((r) => setTimeout(r, 30)); // let the requests reach the server
    const started = Date.now();
    const code = await server.stop("SIGTERM");
    const statuses = await Promise.all(inflight);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    // The embedded database was closed cleanly: it opens again with its data.
    const again = await startServer({ DATA_DIR: server.dataDir });
    expect((await fetch(`${again.url}/readyz`)).status).toBe(200);
    expect(await again.stop()).toBe(0);
  }, 90_000);
});
