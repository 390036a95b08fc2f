import { data, Link, redirect } from "react-router";
import { CardPay } from "~/components/card-pay";
import { ConfirmAction, isConfirmed } from "~/components/confirm-action";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { Download } from "~/components/icons";
import { MpesaPay } from "~/components/mpesa-pay";
import { OrderStateBadge } from "~/components/order-state-badge";
import { PaypalPay } from "~/components/paypal-pay";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { TableScroll } from "~/components/ui/table-scroll";
import { formatKesRate } from "~/lib/exchange-rates";
import { formatDate } from "~/lib/format";
import { formatMinor } from "~/lib/money";
import { mpesaOnline } from "~/lib/payments/daraja.server";
import { PAYMENT_METHOD_LABELS } from "~/lib/payments/methods";
import { onlineProvidersFor } from "~/lib/payments/online.server";
import { redirectWithToast } from "~/lib/toast.server";
import { latestPush, mpesaAmounts, startStkPush } from "~/models/orders/mpesa.server";
import { cancelOrder, OrderError } from "~/models/orders/orders.server";
import {
  latestPaypalCheckout,
  paypalDue,
  startPaypalCheckout,
} from "~/models/orders/paypal.server";
import { startCardPayment } from "~/models/orders/paystack.server";
import { openProviderRefunds } from "~/models/orders/provider-refunds.server";
import type { Route } from "./+types/order";
import { requireVisibleOrder } from "./order-access.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Order ${loaderData?.invoiceNumber ?? ""} | Kongamano` },
  { name: "robots", content: "noindex" },
];

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { viewer, detail } = await requireVisibleOrder(request, params.id);
  const { order, invoice, lines, instructions } = detail;
  const money = (minor: number) => formatMinor(minor, order.currency);
  // M-Pesa Express for an unpaid order M-Pesa can pay (KES, or a currency with a KES rate).
  const amounts =
    order.state === "awaiting_payment" && mpesaOnline()
      ? mpesaAmounts({ currency: order.currency, dueMinor: detail.dueMinor })
      : null;
  const mpesa = amounts
    ? {
        partLabel: formatMinor(amounts.partKes * 100, "KES"),
        dueLabel: formatMinor(amounts.dueKes * 100, "KES"),
        parts: amounts.parts,
        rateLabel: amounts.rate
          ? `${money(detail.dueMinor)} at ${formatKesRate(amounts.rate, amounts.currency)}`
          : null,
        push: await latestPush(order.id),
      }
    : null;
  // Online methods that take the order's currency (issue 31): only while something is due.
  const online =
    order.state === "awaiting_payment" && detail.dueMinor > 0
      ? onlineProvidersFor(order.currency)
      : [];
  // PayPal (issue 31) for an unpaid order in a currency it takes, when it is configured.
  const paypalMinor = onlineProvidersFor(order.currency).includes("paypal")
    ? paypalDue({ state: order.state, currency: order.currency, dueMinor: detail.dueMinor })
    : null;
  const lastPaypal = paypalMinor ? await latestPaypalCheckout(order.id) : null;
  const paypal = paypalMinor
    ? {
        due: money(paypalMinor),
        note: lastPaypal?.state === "failed" ? lastPaypal.failure : null,
      }
    : null;
  return {
    mpesa,
    paypal,
    online,
    providerRefunds: await openProviderRefunds(order.id),
    paymentReference: invoice.paymentReference,
    id: order.id,
    state: order.state,
    invoiceNumber: invoice.number,
    issuedLabel: formatDate(invoice.issuedAt),
    dueLabel: formatDate(order.expiresAt),
    buyer: {
      name: order.buyerName,
      email: order.billingEmail,
      organisationName: order.organisationName,
      taxId: order.taxId,
    },
    lines: lines.map((line) => ({
      id: line.id,
      description: line.description,
      quantity: line.quantity,
      unit: money(line.unitAmountMinor),
      total: money(line.lineTotalMinor),
    })),
    total: money(order.totalMinor),
    paid: money(order.paidMinor),
    due: detail.dueMinor > 0 ? money(detail.dueMinor) : null,
    credit: detail.creditMinor > 0 ? money(detail.creditMinor) : null,
    payments: detail.payments.map((p) => ({
      id: p.id,
      method: PAYMENT_METHOD_LABELS[p.method],
      reference: p.reference,
      mpesaReceipt: p.receiptStatus
        ? p.mpesaReceipt
          ? `M-Pesa receipt ${p.mpesaReceipt}${p.receiptStatus === "reported" ? " (reported by the callback)" : ""}`
          : "M-Pesa receipt to be matched"
        : null,
      amount: formatMinor(p.amountMinor, p.currency),
      paidLabel: formatDate(p.paidAt),
      receipt: p.receipt ? { id: p.receipt.id, number: p.receipt.number } : null,
    })),
    refunds: detail.refunds.map((r) => ({
      id: r.id,
      creditNoteNumber: r.creditNoteNumber,
      amount: formatMinor(r.amountMinor, r.currency),
      method: PAYMENT_METHOD_LABELS[r.method],
      reference: r.reference,
      recordedLabel: formatDate(r.createdAt),
    })),
    instructions,
    // The action enforces the same rule (cancelOrder): no cancelling once money is on the order.
    canCancel:
      order.state === "awaiting_payment" && order.buyerId === viewer.id && order.paidMinor === 0,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const { viewer } = await requireVisibleOrder(request, params.id);
  const form = await request.formData();
  if (form.get("intent") === "card") {
    let url: string;
    try {
      ({ url } = await startCardPayment({
        orderId: params.id,
        actor: { id: viewer.id, role: viewer.role, request },
      }));
    } catch (error) {
      if (error instanceof OrderError) {
        return data({ cardError: error.message }, { status: error.status });
      }
      throw error;
    }
    return redirect(url);
  }
  if (form.get("intent") === "paypal") {
    let approveUrl: string;
    try {
      ({ approveUrl } = await startPaypalCheckout({
        orderId: params.id,
        actor: { id: viewer.id, role: viewer.role, request },
      }));
    } catch (error) {
      if (error instanceof OrderError) {
        return data({ paypalError: error.message }, { status: error.status });
      }
      throw error;
    }
    return redirect(approveUrl);
  }
  if (form.get("intent") === "mpesa-push") {
    const phone = String(form.get("phone") ?? "").slice(0, 40);
    try {
      await startStkPush({
        orderId: params.id,
        phone,
        actor: { id: viewer.id, role: viewer.role, request },
      });
    } catch (error) {
      if (error instanceof OrderError) {
        return data({ mpesaError: error.message, phone }, { status: error.status });
      }
      throw error;
    }
    return redirectWithToast(`/orders/${params.id}#mpesa`, {
      type: "success",
      title: "Check your phone and enter your M-Pesa PIN",
    });
  }
  if (form.get("intent") !== "cancel") return data({ error: "Unknown action" }, { status: 400 });
  // Irreversible: only a confirmed request cancels; the first one answers with the question.
  if (!isConfirmed(form)) return data({ confirmCancel: true }, { status: 400 });
  try {
    await cancelOrder(params.id, { id: viewer.id, role: viewer.role, request });
  } catch (error) {
    if (error instanceof OrderError)
      return data({ error: error.message }, { status: error.status });
    throw error;
  }
  return redirectWithToast(`/orders/${params.id}`, { type: "success", title: "Order cancelled" });
}

