import { describe, expect, it } from "vitest";
import { isCacheableRequest, isCacheableResponse, PageCache, withNonce } from "./page-cache";

const page = (body: string, version = 0, storedAt = Date.now()) => ({
  status: 200,
  headers: [] as Array<[string, string]>,
  body,
  nonce: "OLDNONCE",
  storedAt,
  version,
});

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
    expect(cache.get("/a", 1)?.body).toBe("A");
    expect(cache.get("/a", 2)).toBeUndefined(); // content changed since it was stored
    cache.set("/old", page("O", 1, Date.now() - 5000));
    expect(cache.get("/old", 1)).toBeUndefined();
    cache.set("/x", page("X", 1));
    cache.set("/y", page("Y", 1));
    cache.get("/x", 1);
    cache.set("/z", page("Z", 1));
    expect(cache.get("/y", 1)).toBeUndefined();
    expect(cache.get("/x", 1)?.body).toBe("X");
  });

  it("gives every hit its own nonce", () => {
    const entry = page('<script nonce="OLDNONCE">1</script><link nonce="OLDNONCE">');
    expect(withNonce(entry, "NEW").toString()).toBe(
      '<script nonce="NEW">1</script><link nonce="NEW">',
    );
    // Every hit, not just the first.
    expect(withNonce(entry, "NEWER").toString()).toBe(
      '<script nonce="NEWER">1</script><link nonce="NEWER">',
    );
    const plain = page("<p>Nairobi — no scripts</p>");
    expect(withNonce({ ...plain, nonce: "" }, "NEW").toString()).toBe(
      "<p>Nairobi — no scripts</p>",
    );
  });
});
