import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { contentVersion } from "~/lib/content-version.server";
import { PageCache } from "./page-cache";
import { pageCacheHits } from "./request-handler";

function request(host: string) {
  return { method: "GET", url: "/events", headers: { host } } as unknown as IncomingMessage;
}

function response() {
  const sent: { status?: number; body?: unknown } = {};
  const res = {
    writeHead: (status: number) => {
      sent.status = status;
    },
    end: (body: unknown) => {
      sent.body = body;
    },
  } as unknown as ServerResponse;
  return { res, sent };
}

describe("page-cache hits", () => {
  it("lets only a request for this site take the refresh of an expired page", () => {
    const cache = new PageCache({ ttlMs: 60_000, maxEntries: 10, maxBytes: 1_000_000 });
    const body = Buffer.from("<html>events</html>");
    cache.set("/events", {
      status: 200,
      headers: [["Content-Type", "text/html; charset=utf-8"]],
      csp: "script-src 'sha256-x'",
      identity: body,
      br: body,
      gzip: body,
      storedAt: Date.now() - 61_000,
      version: contentVersion(),
    });
    const answer = pageCacheHits(cache, {
      ownHostnames: new Set(["kongamano.example"]),
      https: false,
      securityHeaders: () => [],
    });

    // A forged host goes on to the app (which refuses it) without taking the refresh.
    expect(answer(request("evil.example"), response().res)).toBe(false);
    // The first visitor of the site renders the page again; the next is answered stale meanwhile.
    expect(answer(request("kongamano.example"), response().res)).toBe(false);
    const next = response();
    expect(answer(request("kongamano.example"), next.res)).toBe(true);
    expect(next.sent).toEqual({ status: 200, body });
  });
});
