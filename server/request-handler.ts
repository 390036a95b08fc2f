import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
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
import { logger, redactUrl } from "~/lib/logger.server";
import { REQUEST_KEY_HEADER, takeResponseCookies } from "~/lib/response-cookies.server";
import { compressPerRequest, isCompressible } from "./compress";
import { bufferedBody, hostnameOf } from "./http-guards";
import {
  type CachedPage,
  chooseEncoding,
  createCachedPage,
  isCacheableRequest,
  isCacheableResponse,
  type PageCache,
} from "./page-cache";
import type { RenderGate } from "./render-gate";

/**
 * Answers page-cache hits before Express (decision 0036): the stored bytes in the encoding the
 * browser accepts, with the entry's hash-based CSP and the security headers precomputed per
 * entry. Returns false (nothing written) for anything else: other hosts, misses, signed-in
 * visitors, requests a TLS proxy forwarded to a plain-HTTP BASE_URL (Express decides HSTS).
 */
export function pageCacheHits(
  cache: PageCache,
  options: {
    ownHostnames: Set<string>;
    https: boolean;
    securityHeaders: (csp: string) => Array<[string, string]>;
  },
) {
  const prepared = new WeakMap<CachedPage, Partial<Record<Encoding, string[]>>>();
  const headersOf = (entry: CachedPage, encoding: Encoding) => {
    let byEncoding = prepared.get(entry);
    if (!byEncoding) {
      byEncoding = {};
      prepared.set(entry, byEncoding);
    }
    let flat = byEncoding[encoding];
    if (!flat) {
      const body = entry[encoding];
      flat = [...options.securityHeaders(entry.csp), ...entry.headers].flat();
      flat.push("Vary", "Accept-Encoding", "Content-Length", String(body.length), "X-Cache", "HIT");
      if (encoding !== "identity") flat.push("Content-Encoding", encoding);
      byEncoding[encoding] = flat;
    }
    return flat;
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    if (!isCacheableRequest(req.method ?? "", path, req.headers.cookie)) return false;
    if (!options.https && req.headers["x-forwarded-proto"]) return false;
    // The host first: a miss may make this request the one that renders the page again.
    if (!options.ownHostnames.has(hostnameOf(req.headers.host) ?? "")) return false;
    const hit = cache.get(url, contentVersion());
    if (!hit) return false;
    const started = performance.now();
    const encoding = chooseEncoding(req.headers["accept-encoding"]) ?? "identity";
    const requestId = randomUUID();
    res.writeHead(hit.status, [...headersOf(hit, encoding), "X-Request-Id", requestId]);
    res.end(req.method === "HEAD" ? undefined : hit[encoding]);
    if (logger.isLevelEnabled("info")) {
      logger.info(
        {
          reqId: requestId,
          req: { method: req.method, url: redactUrl(url) },
          res: { statusCode: hit.status },
          cache: "HIT",
          responseTime: Math.round(performance.now() - started),
        },
        "request completed",
      );
    }
    return true;
  };
}

type Encoding = "br" | "gzip" | "identity";

/**
 * Express → React Router, like @react-router/express, plus the anonymous page cache in between.
 */
