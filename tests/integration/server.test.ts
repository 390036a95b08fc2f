import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { get, type IncomingMessage } from "node:http";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, runServerExpectingExit, startServer } from "../helpers/server-process";

const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");

/** A GET that keeps the body as sent (fetch would decode it). */
async function rawGet(url: string, headers: Record<string, string> = {}) {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    get(url, { headers }, resolve).on("error", reject);
  });
  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    body: await buffer(response),
  };
}

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
    // Signed-in pages are never cached: every response is rendered with its own nonce.
    const [a, b] = await Promise.all([fetch(`${server.url}/auth`), fetch(`${server.url}/auth`)]);
    const nonceOf = (r: Response) =>
      r.headers.get("content-security-policy")?.match(/'nonce-([^']+)'/)?.[1];
    const csp = a.headers.get("content-security-policy") ?? "";
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
      expect(csp).toContain(directive);
    }
    expect(nonceOf(a)).toBeTruthy();
    expect(nonceOf(a)).not.toBe(nonceOf(b));
    // The page's scripts carry this response's nonce.
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

  it("counts sign-in failures by the socket's address: a forged X-Forwarded-For from an untrusted client buys no new attempts", async () => {
    // No TRUST_PROXY here (the default): each request names another client, all from one socket.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${server.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: server.url,
          "x-forwarded-for": `10.9.${i}.${i + 1}`,
        },
        body: JSON.stringify({ email: `client${i}.${Date.now()}@example.test`, password: "x-1" }),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it("shows the not-found screen with status 404 for unknown paths", async () => {
    const response = await fetch(`${server.url}/no-such-page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Oops! Page not found");
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>(?:(?!<\/a>)[\s\S])*Return to Home<\/a>/);
  });

  it("a cache hit sends stored br and gzip bytes that decode to the page, with a CSP whose hashes match its inline scripts", async () => {
    const path = "/about";
    const miss = await rawGet(`${server.url}${path}`, { "Accept-Encoding": "br" });
    expect(miss.headers["x-cache"]).toBe("MISS");
    // The entry is made beside the first response; later visitors get it.
    await expect
      .poll(async () => (await rawGet(`${server.url}${path}`)).headers["x-cache"])
      .toBe("HIT");
    const [br, gzip, plain] = await Promise.all([
      rawGet(`${server.url}${path}`, { "Accept-Encoding": "gzip, deflate, br, zstd" }),
      rawGet(`${server.url}${path}`, { "Accept-Encoding": "gzip, deflate" }),
      rawGet(`${server.url}${path}`),
    ]);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    for (const hit of [br, gzip, plain]) {
      expect(hit.status).toBe(200);
      expect(hit.headers["x-cache"]).toBe("HIT");
      expect(hit.headers.vary).toContain("Accept-Encoding");
      expect(Number(hit.headers["content-length"])).toBe(hit.body.length);
      expect(hit.headers["x-content-type-options"]).toBe("nosniff");
      expect(hit.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
    const html = brotliDecompressSync(br.body).toString();
    expect(gunzipSync(gzip.body).toString()).toBe(html);
    expect(plain.body.toString()).toBe(html);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(html).toContain("</html>");

    // No nonce is shared between visitors: the policy lists the page's inline scripts by hash.
    const csp = String(br.headers["content-security-policy"]);
    expect(csp).not.toContain("nonce-");
    expect(html).not.toMatch(/ nonce="/);
    const allowed = csp.match(/script-src ([^;]+)/)?.[1].split(" ") ?? [];
    expect(allowed.at(-1)).toBe("'strict-dynamic'");
    const inline = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
      .filter(([, attributes]) => !/src=|application\/ld\+json/.test(attributes))
      .map(([, , text]) => text);
    expect(inline.length).toBeGreaterThan(2);
    for (const text of inline) {
      const hash = `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
      expect(allowed).toContain(hash);
    }
    expect(allowed).toHaveLength(new Set(inline).size + 1);
  });

  it("gives a crawler without a cookie the share image as PNG bytes, from the render and from the cache", async () => {
    const events = await rawGet(`${server.url}/events`);
    const slug = events.body.toString().match(/href="\/events\/([a-z0-9-]+)"/)?.[1];
    expect(slug).toBeTruthy();
    const path = `/events/${slug}/og.png`;
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const miss = await rawGet(`${server.url}${path}`);
    expect(miss.status).toBe(200);
    expect(miss.headers["content-type"]).toBe("image/png");
    expect(miss.body.subarray(0, 8)).toEqual(png);
    // Compressing the image for the cache takes a moment on a busy machine.
    await expect
      .poll(async () => (await rawGet(`${server.url}${path}`)).headers["x-cache"], {
        timeout: 15_000,
      })
      .toBe("HIT");
    for (const encoding of [undefined, "gzip, deflate, br, zstd"]) {
      const hit = await rawGet(
        `${server.url}${path}`,
        encoding ? { "Accept-Encoding": encoding } : {},
      );
      const bytes =
        hit.headers["content-encoding"] === "br"
          ? brotliDecompressSync(hit.body)
          : hit.headers["content-encoding"] === "gzip"
            ? gunzipSync(hit.body)
            : hit.body;
      expect(bytes.equals(miss.body)).toBe(true);
    }
  });

  it("compresses a page rendered per request in one piece, with its length, in the encoding asked for", async () => {
    // /auth is never cached: every visitor's copy is rendered (and compressed) for them.
    const [br, gzip, plain] = await Promise.all([
      rawGet(`${server.url}/auth`, { "Accept-Encoding": "gzip, deflate, br, zstd" }),
      rawGet(`${server.url}/auth`, { "Accept-Encoding": "gzip, deflate" }),
      rawGet(`${server.url}/auth`),
    ]);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    for (const response of [br, gzip, plain]) {
      expect(response.status).toBe(200);
      expect(response.headers["x-cache"]).toBeUndefined();
      expect(response.headers.vary).toContain("Accept-Encoding");
      // One body of known length, not a chunked stream.
      expect(response.headers["transfer-encoding"]).toBeUndefined();
      expect(Number(response.headers["content-length"])).toBe(response.body.length);
    }
    // Each response has its own nonce; apart from it the three are the same page.
    const withoutNonce = (html: string) => html.replace(/[A-Za-z0-9+/=]{24}/g, "");
    const html = plain.body.toString();
    expect(html).toContain("</html>");
    expect(withoutNonce(brotliDecompressSync(br.body).toString())).toBe(withoutNonce(html));
    expect(withoutNonce(gunzipSync(gzip.body).toString())).toBe(withoutNonce(html));
    expect(br.body.length).toBeLessThan(html.length / 3);
  });

  it("sends assets as their build-time brotli and gzip copies, never compressing per request", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const asset = html.match(/\/assets\/[^"]+\.js/)?.[0] ?? "";
    const file = path.join(buildDir, "client", asset);
    const [br, gzip, plain] = await Promise.all([
      rawGet(`${server.url}${asset}`, { "Accept-Encoding": "gzip, deflate, br, zstd" }),
      rawGet(`${server.url}${asset}`, { "Accept-Encoding": "gzip" }),
      rawGet(`${server.url}${asset}`),
    ]);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.body.equals(readFileSync(`${file}.br`))).toBe(true);
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.body.equals(readFileSync(`${file}.gz`))).toBe(true);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(readFileSync(file))).toBe(true);
    for (const response of [br, gzip, plain]) {
      expect(response.headers.vary).toBe("Accept-Encoding");
      expect(response.headers["content-type"]).toMatch(/^text\/javascript/);
    }
    // Brotli at its best level: smaller than the gzip -9 copy.
    expect(br.body.length).toBeLessThan(gzip.body.length);
  });

  it("inlines the built stylesheet in its documents (decision 0066)", async () => {
    for (const page of ["/about", "/auth"]) {
      const html = await (await fetch(`${server.url}${page}`)).text();
      const href = html.match(/<style data-href="(\/assets\/[^"]+\.css)">/)?.[1] ?? "";
      expect(href).not.toBe("");
      // The emitted file ends with a newline the inlined text does not have.
      const css = readFileSync(path.join(buildDir, "client", href), "utf8").trimEnd();
      expect(html).toContain(`<style data-href="${href}">${css}</style>`);
      expect(html).not.toContain("kongamano:stylesheet");
    }
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
    // Sixteen uncached renders finish well inside the 7 s shutdown timeout even on a busy 2-core
    // machine (forty did not at a load average of 11: the timeout then cut the last ones off).
    const inflight = Array.from({ length: 16 }, () =>
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

describe("render gate (decision 0068)", () => {
  it("takes renders one at a time when told, and visitors who leave while waiting never jam it", async () => {
    const server = await startServer({ PAGE_CACHE: "false", RENDER_CONCURRENCY: "1" });
    try {
      // Twenty visitors at once; half of them give up while waiting their turn.
      const leaving = Array.from({ length: 10 }, () => {
        const controller = new AbortController();
        const request = fetch(`${server.url}/events`, { signal: controller.signal }).catch(
          (error: Error) => error.name,
        );
        setTimeout(() => controller.abort(), 5);
        return request;
      });
      const staying = Array.from({ length: 10 }, () =>
        fetch(`${server.url}/events`).then(async (r) => [r.status, (await r.text()).length]),
      );
      expect(await Promise.all(leaving)).toContain("AbortError");
      for (const [status, length] of await Promise.all(staying)) {
        expect(status).toBe(200);
        expect(length).toBeGreaterThan(10_000);
      }
      // Every slot came back: the next visitor is served at once, not after a hold timeout.
      const started = Date.now();
      expect((await fetch(`${server.url}/events`)).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(900);
    } finally {
      await server.stop();
    }
  }, 90_000);
});
