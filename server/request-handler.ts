import {
  createReadableStreamFromReadable,
  writeReadableStreamToWritable,
} from "@react-router/node";
import type { NextFunction, Request, Response } from "express";
import {
  type AppLoadContext,
  createRequestHandler as createRouterHandler,
  type ServerBuild,
} from "react-router";
import { contentVersion } from "~/lib/content-version.server";
import { REQUEST_KEY_HEADER, takeResponseCookies } from "~/lib/response-cookies.server";
import { isCacheableRequest, isCacheableResponse, type PageCache, withNonce } from "./page-cache";

/**
 * Express → React Router, like @react-router/express, plus the anonymous page cache in between.
 */
export function createRequestHandler({
  build,
  mode,
  getLoadContext,
  cache,
  databaseDown,
}: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  getLoadContext: (req: Request, res: Response) => AppLoadContext;
  cache?: PageCache;
  /** Asked after a page failed with a 5xx: true turns the answer into 503 Service Unavailable. */
  databaseDown?: () => Promise<boolean>;
}) {
  const handle = createRouterHandler(build, mode);
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const loadContext = getLoadContext(req, res);
      const cacheKey =
        cache && isCacheableRequest(req.method, req.path, req.headers.cookie)
          ? req.originalUrl
          : undefined;
      const version = contentVersion();
      if (cache && cacheKey) {
        const hit = cache.get(cacheKey, version);
        if (hit) {
          res.status(hit.status);
          copyHeaders(res, hit.headers);
          res.setHeader("X-Cache", "HIT");
          res.end(withNonce(hit, loadContext.cspNonce));
          return;
        }
      }
      const requestKey = req.headers[REQUEST_KEY_HEADER] as string | undefined;
      let response: globalThis.Response;
      try {
        response = await handle(toFetchRequest(req, res), loadContext);
      } finally {
        for (const cookie of takeResponseCookies(requestKey)) res.append("Set-Cookie", cookie);
      }
      // A page that failed because the database is unreachable is a temporary condition: 503
      // with Retry-After tells browsers, crawlers and load balancers to come back (as /readyz
      // does), where a 500 would say the page itself is broken. Data requests keep their status.
      if (response.status >= 500 && !req.path.endsWith(".data") && (await databaseDown?.())) {
        response = unavailable(response);
      }
      if (cache && cacheKey && isCacheableResponse(response.status, response.headers)) {
        const body = await response.text();
        const headers = [...response.headers.entries()].filter(([k]) => k !== "content-length");
        // A render that overlapped a content change may hold stale data: serve it, don't keep it.
        if (contentVersion() === version) {
          cache.set(cacheKey, {
            status: response.status,
            headers,
            body,
            nonce: loadContext.cspNonce,
            storedAt: Date.now(),
            version,
          });
        }
        res.status(response.status);
        copyHeaders(res, headers);
        res.setHeader("X-Cache", "MISS");
        res.end(body);
        return;
      }
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function unavailable(response: globalThis.Response) {
  const headers = new Headers(response.headers);
  headers.set("Retry-After", "5");
  headers.set("Cache-Control", "no-store");
  return new globalThis.Response(response.body, {
    status: 503,
    statusText: "Service Unavailable",
    headers,
  });
}

function toFetchRequest(req: Request, res: Response) {
  const url = new URL(`${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`);
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (values === undefined) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers,
    signal: controller.signal,
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new globalThis.Request(url.href, init);
}

async function sendResponse(res: Response, response: globalThis.Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  copyHeaders(res, response.headers.entries());
  if (!response.body) {
    res.end();
    return;
  }
  // A body of known length (a document rendered whole) is written at once, not chunk by chunk.
  if (response.headers.has("content-length")) {
    res.end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (!(res.destroyed || res.writableEnded)) throw error;
  }
}

/** Route headers replace the server's defaults (e.g. nosniff) instead of repeating them. */
function copyHeaders(res: Response, headers: Iterable<[string, string]>) {
  for (const [key, value] of headers) {
    if (key.toLowerCase() === "set-cookie") res.append(key, value);
    else res.setHeader(key, value);
  }
}
