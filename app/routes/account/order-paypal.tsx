// Coming back from PayPal (issue 31, decision 0104): /orders/:id/paypal/return?token=… and
// /orders/:id/paypal/cancel?token=…. The buyer approved (or cancelled) on PayPal; no money moves
// on these GETs. The return page asks the buyer to confirm, and its POST captures the PayPal order
// and records the payment once PayPal confirms it (models/orders/paypal.server.ts). Cancel only
// says so: an attempt never captured takes nothing and is simply left behind.
import { data, Form, Link, redirect } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { redirectWithToast, type Toast } from "~/lib/toast.server";
import { OrderError } from "~/models/orders/order-error";
import {
  paypalCheckoutFor,
  type ReturnOutcome,
  returnFromPaypal,
} from "~/models/orders/paypal.server";
import type { Route } from "./+types/order-paypal";
import { requireVisibleOrder } from "./order-access.server";

export const meta: Route.MetaFunction = () => [
  { title: "Confirm your PayPal payment | Kongamano" },
  { name: "robots", content: "noindex" },
];

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

const STEPS = ["return", "cancel"] as const;

function tokenOf(request: Request) {
  return (new URL(request.url).searchParams.get("token") ?? "").slice(0, 64);
}

export async function loader({ request, params }: Route.LoaderArgs) {
  if (!STEPS.includes(params.step as (typeof STEPS)[number])) {
    throw data({ message: "Not found" }, { status: 404 });
  }
  const { detail } = await requireVisibleOrder(request, params.id);
  const orderPath = `/orders/${detail.order.id}`;
  const checkout = await paypalCheckoutFor(detail.order.id, tokenOf(request));
  if (!checkout) throw data({ message: "PayPal payment not found" }, { status: 404 });
  if (params.step === "cancel") {
    return redirectWithToast(orderPath, {
      type: "info",
      title: "PayPal payment cancelled",
      description: "Nothing was taken.",
    });
  }
  if (checkout.state === "captured") {
    return redirectWithToast(orderPath, { type: "success", title: "Paid with PayPal" });
  }
  if (checkout.state !== "created") throw redirect(orderPath);
  return {
    orderPath,
    amount: checkout.amount,
    token: checkout.paypalOrderId,
    invoiceNumber: detail.invoice.number,
  };
}

const OUTCOME_TOASTS: Record<ReturnOutcome, Toast> = {
  recorded: { type: "success", title: "Paid with PayPal" },
  duplicate: { type: "success", title: "Paid with PayPal" },
  pending: {
    type: "info",
    title: "PayPal is still processing your payment",
    description: "This order shows it as paid once PayPal confirms it.",
  },
  not_approved: {
    type: "error",
    title: "PayPal has not approved this payment",
    description: "Nothing was taken. Start the PayPal payment again.",
  },
  declined: {
    type: "error",
    title: "PayPal declined the payment",
    description: "Nothing was taken. Try again, or choose another way to pay.",
  },
  mismatch: {
    type: "error",
    title: "PayPal's payment does not match the amount due",
    description: "Nothing was recorded; our staff will look into it and contact you.",
  },
  closed: {
    type: "info",
    title: "This order is no longer awaiting payment",
    description: "Nothing was taken from PayPal.",
  },
  changed: {
    type: "info",
    title: "The balance due has changed",
    description:
      "Nothing was taken from PayPal. Start the PayPal payment again for the new balance.",
  },
  unavailable: {
    type: "error",
    title: "PayPal could not be reached",
    description: "Nothing was recorded yet. Please try again in a moment.",
  },
};

export async function action({ request, params }: Route.ActionArgs) {
  if (params.step !== "return") throw data({ message: "Not found" }, { status: 404 });
  const { detail } = await requireVisibleOrder(request, params.id);
  const orderPath = `/orders/${detail.order.id}`;
  const form = await request.formData();
  const token = String(form.get("token") ?? "").slice(0, 64);
  try {
    const outcome = await returnFromPaypal({ orderId: detail.order.id, token, request });
    if (outcome === "unavailable") {
      return redirectWithToast(
        `${orderPath}/paypal/return?token=${encodeURIComponent(token)}`,
        OUTCOME_TOASTS.unavailable,
      );
    }
    return redirectWithToast(orderPath, OUTCOME_TOASTS[outcome]);
  } catch (error) {
    if (error instanceof OrderError) {
      return data({ error: error.message }, { status: error.status });
    }
    throw error;
  }
}

export default function OrderPaypalPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <main id="main" className="mx-auto grid w-full max-w-xl gap-6 px-4 py-10">
      <h1 className="text-3xl font-semibold">Confirm your PayPal payment</h1>
      {actionData && "error" in actionData ? (
        <p role="alert" className="text-sm text-destructive">
          {actionData.error}
        </p>
      ) : null}
      <Card className="grid gap-4 p-6">
        <p>
          PayPal approved {loaderData.amount} for invoice {loaderData.invoiceNumber}. The money is
          taken when you confirm.
        </p>
        <Form method="post" className="flex flex-wrap gap-3">
          <input type="hidden" name="token" value={loaderData.token} />
          <Button type="submit">Pay {loaderData.amount} now</Button>
          <Link
            to={loaderData.orderPath}
            className="self-center text-primary-700 underline underline-offset-2"
          >
            Back to the order
          </Link>
        </Form>
      </Card>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
