/**
 * Cookies a loader helper needs sent with the current response, when the route's own `headers`
 * cannot know about them: today the session cookie better-auth renews once a day of use (without
 * it the browser would drop an active member's session 14 days after sign-in). The server gives
 * every request a fresh internal key (overwriting any the client sent) and, once the response is
 * ready, takes the cookies queued under that key.
 */
export const REQUEST_KEY_HEADER = "x-kongamano-request-key";

const pending = new Map<string, Map<string, string>>();

export function queueResponseCookies(request: Request, setCookies: readonly string[]) {
  const key = request.headers.get(REQUEST_KEY_HEADER);
  if (!key || setCookies.length === 0) return;
  const cookies = pending.get(key) ?? new Map<string, string>();
  // One value per cookie name: the last one queued wins, as it would in the browser.
  for (const cookie of setCookies) cookies.set(cookie.slice(0, cookie.indexOf("=")), cookie);
  pending.set(key, cookies);
}

/** The Set-Cookie values queued for this request key; forgets them. */
export function takeResponseCookies(key: string | undefined): string[] {
  if (!key) return [];
  const cookies = pending.get(key);
  pending.delete(key);
  return cookies ? [...cookies.values()] : [];
}
