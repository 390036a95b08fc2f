// Site-wide contact points, links and caching rules of the public site pages (spec §2.10, §2.11).
// This module is on every page (the footer uses it), so page-specific marketing content lives
// beside its page: components/membership-content.ts, components/advertising-content.ts, about.tsx.

// ---------------------------------------------------------------------------------------------
// Organisation contact points (head office, spec §2.11)
// ---------------------------------------------------------------------------------------------
export const HEADQUARTERS = {
  name: "Global Headquarters",
  city: "Nairobi",
  country: "Kenya",
  address: "Westlands Business Park, Waiyaki Way, Nairobi, Kenya",
  phone: "+254 20 765 4321",
  email: "info@kongamano.org",
  hours: "8:00 AM - 6:00 PM EAT",
} as const;

export const SUPPORT_EMAIL = "support@kongamano.org";
export const PARTNERSHIPS_EMAIL = "partnerships@kongamano.org";
export const ADVERTISING_EMAIL = "advertising@kongamano.org";
export const OFFICE_BUSINESS_HOURS = "9AM - 6PM Local Time";
export const OFFICE_SERVICES = ["Conferences", "Training", "Consulting"] as const;
export const REPLY_PROMISE = "We reply to every message within 24 hours.";

/** `tel:` link target for a displayed phone number. */
export function telHref(phone: string) {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

/** Link to the contact form with a topic (and optional extra parameters) pre-selected. */
export function contactHref(topic: string, extra: Record<string, string> = {}) {
  const params = new URLSearchParams({ topic, ...extra });
  return `/contact?${params.toString()}#contact-form`;
}

// ---------------------------------------------------------------------------------------------
// HTTP caching of the public site pages (design.md §1): shared caches may keep the anonymous
// version for a minute; anything rendered for a signed-in user (or carrying a cookie) stays private.
// ---------------------------------------------------------------------------------------------
export const PUBLIC_CACHE_CONTROL = "public, s-maxage=60, stale-while-revalidate=600";
export const PRIVATE_CACHE_CONTROL = "private, no-store";

export function cacheHeadersFor(signedIn: boolean): HeadersInit {
  return signedIn
    ? { "Cache-Control": PRIVATE_CACHE_CONTROL, Vary: "Cookie" }
    : { "Cache-Control": PUBLIC_CACHE_CONTROL, Vary: "Cookie" };
}

/**
 * The `headers` export of these pages: the loader's (or action's) caching headers on top of the
 * parent's, downgraded to private whenever the response sets a cookie (e.g. the root clears a toast).
 */
export function sitePageHeaders({
  parentHeaders,
  loaderHeaders,
  actionHeaders,
}: {
  parentHeaders: Headers;
  loaderHeaders: Headers;
  actionHeaders?: Headers;
}) {
  const headers = new Headers(parentHeaders);
  for (const name of ["Cache-Control", "Vary"]) {
    const value = actionHeaders?.get(name) ?? loaderHeaders.get(name);
    if (value) headers.set(name, value);
  }
  if (
    headers.has("Set-Cookie") ||
    loaderHeaders.has("Set-Cookie") ||
    actionHeaders?.has("Set-Cookie")
  ) {
    headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
  }
  return headers;
}

// ---------------------------------------------------------------------------------------------
// Offices (spec §2.10)
// ---------------------------------------------------------------------------------------------
export const OFFICE_STATS_STATIC = [
  { value: "6", label: "Continents" },
  { value: "24/7", label: "Global Support" },
  { value: "25+", label: "Countries" },
] as const;
