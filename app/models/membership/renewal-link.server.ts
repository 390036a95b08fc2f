// The one-click renewal link in every renewal notice: signed with the server secret, expiring at
// the end of grace, it opens the renewal invoice without a password (decision 0051).
import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "~/lib/env.server";

function signature(membershipId: string, expiresAt: number) {
  return createHmac("sha256", env().SESSION_SECRET)
    .update(`membership-renewal:${membershipId}:${expiresAt}`)
    .digest("base64url");
}

/** A token for `/membership/renew/<token>`, valid until `expiresAt`. */
export function renewalToken(membershipId: string, expiresAt: Date) {
  const seconds = Math.floor(expiresAt.getTime() / 1000);
  return `${membershipId}.${seconds}.${signature(membershipId, seconds)}`;
}

export function renewalUrl(membershipId: string, expiresAt: Date) {
  return `${env().BASE_URL}/membership/renew/${renewalToken(membershipId, expiresAt)}`;
}

export type RenewalTokenCheck =
  | { ok: true; membershipId: string; expiresAt: Date }
  | { ok: false; reason: "invalid" | "expired" };

/** Checks a token's signature (in constant time) and its expiry. */
export function verifyRenewalToken(token: string, now = new Date()): RenewalTokenCheck {
  const [membershipId, secondsText, given] = token.split(".");
  const seconds = Number(secondsText);
  if (!membershipId || !given || !Number.isSafeInteger(seconds))
    return { ok: false, reason: "invalid" };
  const expected = Buffer.from(signature(membershipId, seconds));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    return { ok: false, reason: "invalid" };
  }
  const expiresAt = new Date(seconds * 1000);
  if (expiresAt <= now) return { ok: false, reason: "expired" };
  return { ok: true, membershipId, expiresAt };
}
