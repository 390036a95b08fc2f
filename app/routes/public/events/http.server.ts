// HTTP caching of public pages (design.md §1): shared caches may keep anonymous responses for a
// minute and serve them stale for ten while revalidating; anything personal is never stored.
const OUR_COOKIE = /(^|;\s*)(__Host-|__Secure-)?kongamano/;

export const PUBLIC_CACHE_CONTROL = "public, s-maxage=60, stale-while-revalidate=600";
export const PRIVATE_CACHE_CONTROL = "private, no-store";

/** True when the request carries one of our cookies (a session, or a pending toast). */
export function hasSiteCookie(request: Request) {
  return OUR_COOKIE.test(request.headers.get("cookie") ?? "");
}

/** `Cache-Control` for a public page or feed: public for anonymous visitors, private otherwise. */
export function publicCacheHeaders(request: Request): Record<string, string> {
  return {
    "Cache-Control": hasSiteCookie(request) ? PRIVATE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL,
  };
}
