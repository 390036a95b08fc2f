// Back from Paystack's page (issue 31, decision 0101): /orders/:id/card?reference=… (Paystack adds
// trxref and reference to the callback URL). The reference must be one of this order's attempts;
// the page then asks Paystack to verify it and says "paid" only when verify agreed and the payment
// was recorded (once, whether the webhook came first or not). Verify is a read and recording is
// once per reference, so reloading this page changes nothing.
import { data } from "react-router";
import { logger } from "~/lib/logger.server";
import { redirectWithToast } from "~/lib/toast.server";
import { returnFromPaystack } from "~/models/orders/paystack.server";
import type { Route } from "./+types/order-card";
import { requireVisibleOrder } from "./order-access.server";

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { detail } = await requireVisibleOrder(request, params.id);
  const url = new URL(request.url);
  const reference = (url.searchParams.get("reference") ?? url.searchParams.get("trxref") ?? "")
    .trim()
    .slice(0, 100);
  const orderPath = `/orders/${detail.order.id}`;
  if (!reference) throw data({ message: "Not found" }, { status: 404 });
  let outcome: Awaited<ReturnType<typeof returnFromPaystack>>;
  try {
    outcome = await returnFromPaystack(detail.order.id, reference, request);
  } catch (error) {
    logger.warn({ err: error, orderId: detail.order.id }, "Paystack verify failed on return");
    return redirectWithToast(orderPath, {
      type: "error",
      title: "We could not check your card payment yet",
      description:
        "If you paid, it will show here within a few minutes; you do not need to pay again.",
    });
  }
  if (outcome.state === "unknown") throw data({ message: "Not found" }, { status: 404 });
  if (outcome.state === "paid") {
    return redirectWithToast(orderPath, {
      type: "success",
      title: outcome.late
        ? "Card payment received after the order closed"
        : "Card payment received",
      description: outcome.late
        ? "The order had closed, so the payment is held as credit; we will refund it or reinstate your order."
        : undefined,
    });
  }
  if (outcome.state === "mismatch") {
    return redirectWithToast(orderPath, {
      type: "error",
      title: "We could not confirm this card payment",
      description: "Please contact us before paying again.",
    });
  }
  return redirectWithToast(orderPath, {
    type: "error",
    title: "The card payment was not completed",
    description: "Nothing was charged. You can try again or pay another way.",
  });
}
