// The signed links of memberships: signed with the server secret and expiring, they open one
// page without a password. Two purposes share the one mechanism: the one-click renewal link of
// every renewal notice (expiring at the end of grace, decision 0051) and the billing contact's
// link to a membership invoice and its receipts (decision 0094).
import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "~/lib/env.server";

type Purpose = "membership-renewal" | "membership-billing";

function signature(purpose: Purpose, id: string, expiresAt: number) {
  return createHmac("sha256", env().SESSION_SECRET)
    .update(`${purpose}:${id}:${expiresAt}`)
    .digest("base64url");
}

function signedToken(purpose: Purpose, id: string, expiresAt: Date) {
  const seconds = Math.floor(expiresAt.getTime() / 1000);
  return `${id}.${seconds}.${signature(purpose, id, seconds)}`;
}

type SignedTokenCheck =
  | { ok: true; id: string; expiresAt: Date }
  | { ok: false; reason: "invalid" | "expired" };

/** Checks a token's signature for its purpose (in constant time), then its expiry. */
function verifySignedToken(purpose: Purpose, token: string, now: Date): SignedTokenCheck {
  const [id, secondsText, given] = token.split(".");
  const seconds = Number(secondsText);
  if (!id || !given || !Number.isSafeInteger(seconds)) return { ok: false, reason: "invalid" };
  const expected = Buffer.from(signature(purpose, id, seconds));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    return { ok: false, reason: "invalid" };
  }
  const expiresAt = new Date(seconds * 1000);
  if (expiresAt <= now) return { ok: false, reason: "expired" };
  return { ok: true, id, expiresAt };
}

/** A token for `/membership/renew/<token>`, valid until `expiresAt`. */
export function renewalToken(membershipId: string, expiresAt: Date) {
  return signedToken("membership-renewal", membershipId, expiresAt);
}

export function renewalUrl(membershipId: string, expiresAt: Date) {
  return `${env().BASE_URL}/membership/renew/${renewalToken(membershipId, expiresAt)}`;
}

export type RenewalTokenCheck =
  | { ok: true; membershipId: string; expiresAt: Date }
  | { ok: false; reason: "invalid" | "expired" };

/** Checks a renewal token's signature (in constant time) and its expiry. */
export function verifyRenewalToken(token: string, now = new Date()): RenewalTokenCheck {
  const check = verifySignedToken("membership-renewal", token, now);
  return check.ok ? { ok: true, membershipId: check.id, expiresAt: check.expiresAt } : check;
}

/** How long a billing contact's link works after the mail that carries it (decision 0094). */
export const BILLING_LINK_DAYS = 90;

/** A token for `/membership/billing/<token>`: one membership order's invoice and receipts. */
export function billingToken(orderId: string, expiresAt: Date) {
  return signedToken("membership-billing", orderId, expiresAt);
}

/** The billing contact's link, working BILLING_LINK_DAYS from `issuedAt`. */
export function billingUrl(orderId: string, issuedAt = new Date()) {
  const expiresAt = new Date(issuedAt.getTime() + BILLING_LINK_DAYS * 86_400_000);
  return `${env().BASE_URL}/membership/billing/${billingToken(orderId, expiresAt)}`;
}

export function verifyBillingToken(
  token: string,
  now = new Date(),
): { ok: true; orderId: string; expiresAt: Date } | { ok: false; reason: "invalid" | "expired" } {
  const check = verifySignedToken("membership-billing", token, now);
  return check.ok ? { ok: true, orderId: check.id, expiresAt: check.expiresAt } : check;
}
