// PayPal's webhooks (issue 31, decision 0103) at BASE_URL/api/payments/hooks/paypal/webhook (the
// URL registered at PayPal with the webhook id PAYPAL_WEBHOOK_ID). Nothing here is trusted: PayPal
// itself verifies the signature, then PayPal's own order decides what is recorded
// (acceptPaypalWebhook). Like Daraja's hooks: JSON of at most 16 kB (the server checks before
// this), rate-limited per address, 503 (never 500) when our side fails so PayPal delivers again.
import { data } from "react-router";
import { logger } from "~/lib/logger.server";
import { paypalOnline } from "~/lib/payments/paypal.server";
import { hitRateLimit } from "~/lib/rate-limit.server";
import { clientIp } from "~/lib/request.server";
import { acceptPaypalWebhook } from "~/models/orders/paypal.server";
import type { Route } from "./+types/paypal-webhook";
import { HOOK_RATE_LIMIT, MAX_HOOK_BYTES } from "./payment-hooks";

const headers = { "Cache-Control": "no-store" };

export function loader() {
  throw data("Not Found", { status: 404 });
}

export async function action({ request }: Route.ActionArgs) {
  if (!paypalOnline()) throw data("Not Found", { status: 404 });
  const ip = clientIp(request);
  try {
    const limit = await hitRateLimit(`payment-hooks:${ip}`, HOOK_RATE_LIMIT);
    if (!limit.allowed) {
      return data(
        { error: "Too many requests" },
        { status: 429, headers: { ...headers, "Retry-After": String(limit.retryAfterSeconds) } },
      );
    }
    if (Number(request.headers.get("content-length") ?? 0) > MAX_HOOK_BYTES) {
      return data({ error: "Too large" }, { status: 413, headers });
    }
    const raw = await request.text();
    if (raw.length > MAX_HOOK_BYTES) return data({ error: "Too large" }, { status: 413, headers });
    const outcome = await acceptPaypalWebhook(raw, request.headers, request);
    if (outcome === "forged") return data({ error: "Not verified" }, { status: 400, headers });
    if (outcome === "unavailable") {
      return data(
        { error: "Temporarily unavailable" },
        { status: 503, headers: { ...headers, "Retry-After": "60" } },
      );
    }
    return data({ outcome }, { headers });
  } catch (error) {
    // Our own trouble or PayPal's (the database away, PayPal unreachable): PayPal delivers again.
    logger.error({ err: error }, "PayPal webhook could not be taken");
    return data(
      { error: "Temporarily unavailable" },
      { status: 503, headers: { ...headers, "Retry-After": "60" } },
    );
  }
}
