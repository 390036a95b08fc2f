/**
 * What the providers' clients share: the time limit of a call (Daraja, PayPal, Paystack), and for
 * the OAuth ones (Daraja, PayPal) a JSON call and client-credentials tokens kept per API and
 * account until shortly before the provider says they expire.
 */

/** How long one call to a provider may take before it counts as unreachable. */
export const REQUEST_TIMEOUT_MS = 15_000;

/**
 * One call to a provider's JSON API: its status and its body (an empty body is `{}`). A provider
 * that cannot be reached, or answers something other than JSON, is `fail`'s error (status 0 when
 * unreachable).
 */
export async function callJsonApi<Body>(
  doFetch: typeof fetch,
  url: string,
  init: RequestInit,
  fail: (message: string, status: number) => Error,
  provider: string,
): Promise<{ status: number; body: Body }> {
  let response: Response;
  try {
    response = await doFetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    throw fail(`${provider} unreachable: ${(error as Error).message}`, 0);
  }
  const text = await response.text();
  try {
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Body };
  } catch {
    throw fail(`${provider} answered ${response.status} with no JSON`, response.status);
  }
}

/** A token is renewed this long before the provider says it expires. */
export const TOKEN_MARGIN_MS = 60_000;

export function accessTokenCache() {
  const tokens = new Map<string, { token: string; expiresAt: number }>();
  return {
    /** The kept token for `key` if it is still good at `now`. */
    get(key: string, now: number) {
      const kept = tokens.get(key);
      return kept && kept.expiresAt > now ? kept.token : undefined;
    },
    /** Keeps a new token that the provider says lasts `expiresInSeconds` from `now`. */
    keep(key: string, token: string, expiresInSeconds: number, now: number) {
      const lifeMs = Number.isFinite(expiresInSeconds) ? expiresInSeconds * 1000 : 0;
      tokens.set(key, { token, expiresAt: now + Math.max(0, lifeMs - TOKEN_MARGIN_MS) });
    },
    /** Forgets one account's token (revoked early), or every token (tests). */
    forget(key?: string) {
      if (key === undefined) tokens.clear();
      else tokens.delete(key);
    },
  };
}