export default function OrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const order = loaderData;
  return (
    <main id="main" className="mx-auto grid w-full max-w-4xl gap-6 px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-3xl font-semibold">Order {order.invoiceNumber}</h1>
          <p className="text-muted-foreground">
            Invoice {order.invoiceNumber} · issued {order.issuedLabel} · Account number{" "}
            {order.paymentReference}
          </p>
        </div>
        <OrderStateBadge state={order.state} />
      </div>
      {actionData && "error" in actionData ? (
        <p role="alert" className="text-sm text-destructive">
          {actionData.error}
        </p>
      ) : null}

      <Card className="grid gap-4 p-6">
        <h2 className="text-xl font-semibold">Items</h2>
        <TableScroll label="Items">
          <table className="w-full text-left text-sm">
            <thead className="text-muted-foreground">
              <tr>
                <th className="py-2 pr-4 font-medium">Description</th>
                <th className="py-2 pr-4 text-right font-medium">Qty</th>
                <th className="py-2 pr-4 text-right font-medium">Unit price</th>
                <th className="py-2 text-right font-medium">Amount</th>
              </tr>
            </thead>
            <tbody>
              {order.lines.map((line) => (
                <tr key={line.id} className="border-t border-border">
                  <td className="py-2 pr-4">{line.description}</td>
                  <td className="py-2 pr-4 text-right">{line.quantity}</td>
                  <td className="py-2 pr-4 text-right whitespace-nowrap">{line.unit}</td>
                  <td className="py-2 text-right whitespace-nowrap">{line.total}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        <dl className="ml-auto grid w-full max-w-xs grid-cols-2 gap-1 text-sm">
          <dt className="text-muted-foreground">Total</dt>
          <dd className="text-right font-semibold">{order.total}</dd>
          <dt className="text-muted-foreground">Paid</dt>
          <dd className="text-right">{order.paid}</dd>
          {order.due ? (
            <>
              <dt className="text-muted-foreground">Balance due</dt>
              <dd className="text-right font-semibold">{order.due}</dd>
            </>
          ) : null}
          {order.credit ? (
            <>
              <dt className="text-muted-foreground">Credit</dt>
              <dd className="text-right font-semibold">{order.credit}</dd>
            </>
          ) : null}
        </dl>
        <div className="flex flex-wrap gap-3">
          <a
            href={`/orders/${order.id}/invoice.pdf`}
            className={buttonVariants({ variant: "outline" })}
            download
          >
            <Download aria-hidden />
            Download invoice
          </a>
          {order.canCancel ? (
            <ConfirmAction
              trigger="Cancel order"
              triggerVariant="ghost"
              title="Cancel this order?"
              confirmLabel="Yes, cancel order"
              keepLabel="Keep my order"
              keepHref={`/orders/${order.id}`}
              fields={{ intent: "cancel" }}
              open={Boolean(actionData && "confirmCancel" in actionData)}
            >
              <p>
                The invoice is cancelled and nothing is owed. Seats it holds go to the waitlist at
                once; a membership it would start or renew does not. This cannot be undone: to buy
                again, you start a new order.
              </p>
            </ConfirmAction>
          ) : null}
        </div>
      </Card>

      {order.instructions.length > 0 ? (
        <Card className="grid gap-4 p-6">
          <div className="grid gap-1">
            <h2 className="text-xl font-semibold">How to pay</h2>
            <p className="text-sm text-muted-foreground">
              Please pay {order.due ?? order.total} by {order.dueLabel}. Unpaid orders expire then.
            </p>
          </div>
          {order.mpesa ? (
            <MpesaPay
              action={`/orders/${order.id}`}
              statusUrl={`/orders/${order.id}/mpesa-status`}
              partLabel={order.mpesa.partLabel}
              dueLabel={order.mpesa.dueLabel}
              parts={order.mpesa.parts}
              rateLabel={order.mpesa.rateLabel}
              push={order.mpesa.push}
              error={actionData && "mpesaError" in actionData ? actionData.mpesaError : null}
              phone={actionData && "phone" in actionData ? actionData.phone : ""}
            />
          ) : null}
          {order.online.includes("paystack") && order.due ? (
            <CardPay
              action={`/orders/${order.id}`}
              dueLabel={order.due}
              error={actionData && "cardError" in actionData ? actionData.cardError : null}
            />
          ) : null}
          {order.paypal ? (
            <PaypalPay
              action={`/orders/${order.id}`}
              dueLabel={order.paypal.due}
              note={order.paypal.note}
              error={actionData && "paypalError" in actionData ? actionData.paypalError : null}
            />
          ) : null}
          <div className="grid gap-4 sm:grid-cols-2">
            {order.instructions.map((instruction) => (
              <section
                key={instruction.method}
                aria-label={instruction.title}
                className="rounded-lg border border-border p-4"
              >
                <h3 className="font-semibold">{instruction.title}</h3>
                <dl className="mt-2 grid gap-1 text-sm">
                  {instruction.lines.map((line) => (
                    <div key={line.label} className="flex flex-wrap gap-x-2">
                      <dt className="text-muted-foreground">{line.label}:</dt>
                      <dd className="font-medium">{line.value}</dd>
                    </div>
                  ))}
                </dl>
                {instruction.note ? (
                  <p className="mt-2 text-xs text-muted-foreground">{instruction.note}</p>
                ) : null}
              </section>
            ))}
          </div>
        </Card>
      ) : null}

      <Card className="grid gap-3 p-6">
        <h2 className="text-xl font-semibold">Payments</h2>
        {order.payments.length === 0 ? (
          <p className="text-sm text-muted-foreground">No payment recorded yet.</p>
        ) : (
          <ul className="grid gap-2">
            {order.payments.map((p) => (
              <li
                key={p.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-border p-3 text-sm"
              >
                <span>
                  {p.amount} · {p.method} · {p.mpesaReceipt ?? p.reference} · {p.paidLabel}
                </span>
                {p.receipt ? (
                  <a
                    href={`/orders/${order.id}/receipts/${p.receipt.id}/receipt.pdf`}
                    className={buttonVariants({ variant: "outline", size: "sm" })}
                    download
                  >
                    <Download aria-hidden />
                    Receipt {p.receipt.number}
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>

      {order.refunds.length > 0 || order.providerRefunds.length > 0 ? (
        <Card className="grid gap-3 p-6">
          <h2 className="text-xl font-semibold">Refunds</h2>
          {order.providerRefunds.length > 0 ? (
            <ul className="grid gap-2">
              {order.providerRefunds.map((r) => (
                <li key={r.id} className="rounded-lg border border-border p-3 text-sm">
                  {r.amount} · {r.provider} · refund on its way (a credit note follows once{" "}
                  {r.provider} confirms it)
                </li>
              ))}
            </ul>
          ) : null}
          <ul className="grid gap-2">
            {order.refunds.map((r) => (
              <li
                key={r.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-border p-3 text-sm"
              >
                <span>
                  {r.amount} · {r.method} · {r.reference} · {r.recordedLabel}
                </span>
                <a
                  href={`/orders/${order.id}/credit-notes/${r.id}/credit-note.pdf`}
                  className={buttonVariants({ variant: "outline", size: "sm" })}
                  download
                >
                  <Download aria-hidden />
                  Credit note {r.creditNoteNumber}
                </a>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      <p className="text-sm text-muted-foreground">
        Billed to {order.buyer.name}
        {order.buyer.organisationName ? `, ${order.buyer.organisationName}` : ""}
        {order.buyer.taxId ? ` (KRA PIN / VAT ${order.buyer.taxId})` : ""} · {order.buyer.email} ·{" "}
        <Link to="/profile#orders" className="text-primary-700 underline underline-offset-2">
          My orders
        </Link>
      </p>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
