// Daraja's callbacks (issue 34, decision 0096): STK results, Paybill validation and confirmation,
// Transaction Status results and time-outs, at BASE_URL/api/payments/hooks/<segment>/<hook>. The
// segment is derived from the session secret; a wrong one is a 404. Nothing here is trusted:
// every callback is a hint the models confirm with Daraja before any money is recorded. Bodies
// are small (16 kB, checked by the server before this), requests are rate-limited per address, an
// optional allow-list (MPESA_CALLBACK_IPS) restricts the sources, and nothing answers 500.
import { timingSafeEqual } from "node:crypto";
import { data } from "react-router";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { HOOKS, type Hook, hookSegment } from "~/lib/payments/daraja.server";
import { hitRateLimit } from "~/lib/rate-limit.server";
import { clientIp } from "~/lib/request.server";
import { acceptStkCallback } from "~/models/orders/mpesa.server";
import {
  acceptConfirmation,
  acceptStatusResult,
  acceptStatusTimeout,
} from "~/models/orders/mpesa-paybill.server";
import type { Route } from "./+types/payment-hooks";

/** Requests per address per minute: far above Daraja's own pace, far below a flood. */
export const HOOK_RATE_LIMIT = { max: 600, windowMs: 60_000 };
export const MAX_HOOK_BYTES = 16 * 1024;

const ACCEPTED = { ResultCode: 0, ResultDesc: "Accepted" };
const headers = { "Cache-Control": "no-store" };

function sameSegment(given: string) {
  const expected = Buffer.from(hookSegment());
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function loader() {
  throw data("Not Found", { status: 404 });
}

export async function action({ request, params }: Route.ActionArgs) {
  const hook = params.hook as Hook;
  if (!HOOKS.includes(hook) || !sameSegment(params.segment)) {
    throw data("Not Found", { status: 404 });
  }
  const ip = clientIp(request);
  const allowed = env().MPESA_CALLBACK_IPS;
  if (allowed.length > 0 && !allowed.includes(ip)) {
    logger.warn({ ip: ip, hook }, "Daraja callback from an address not in MPESA_CALLBACK_IPS");
    return data({ ResultCode: 1, ResultDesc: "Rejected" }, { status: 403, headers });
  }
  try {
    const limit = await hitRateLimit(`payment-hooks:${ip}`, HOOK_RATE_LIMIT);
    if (!limit.allowed) {
      return data(
        { ResultCode: 1, ResultDesc: "Too many requests" },
        { status: 429, headers: { ...headers, "Retry-After": String(limit.retryAfterSeconds) } },
      );
    }
    if (Number(request.headers.get("content-length") ?? 0) > MAX_HOOK_BYTES) {
      return data({ ResultCode: 1, ResultDesc: "Too large" }, { status: 413, headers });
    }
    const text = await request.text();
    if (text.length > MAX_HOOK_BYTES) {
      return data({ ResultCode: 1, ResultDesc: "Too large" }, { status: 413, headers });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return data({ ResultCode: 1, ResultDesc: "Not JSON" }, { status: 400, headers });
    }
    // Validation never blocks a payment (not even during our own trouble): always accepted.
    if (hook === "validation")
      return data({ ResultCode: "0", ResultDesc: "Accepted" }, { headers });
    if (hook === "stk") await acceptStkCallback(body, request);
    else if (hook === "confirmation") await acceptConfirmation(body, request);
    else if (hook === "result") await acceptStatusResult(body, request);
    else await acceptStatusTimeout(body, request);
    return data(ACCEPTED, { headers });
  } catch (error) {
    // Our own trouble (the database away): Daraja may deliver again; the queries catch up.
    logger.error({ err: error, hook }, "Daraja callback could not be taken");
    return data(
      { ResultCode: 1, ResultDesc: "Temporarily unavailable" },
      { status: 503, headers: { ...headers, "Retry-After": "30" } },
    );
  }
}
