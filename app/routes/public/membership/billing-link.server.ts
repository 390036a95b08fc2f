import { data } from "react-router";
import type { Refusal } from "~/components/error-screens";
import { getMembershipOfOrder } from "~/models/membership/queries.server";
import { verifyBillingToken } from "~/models/membership/renewal-link.server";
import { getOrderForSystem } from "~/models/orders/queries.server";

// The billing contact's signed link (decision 0094): the token is the credential, no account.

const INVALID_LINK: Refusal = {
  title: "This billing link is not valid",
  message:
    "The link may be incomplete (some mail programs cut long links). Open it again from the latest invoice or receipt e-mail, or ask us for a fresh link.",
  next: [
    { href: "/contact", label: "Ask for a fresh link" },
    { href: "/membership", label: "Membership plans" },
  ],
};

const EXPIRED_LINK: Refusal = {
  title: "This billing link has expired",
  message:
    "This billing link has expired. The invoice and receipts are attached to their e-mails; for a fresh link, write to us with the invoice number, or ask the member to open the order from their profile.",
  next: [
    { href: "/contact", label: "Ask for a fresh link" },
    { href: "/auth", label: "Sign in" },
  ],
};

/** The membership order behind a billing link; 410 when expired, 404 when tampered or gone. */
export async function requireBillingOrder(token: string) {
  const check = verifyBillingToken(token);
  if (!check.ok) {
    const expired = check.reason === "expired";
    throw data(expired ? EXPIRED_LINK : INVALID_LINK, { status: expired ? 410 : 404 });
  }
  const membership = await getMembershipOfOrder(check.orderId);
  const detail = membership ? await getOrderForSystem(check.orderId) : null;
  if (!membership || !detail) throw data(INVALID_LINK, { status: 404 });
  return { membership, detail, expiresAt: check.expiresAt };
}
