/**
 * In-memory cache of rendered public pages for anonymous visitors (issue 8 §3).
 *
 * - Only GET/HEAD without any of our cookies (no session, no pending toast) to public paths.
 * - Only 200 responses that opted in with `Cache-Control: public` and set no cookie.
 * - Each hit gets this response's CSP nonce substituted for the one the page was rendered with.
 * - Cleared on any content change (back-office mutation), locally and, with Redis, on every
 *   instance; a render that overlapped a change is not stored.
 */
export type CachedPage = {
  status: number;
  headers: Array<[string, string]>;
  body: string;
  nonce: string;
  storedAt: number;
  version: number;
};

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

export class PageCache {
  private entries = new Map<string, CachedPage>();
  private bytes = 0;
  constructor(
    private options: { ttlMs: number; maxEntries: number; maxBytes: number } = {
      ttlMs: 60_000,
      maxEntries: 500,
      maxBytes: 64 * 1024 * 1024,
    },
  ) {}

  get(key: string, version: number, now = Date.now()): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || now - entry.storedAt > this.options.ttlMs) {
      this.delete(key);
      return undefined;
    }
    // Least recently used goes first: re-insert on hit.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: CachedPage) {
    if (entry.body.length > this.options.maxBytes / 8) return;
    this.delete(key);
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    while (this.entries.size > this.options.maxEntries || this.bytes > this.options.maxBytes) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
  }

  clear() {
    this.entries.clear();
    this.bytes = 0;
  }

  get size() {
    return this.entries.size;
  }

  private delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.body.length;
    this.entries.delete(key);
  }
}

// A cached body as UTF-8 pieces around its nonce, made on the first hit: each later hit copies
// bytes instead of splitting, joining and re-encoding a 130 KB string.
const pieces = new WeakMap<CachedPage, Buffer[]>();

/** The page as rendered for this response: the cached nonce replaced by the fresh one. */
export function withNonce(entry: CachedPage, nonce: string): Buffer {
  let parts = pieces.get(entry);
  if (!parts) {
    parts = (entry.nonce ? entry.body.split(entry.nonce) : [entry.body]).map((part) =>
      Buffer.from(part),
    );
    pieces.set(entry, parts);
  }
  if (parts.length === 1) return parts[0];
  const fresh = Buffer.from(nonce);
  const out: Buffer[] = [parts[0]];
  for (let i = 1; i < parts.length; i++) out.push(fresh, parts[i]);
  return Buffer.concat(out);
}
