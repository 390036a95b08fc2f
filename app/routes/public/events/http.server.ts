// HTTP caching of public pages (design.md §1): shared caches may keep anonymous responses for a
// minute and serve them stale for ten while revalidating; anything personal is never stored.
const OUR_COOKIE = /(^|;\s*)(__Host-|__Secure-)?kongamano/;

export const PUBLIC_CACHE_CONTROL = "public, s-maxage=60, stale-while-revalidate=600";
export const PRIVATE_CACHE_CONTROL = "private, no-store";
/**
 * A public page with a live figure (an event's seats left while registration is open): the page
 * cache and shared caches make it again every 5 s, so during a registration rush the figure is at
 * most a few seconds old while visitors are still answered from the cache (issue 33 item 7).
 */
export const LIVE_CACHE_CONTROL = "public, s-maxage=5, stale-while-revalidate=30";

/** True when the request carries one of our cookies (a session, or a pending toast). */
export function hasSiteCookie(request: Request) {
  return OUR_COOKIE.test(request.headers.get("cookie") ?? "");
}

/** `Cache-Control` for a public page or feed: public for anonymous visitors, private otherwise. */
export function publicCacheHeaders(
  request: Request,
  { live = false }: { live?: boolean } = {},
): Record<string, string> {
  if (hasSiteCookie(request)) return { "Cache-Control": PRIVATE_CACHE_CONTROL };
  return { "Cache-Control": live ? LIVE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL };
}
