/**
 * OAuth client-credentials tokens (Daraja, PayPal), kept per API and account until shortly before
 * the provider says they expire, so a payment does not ask for a new token each time.
 */

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
