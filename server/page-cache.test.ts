import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  type CachedPage,
  chooseEncoding,
  createCachedPage,
  isCacheableRequest,
  isCacheableResponse,
  PageCache,
  shareableDocument,
  sharedMaxAgeMs,
} from "./page-cache";

const page = (body: string, version = 0, storedAt = Date.now()): CachedPage => ({
  status: 200,
  headers: [],
  csp: "",
  identity: Buffer.from(body),
  br: Buffer.alloc(0),
  gzip: Buffer.alloc(0),
  storedAt,
  version,
});
const hashOf = (text: string) =>
  `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

describe("page cache", () => {
  it("serves only anonymous GETs of public pages", () => {
    expect(isCacheableRequest("GET", "/events", undefined)).toBe(true);
    expect(isCacheableRequest("GET", "/events.data", "theme=dark")).toBe(true);
    expect(isCacheableRequest("GET", "/events", "kongamano.session_token=abc")).toBe(false);
    expect(isCacheableRequest("GET", "/events", "a=1; __Secure-kongamano.session_token=x")).toBe(
      false,
    );
    expect(isCacheableRequest("GET", "/", "kongamano_toast=x")).toBe(false);
    expect(isCacheableRequest("POST", "/contact", undefined)).toBe(false);
    for (const path of [
      "/admin",
      "/admin/events",
      "/profile",
      "/auth",
      "/api/auth/x",
      "/admin.data",
    ]) {
      expect(isCacheableRequest("GET", path, undefined), path).toBe(false);
    }
  });

  it("stores only public 200 responses without cookies", () => {
    const h = (init: Record<string, string>) => new Headers(init);
    expect(isCacheableResponse(200, h({ "cache-control": "public, s-maxage=60" }))).toBe(true);
    expect(isCacheableResponse(200, h({}))).toBe(false);
    expect(isCacheableResponse(404, h({ "cache-control": "public" }))).toBe(false);
    expect(isCacheableResponse(200, h({ "cache-control": "private, no-store" }))).toBe(false);
    expect(isCacheableResponse(200, h({ "cache-control": "public", "set-cookie": "a=b" }))).toBe(
      false,
    );
  });

  it("drops entries when content changes or they expire, and evicts the least recently used", () => {
    const cache = new PageCache({ ttlMs: 1000, maxEntries: 2, maxBytes: 1_000_000 });
    cache.set("/a", page("A", 1));
    expect(cache.get("/a", 1)?.identity.toString()).toBe("A");
    expect(cache.get("/a", 2)).toBeUndefined(); // content changed since it was stored
    cache.set("/old", page("O", 1, Date.now() - 5000));
    expect(cache.get("/old", 1)).toBeUndefined();
    cache.set("/x", page("X", 1));
    cache.set("/y", page("Y", 1));
    cache.get("/x", 1);
    cache.set("/z", page("Z", 1));
    expect(cache.get("/y", 1)).toBeUndefined();
    expect(cache.get("/x", 1)?.identity.toString()).toBe("X");
  });

  it("keeps answering with an expired page while one request makes it again", () => {
    const cache = new PageCache({ ttlMs: 60_000, maxEntries: 10, maxBytes: 1_000_000 });
    const stored = Date.now();
    cache.set("/events", page("old", 1, stored));
    const later = stored + 61_000;
    expect(cache.get("/events", 1, later)).toBeUndefined(); // the first visitor renders it again
    // Everyone else meanwhile: the expired copy, not a render each.
    expect(cache.get("/events", 1, later + 1)?.identity.toString()).toBe("old");
    expect(cache.get("/events", 1, later + 5_000)?.identity.toString()).toBe("old");
    cache.set("/events", page("new", 1, later + 300));
    expect(cache.get("/events", 1, later + 400)?.identity.toString()).toBe("new");

    // A refresh that never arrives (the render failed) is tried again after 10 s …
    cache.set("/papers", page("P", 1, stored));
    expect(cache.get("/papers", 1, later)).toBeUndefined();
    expect(cache.get("/papers", 1, later + 9_000)?.identity.toString()).toBe("P");
    expect(cache.get("/papers", 1, later + 10_001)).toBeUndefined();
    expect(cache.get("/papers", 1, later + 10_002)?.identity.toString()).toBe("P");
    // … and an entry twice its time to live is never served.
    expect(cache.get("/papers", 1, stored + 120_001)).toBeUndefined();
    expect(cache.get("/papers", 1, stored + 120_002)).toBeUndefined();
    // A content change is never served stale.
    cache.set("/", page("home", 1, stored));
    expect(cache.get("/", 2, stored + 1)).toBeUndefined();
    expect(cache.get("/", 2, stored + 2)).toBeUndefined();
  });

  it("makes a page with a live figure again after its own s-maxage, still answering from it meanwhile", async () => {
    expect(sharedMaxAgeMs("public, s-maxage=5, stale-while-revalidate=30")).toBe(5000);
    expect(sharedMaxAgeMs("public, max-age=60")).toBeUndefined();
    const entry = await createCachedPage(
      {
        status: 200,
        headers: [
          ["content-type", "text/html"],
          ["cache-control", "public, s-maxage=5, stale-while-revalidate=30"],
        ],
        body: "<p>12 seats left</p>",
      },
      { nonce: "", version: 1, policyFor: () => "" },
    );
    expect(entry.ttlMs).toBe(5000);
    const cache = new PageCache({ ttlMs: 60_000, maxEntries: 10, maxBytes: 1_000_000 });
    cache.set("/events/summit", entry);
    const stored = entry.storedAt;
    expect(cache.get("/events/summit", 1, stored + 4_900)).toBe(entry);
    expect(cache.get("/events/summit", 1, stored + 5_100)).toBeUndefined(); // one render …
    expect(cache.get("/events/summit", 1, stored + 5_200)).toBe(entry); // … the rest are answered
    // A page cannot ask to be kept longer than the cache keeps anything.
    cache.set("/long", { ...page("L", 1, stored), ttlMs: 3_600_000 });
    expect(cache.get("/long", 1, stored + 61_000)).toBeUndefined();
  });

  it("shares a document without its nonce, allowing exactly its inline scripts by hash", () => {
    const module = 'import "/assets/entry-1.js";';
    const html = [
      '<html><head><script nonce="N0+/=">window.a="é"</script>',
      '<script type="application/ld+json">{"@type":"Event"}</script></head><body>',
      `<script type="text/x-deferred-module" id="kongamano-entry">${module}</script>`,
      '<script nonce="N0+/=">(function(){go()})()</script>',
      '<script nonce="N0+/=" src="/assets/x.js"></script></body></html>',
    ].join("");
    const shared = shareableDocument(html, "N0+/=");
    expect(shared.html).not.toContain("N0+/=");
    expect(shared.html).not.toContain("nonce=");
    expect(shared.html).toContain('<script>window.a="é"</script>');
    expect(shared.scriptHashes.sort()).toEqual(
      [hashOf('window.a="é"'), hashOf("(function(){go()})()"), hashOf(module)].sort(),
    );
  });

  it("makes an entry once: br and gzip bytes that decode to the page, and its own policy", async () => {
    const html = `<p>${"Nairobi — ".repeat(200)}</p><script nonce="abc">go()</script>`;
    const entry = await createCachedPage(
      {
        status: 200,
        headers: [
          ["content-type", "text/html; charset=utf-8"],
          ["content-length", "1"],
          ["cache-control", "public, s-maxage=60"],
        ],
        body: html,
      },
      { nonce: "abc", version: 3, policyFor: (hashes) => `script-src ${hashes.join(" ")}` },
    );
    const shared = html.replace(' nonce="abc"', "");
    expect(entry.identity.toString()).toBe(shared);
    expect(brotliDecompressSync(entry.br).toString()).toBe(shared);
    expect(gunzipSync(entry.gzip).toString()).toBe(shared);
    expect(entry.br.length).toBeLessThan(entry.identity.length / 5);
    expect(entry.csp).toBe(`script-src ${hashOf("go()")}`);
    expect(entry.headers).toEqual([
      ["content-type", "text/html; charset=utf-8"],
      ["cache-control", "public, s-maxage=60"],
    ]);
    expect(entry.version).toBe(3);
  });

  it("picks the stored encoding the browser accepts", () => {
    expect(chooseEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(chooseEncoding("gzip, deflate")).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding("identity")).toBeUndefined();
    expect(chooseEncoding(undefined)).toBeUndefined();
  });
});
