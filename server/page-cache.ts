/**
 * In-memory cache of rendered public pages for anonymous visitors (issue 8 §3, issue 17 §2).
 *
 * - Only GET/HEAD without any of our cookies (no session, no pending toast) to public paths.
 * - Only 200 responses that opted in with `Cache-Control: public` and set no cookie.
 * - A page enters the cache once: its scripts lose the nonce they were rendered with and the
 *   entry gets a CSP that allows exactly those scripts by their SHA-256 hashes (decision 0036);
 *   its bytes are compressed then (brotli 11, gzip -9), so a hit only copies stored bytes.
 * - Cleared on any content change (back-office mutation), locally and, with Redis, on every
 *   instance; a render that overlapped a change is not stored.
 */
import { createHash } from "node:crypto";
import { deferredModuleSource } from "~/lib/deferred-scripts.server";
import { compressForStorage } from "./compress";

export type CachedPage = {
  status: number;
  /** The route's headers, without the length and the policy (both belong to the entry). */
  headers: Array<[string, string]>;
  /** The entry's Content-Security-Policy: a document's scripts by hash; none for data. */
  csp: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  storedAt: number;
  version: number;
  /**
   * How long the entry is fresh, when the page asked for less than the cache's own time to live
   * (`s-maxage` of its Cache-Control): a page with a live figure, such as an event's seats left
   * during a registration rush, is made again that often while everyone is still answered from
   * the cache (issue 33 item 7).
   */
  ttlMs?: number;
};

/** The `s-maxage` of a Cache-Control header, in milliseconds, if it has one. */
export function sharedMaxAgeMs(cacheControl: string | undefined) {
  const seconds = /(?:^|[,\s])s-maxage=(\d+)/.exec(cacheControl ?? "")?.[1];
  return seconds === undefined ? undefined : Number(seconds) * 1000;
}

/**
 * A rendered document made fit to share: every `nonce="…"` of this render is removed, and the
 * scripts it allowed are listed by hash instead. The deferred entry module (decision 0012) is
 * inserted by the loader as an inline script, so its text is allowed by hash too.
 */
export function shareableDocument(html: string, nonce: string) {
  if (!nonce) return { html, scriptHashes: [] };
  const attribute = ` nonce="${nonce}"`;
  const sources: string[] = [];
  for (const [, attributes, text] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (attributes.includes(attribute) && !/\ssrc=/.test(attributes)) sources.push(text);
  }
  const deferred = deferredModuleSource(html);
  if (deferred !== undefined) sources.push(deferred);
  const scriptHashes = [...new Set(sources.map(sha256Source))];
  return { html: html.split(attribute).join(""), scriptHashes };
}

/** A CSP hash source for a script's text (browsers hash its UTF-8 bytes). */
export function sha256Source(text: string) {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * The cache entry for a response: a document gets its hash-based policy from `policyFor`;
 * every body is compressed once here (on the thread pool), never again per hit.
 */
export async function createCachedPage(
  /** The body as bytes: documents are text, share images (og.png) are not. */
  response: { status: number; headers: Array<[string, string]>; body: Buffer | string },
  options: {
    nonce: string;
    version: number;
    policyFor: (scriptSources: string[]) => string;
  },
): Promise<CachedPage> {
  const isDocument = response.headers.some(
    ([name, value]) => name === "content-type" && value.startsWith("text/html"),
  );
  const shared = isDocument
    ? shareableDocument(response.body.toString(), options.nonce)
    : { html: response.body, scriptHashes: [] };
  const csp = options.policyFor(shared.scriptHashes);
  const identity = Buffer.from(shared.html);
  const { br, gzip: gzipped } = await compressForStorage(identity);
  const ttlMs = sharedMaxAgeMs(
    response.headers.find(([name]) => name.toLowerCase() === "cache-control")?.[1],
  );
  return {
    status: response.status,
    headers: response.headers.filter(
      ([name]) => !["content-length", "content-encoding", "content-security-policy"].includes(name),
    ),
    csp,
    identity,
    br,
    gzip: gzipped,
    storedAt: Date.now(),
    version: options.version,
    ...(ttlMs === undefined ? {} : { ttlMs }),
  };
}

/** The stored encoding a client asked for: brotli, then gzip, else the plain bytes. */
export function chooseEncoding(acceptEncoding: string | undefined): "br" | "gzip" | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    accepted.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  if (allows("br")) return "br";
  if (allows("gzip")) return "gzip";
  return undefined;
}

