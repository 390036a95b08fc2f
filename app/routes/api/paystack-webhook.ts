// Paystack's webhook (issue 31, decision 0101) at BASE_URL/api/payments/hooks/paystack/webhook,
// the URL set in Paystack's dashboard. The server lets it through like Daraja's hooks (JSON, no
// Origin, at most 16 kB); here the signature is checked on the raw body before anything is read,
// and even a signed `charge.success` only leads to a verify call (models/orders/paystack.server.ts).
// Rate-limited per address; our own trouble answers 503 (Paystack retries), never 500.
import { data } from "react-router";
import { logger } from "~/lib/logger.server";
import { hitRateLimit } from "~/lib/rate-limit.server";
import { clientIp } from "~/lib/request.server";
import { acceptPaystackWebhook } from "~/models/orders/paystack.server";
import type { Route } from "./+types/paystack-webhook";

export const WEBHOOK_RATE_LIMIT = { max: 600, windowMs: 60_000 };
const headers = { "Cache-Control": "no-store" };

export function loader() {
  throw data("Not Found", { status: 404 });
}

export async function action({ request }: Route.ActionArgs) {
  try {
    const limit = await hitRateLimit(`paystack-webhook:${clientIp(request)}`, WEBHOOK_RATE_LIMIT);
    if (!limit.allowed) {
      return data(
        { ok: false },
        { status: 429, headers: { ...headers, "Retry-After": String(limit.retryAfterSeconds) } },
      );
    }
    const raw = await request.text();
    const answer = await acceptPaystackWebhook(
      raw,
      request.headers.get("x-paystack-signature"),
      request,
    );
    return data({ ok: answer.status === 200 }, { status: answer.status, headers });
  } catch (error) {
    logger.error({ err: error }, "Paystack webhook could not be taken");
    return data({ ok: false }, { status: 503, headers: { ...headers, "Retry-After": "30" } });
  }
}
