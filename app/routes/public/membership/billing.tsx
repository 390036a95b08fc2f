import { GeneralErrorBoundary } from "~/components/error-screens";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { formatDate } from "~/lib/format";
import { formatMinor } from "~/lib/money";
import { PLAN_NAMES } from "~/models/membership/plans";
import type { Route } from "./+types/billing";
import { requireBillingOrder } from "./billing-link.server";

// A membership invoice and its receipts for the billing contact, behind their signed link.
export const meta: Route.MetaFunction = () => [
  { title: "Membership Invoice | Kongamano" },
  { name: "robots", content: "noindex, nofollow" },
];

export function headers() {
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

export async function loader({ params }: Route.LoaderArgs) {
  const { membership, detail, expiresAt } = await requireBillingOrder(params.token);
  const money = (minor: number) => formatMinor(minor, detail.order.currency);
  return {
    member: membership.organisationName ?? membership.memberName,
    plan: PLAN_NAMES[membership.plan],
    linkExpires: formatDate(expiresAt),
    invoice: {
      number: detail.invoice.number,
      description: detail.lines.map((line) => line.description).join("; "),
      total: money(detail.order.totalMinor),
      due: detail.order.state === "awaiting_payment" ? money(detail.dueMinor) : null,
      paid: detail.order.state === "paid",
      payBy: formatDate(detail.order.expiresAt),
      instructions: detail.order.state === "awaiting_payment" ? detail.instructions : [],
    },
    receipts: detail.payments.flatMap((p) =>
      p.receipt
        ? [
            {
              id: p.receipt.id,
              number: p.receipt.number,
              amount: formatMinor(p.amountMinor, p.currency),
              date: formatDate(p.receipt.issuedAt),
            },
          ]
        : [],
    ),
  };
}

export default function BillingPage({ loaderData, params }: Route.ComponentProps) {
  const { invoice, receipts, member, plan, linkExpires } = loaderData;
  const base = `/membership/billing/${params.token}`;
  return (
    <main id="main" className="mx-auto grid w-full max-w-2xl gap-6 px-4 py-10">
      <div className="grid gap-1">
        <h1 className="text-3xl font-semibold">Invoice {invoice.number}</h1>
        <p className="text-muted-foreground">
          {plan} membership of {member}. This link works until {linkExpires}; no account is needed.
        </p>
      </div>
      <Card className="grid gap-4 p-6">
        <p>{invoice.description}</p>
        <p className="text-lg font-semibold">Total: {invoice.total}</p>
        {invoice.due ? (
          <>
            <p className="font-semibold">Amount due: {invoice.due}</p>
            <p className="text-sm text-muted-foreground">Please pay by {invoice.payBy}.</p>
          </>
        ) : invoice.paid ? (
          <p className="font-medium text-success">Paid in full: thank you.</p>
        ) : null}
        {invoice.instructions.map((instruction) => (
          <section
            key={instruction.method}
            className="grid gap-1 rounded-lg border border-border p-4"
          >
            <h2 className="font-medium">{instruction.title}</h2>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              {instruction.lines.map((line) => (
                <div key={line.label} className="contents">
                  <dt className="text-muted-foreground">{line.label}</dt>
                  <dd className="break-all font-mono">{line.value}</dd>
                </div>
              ))}
            </dl>
            {instruction.note ? <p className="text-sm">{instruction.note}</p> : null}
          </section>
        ))}
        <a href={`${base}/invoice.pdf`} className={buttonVariants({ variant: "outline" })}>
          Download Invoice (PDF)
        </a>
      </Card>
      <section aria-labelledby="receipts-heading" className="grid gap-3">
        <h2 id="receipts-heading" className="text-xl font-semibold">
          Receipts
        </h2>
        {receipts.length === 0 ? (
          <p className="text-muted-foreground">No payment has been recorded yet.</p>
        ) : (
          <ul className="grid gap-2">
            {receipts.map((r) => (
              <li key={r.id}>
                <a href={`${base}/receipts/${r.id}/receipt.pdf`} className="underline">
                  Receipt {r.number} ({r.amount}, {r.date})
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