const PRIVATE_PREFIXES = [
  "/admin",
  "/profile",
  "/auth",
  "/api",
  "/invite",
  "/uploads",
  "/healthz",
  "/readyz",
];

export function isCacheableRequest(method: string, path: string, cookieHeader: string | undefined) {
  if (method !== "GET" && method !== "HEAD") return false;
  if (cookieHeader && /(^|;\s*)(__Host-|__Secure-)?kongamano/.test(cookieHeader)) return false;
  return !PRIVATE_PREFIXES.some(
    (p) => path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}.`),
  );
}

export function isCacheableResponse(status: number, headers: Headers) {
  if (status !== 200 || headers.has("set-cookie")) return false;
  const cacheControl = headers.get("cache-control") ?? "";
  return /\bpublic\b/.test(cacheControl) && !/no-store|private/.test(cacheControl);
}

/** How long an expired entry is still served while one request makes it again. */
const REFRESH_WAIT_MS = 10_000;

export class PageCache {
  private entries = new Map<string, CachedPage>();
  /** Keys whose entry is being made: concurrent misses of one page compress it once. */
  private pending = new Set<string>();
  /** Expired keys being made again, and since when (see `get`). */
  private refreshing = new Map<string, number>();
  private bytes = 0;
  constructor(
    private options: { ttlMs: number; maxEntries: number; maxBytes: number } = {
      ttlMs: 60_000,
      maxEntries: 500,
      maxBytes: 64 * 1024 * 1024,
    },
  ) {}

  /**
   * The entry for `key`, or undefined when the caller should render the page (and store it).
   *
   * An entry of older content is gone at once. An entry past its time to live is made again by
   * one request while everyone else is still answered from it (stale while revalidate): dropped
   * outright, every visitor of a busy page became a render until brotli-11 had compressed the
   * new copy, ~0.3 s of queueing every minute (decision 0069). Twice its time to live, or when
   * a refresh has not arrived after REFRESH_WAIT_MS, it is made again regardless. A page that asked
   * for a shorter freshness (`ttlMs` of the entry) is made again after that instead.
   */
  get(key: string, version: number, now = Date.now()): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const age = now - entry.storedAt;
    const ttlMs = Math.min(entry.ttlMs ?? this.options.ttlMs, this.options.ttlMs);
    if (entry.version !== version || age > 2 * this.options.ttlMs) {
      this.delete(key);
      return undefined;
    }
    if (age > ttlMs) {
      const since = this.refreshing.get(key);
      if (since === undefined || now - since > REFRESH_WAIT_MS) {
        this.refreshing.set(key, now);
        return undefined; // this caller makes the page again
      }
    }
    // Least recently used goes first: re-insert on hit.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: CachedPage) {
    if (sizeOf(entry) > this.options.maxBytes / 8) return;
    this.delete(key);
    this.entries.set(key, entry);
    this.bytes += sizeOf(entry);
    while (this.entries.size > this.options.maxEntries || this.bytes > this.options.maxBytes) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
  }

  /** True if the caller may make the entry for `key` (nobody else is); then call `release`. */
  claim(key: string) {
    if (this.pending.has(key)) return false;
    this.pending.add(key);
    return true;
  }

  release(key: string) {
    this.pending.delete(key);
  }

  clear() {
    this.entries.clear();
    this.refreshing.clear();
    this.bytes = 0;
  }

  get size() {
    return this.entries.size;
  }

  private delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= sizeOf(entry);
    this.entries.delete(key);
    this.refreshing.delete(key);
  }
}

function sizeOf(entry: CachedPage) {
  return entry.identity.length + entry.br.length + entry.gzip.length;
}