export function createRequestHandler({
  build,
  origin,
  mode,
  getLoadContext,
  cache,
  cachePolicy,
  databaseDown,
  renderGate,
}: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** BASE_URL's origin: the only origin the app sees in request.url, whatever Host was sent. */
  origin: string;
  mode: string;
  getLoadContext: (req: Request, res: Response) => AppLoadContext;
  cache?: PageCache;
  /** The Content-Security-Policy of a cached document, given its inline scripts' hashes. */
  cachePolicy: (scriptHashes: string[]) => string;
  /** Asked after a page failed with a 5xx: true turns the answer into 503 Service Unavailable. */
  databaseDown?: () => Promise<boolean>;
  /** Takes GET renders a few at a time (decision 0068); without one, all at once. */
  renderGate?: RenderGate;
}) {
  const handle = createRouterHandler(build, mode);
  return async (req: Request, res: Response, next: NextFunction) => {
    const gated = renderGate && (req.method === "GET" || req.method === "HEAD");
    const leave = gated ? await renderGate.enter() : undefined;
    if (leave) {
      // A visitor who left while waiting gets nothing rendered for them.
      if (res.destroyed || req.socket.destroyed) return leave();
      // The slot is held until the response is handed to the socket (or the visitor leaves):
      // its compression and its last copies are part of the work being spread out.
      res.once("finish", leave);
      res.once("close", leave);
    }
    try {
      const loadContext = getLoadContext(req, res);
      const cacheKey =
        cache && isCacheableRequest(req.method, req.path, req.headers.cookie)
          ? req.originalUrl
          : undefined;
      const version = contentVersion();
      const requestKey = req.headers[REQUEST_KEY_HEADER] as string | undefined;
      let response: globalThis.Response;
      try {
        response = await handle(toFetchRequest(origin, req, res), loadContext);
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
        // Bytes, not text: a share image read as text would be stored with U+FFFD for its bytes.
        const body = Buffer.from(await response.arrayBuffer());
        const headers = [...response.headers.entries()].filter(([k]) => k !== "content-length");
        // The entry is made beside this response (compressing takes a while), once per page.
        // A render that overlapped a content change may hold stale data: serve it, don't keep it.
        if (req.method === "GET" && contentVersion() === version && cache.claim(cacheKey)) {
          createCachedPage(
            { status: response.status, headers, body },
            { nonce: loadContext.cspNonce, version, policyFor: cachePolicy },
          )
            .then((entry) => {
              if (contentVersion() === version) cache.set(cacheKey, entry);
            })
            .catch((error: unknown) => logger.error({ err: error }, "page cache: entry not stored"))
            .finally(() => cache.release(cacheKey));
        }
        res.status(response.status);
        copyHeaders(res, headers);
        res.setHeader("X-Cache", "MISS");
        await sendWhole(req, res, body);
        return;
      }
      await sendResponse(req, res, response);
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

function toFetchRequest(origin: string, req: Request, res: Response) {
  // Never the Host header: canonical links, feeds and redirects built from request.url must
  // not follow a forged one (the page cache would hand them to everyone).
  const url = new URL(`${origin}${req.originalUrl}`);
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
    const body = bufferedBody(req);
    if (body) init.body = new Uint8Array(body);
    else {
      init.body = createReadableStreamFromReadable(req);
      init.duplex = "half";
    }
  }
  return new globalThis.Request(url.href, init);
}

async function sendResponse(req: Request, res: Response, response: globalThis.Response) {
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
    await sendWhole(req, res, Buffer.from(await response.arrayBuffer()));
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (!(res.destroyed || res.writableEnded)) throw error;
  }
}

/** Below this size compressing costs more than it saves (the middleware's default). */
const COMPRESS_FROM_BYTES = 1024;

/**
 * Sends a body made whole for this response (a rendered document), compressed in one call when
 * the client accepts brotli or gzip (decision 0068). Fed through the compression middleware it
 * went through a stream, chunk by chunk; anything not compressed here is left to the middleware,
 * which adds Vary and answers clients that accept neither encoding.
 */
async function sendWhole(req: Request, res: Response, body: Buffer) {
  const encoding =
    body.length >= COMPRESS_FROM_BYTES &&
    res.statusCode !== 204 &&
    !res.hasHeader("Content-Encoding") &&
    !/\bno-transform\b/.test(String(res.getHeader("Cache-Control") ?? "")) &&
    isCompressible(String(res.getHeader("Content-Type") ?? ""))
      ? chooseEncoding(req.headers["accept-encoding"])
      : undefined;
  if (!encoding) {
    res.end(body);
    return;
  }
  const compressed = await compressPerRequest(body, encoding);
  if (res.destroyed) return;
  res.vary("Accept-Encoding");
  res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", compressed.length);
  res.end(req.method === "HEAD" ? undefined : compressed);
}

/** Route headers replace the server's defaults (e.g. nosniff) instead of repeating them. */
function copyHeaders(res: Response, headers: Iterable<[string, string]>) {
  for (const [key, value] of headers) {
    if (key.toLowerCase() === "set-cookie") res.append(key, value);
    else res.setHeader(key, value);
  }
}
