import { data, Form } from "react-router";
import { GeneralErrorBoundary, type Refusal } from "~/components/error-screens";
import { Link } from "~/components/link";
import { MpesaPay } from "~/components/mpesa-pay";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { formatKesRate } from "~/lib/exchange-rates";
import { formatDate } from "~/lib/format";
import { formatMinor } from "~/lib/money";
import { mpesaOnline } from "~/lib/payments/daraja.server";
import { redirectWithToast } from "~/lib/toast.server";
import { MembershipError, openRenewalInvoice } from "~/models/membership/membership.server";
import { PLAN_NAMES } from "~/models/membership/plans";
import { getRenewalView } from "~/models/membership/queries.server";
import { verifyRenewalToken } from "~/models/membership/renewal-link.server";
import { latestPush, mpesaAmounts, startStkPush } from "~/models/orders/mpesa.server";
import { OrderError } from "~/models/orders/orders.server";
import { getOrderForSystem } from "~/models/orders/queries.server";
import type { Route } from "./+types/renew";

// The one-click renewal link of the reminders: the signed token is the credential (no password).
export const meta: Route.MetaFunction = () => [
  { title: "Renew Membership | Kongamano" },
  { name: "robots", content: "noindex, nofollow" },
];

export function headers() {
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

const INVALID_LINK: Refusal = {
  title: "This renewal link is not valid",
  message:
    "The link may be incomplete (some mail programs cut long links). Sign in to renew from your profile, or open the link in the latest renewal e-mail again.",
  next: [
    { href: "/profile", label: "Sign in to renew" },
    { href: "/membership", label: "Membership plans" },
  ],
};

const EXPIRED_LINK: Refusal = {
  title: "This renewal link has expired",
  message:
    "This renewal link has expired. Sign in and renew from your profile, or re-join from the membership page.",
  next: [
    { href: "/profile", label: "Sign in to renew" },
    { href: "/membership", label: "Re-join" },
  ],
};

function checkToken(token: string) {
  const check = verifyRenewalToken(token);
  if (!check.ok) {
    throw data(check.reason === "expired" ? EXPIRED_LINK : INVALID_LINK, {
      status: check.reason === "expired" ? 410 : 404,
    });
  }
  return check;
}

export async function loader({ params }: Route.LoaderArgs) {
  const { membershipId, expiresAt } = checkToken(params.token);
  const view = await getRenewalView(membershipId);
  if (!view) throw data(INVALID_LINK, { status: 404 });
  const detail = view.open ? await getOrderForSystem(view.open.orderId) : null;
  // "Pay with M-Pesa" here too (issue 34): the link is the credential, as for the invoice.
  const amounts =
    detail?.order.state === "awaiting_payment" && mpesaOnline()
      ? mpesaAmounts({ currency: detail.order.currency, dueMinor: detail.dueMinor })
      : null;
  const mpesa =
    detail && amounts
      ? {
          partLabel: formatMinor(amounts.partKes * 100, "KES"),
          dueLabel: formatMinor(amounts.dueKes * 100, "KES"),
          parts: amounts.parts,
          rateLabel: amounts.rate
            ? `${formatMinor(detail.dueMinor, detail.order.currency)} at ${formatKesRate(amounts.rate, amounts.currency)}`
            : null,
          push: await latestPush(detail.order.id),
        }
      : null;
  return {
    mpesa,
    memberName: view.membership.memberName,
    plan: PLAN_NAMES[view.membership.plan],
    state: view.membership.state,
    linkExpires: formatDate(expiresAt),
    invoice: detail
      ? {
          number: detail.invoice.number,
          description: detail.lines[0]?.description ?? "",
          due: formatMinor(detail.dueMinor, detail.order.currency),
          payBy: formatDate(detail.order.expiresAt),
          instructions: detail.instructions,
        }
      : null,
  };
}

export async function action({ params, request }: Route.ActionArgs) {
  const { membershipId } = checkToken(params.token);
  const form = await request.formData();
  if (form.get("intent") === "mpesa-push") {
    const phone = String(form.get("phone") ?? "").slice(0, 40);
    const view = await getRenewalView(membershipId);
    if (!view?.open)
      return data({ mpesaError: "No renewal invoice is open.", phone }, { status: 409 });
    try {
      await startStkPush({ orderId: view.open.orderId, phone, actor: { system: "renewal-link" } });
    } catch (error) {
      if (error instanceof OrderError) {
        return data({ mpesaError: error.message, phone }, { status: error.status });
      }
      throw error;
    }
    return redirectWithToast(`/membership/renew/${params.token}#mpesa`, {
      type: "success",
      title: "Check your phone and enter your M-Pesa PIN",
    });
  }
  // A valid link for a membership since deleted is refused like a stale one, not a 500.
  const opened = await openRenewalInvoice(membershipId).catch((error) => {
    if (error instanceof MembershipError && error.status === 404) {
      throw data(INVALID_LINK, { status: 404 });
    }
    throw error;
  });
  if (!opened) {
    throw data(
      {
        title: "No renewal is open",
        message: "This membership has no renewal open.",
        next: [
          { href: "/profile", label: "Your profile" },
          { href: "/membership", label: "Membership plans" },
        ],
      } satisfies Refusal,
      { status: 409 },
    );
  }
  return redirectWithToast(`/membership/renew/${params.token}`, {
    type: "success",
    title: "Renewal invoice ready",
  });
}

export default function RenewPage({ loaderData, params, actionData }: Route.ComponentProps) {
  const { invoice, memberName, plan, state, linkExpires, mpesa } = loaderData;
  const renewable = state === "renewal_open" || state === "grace";
  return (
    <main id="main" className="mx-auto grid w-full max-w-2xl gap-6 px-4 py-10">
      <div className="grid gap-1">
        <h1 className="text-3xl font-semibold">Renew your {plan} membership</h1>
        <p className="text-muted-foreground">
          For {memberName}. This link works until {linkExpires}; nothing is charged until you pay.
        </p>
      </div>
      {invoice ? (
        <Card className="grid gap-4 p-6">
          <h2 className="text-xl font-semibold">Invoice {invoice.number}</h2>
          <p>{invoice.description}</p>
          <p className="text-lg font-semibold">Amount due: {invoice.due}</p>
          <p className="text-sm text-muted-foreground">Please pay by {invoice.payBy}.</p>
          {mpesa ? (
            <MpesaPay
              action={`/membership/renew/${params.token}`}
              statusUrl={`/membership/renew/${params.token}/mpesa-status`}
              partLabel={mpesa.partLabel}
              dueLabel={mpesa.dueLabel}
              parts={mpesa.parts}
              rateLabel={mpesa.rateLabel}
              push={mpesa.push}
              error={actionData && "mpesaError" in actionData ? actionData.mpesaError : null}
              phone={actionData && "phone" in actionData ? actionData.phone : ""}
            />
          ) : null}
          {invoice.instructions.map((instruction) => (
            <section
              key={instruction.method}
              className="grid gap-1 rounded-lg border border-border p-4"
            >
              <h3 className="font-medium">{instruction.title}</h3>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                {instruction.lines.map((line) => (
                  <div key={line.label} className="contents">
                    <dt className="text-muted-foreground">{line.label}</dt>
                    <dd className="font-mono">{line.value}</dd>
                  </div>
                ))}
              </dl>
              {instruction.note ? <p className="text-sm">{instruction.note}</p> : null}
            </section>
          ))}
          <a
            href={`/membership/renew/${params.token}/invoice.pdf`}
            className={buttonVariants({ variant: "outline" })}
          >
            Download Invoice (PDF)
          </a>
        </Card>
      ) : renewable ? (
        <Card className="grid gap-4 p-6">
          <p>Your renewal invoice is not open any more.</p>
          <Form method="post">
            <Button type="submit">Get Renewal Invoice</Button>
          </Form>
        </Card>
      ) : (
        <Card className="grid gap-4 p-6">
          <p>
            {state === "active"
              ? "Your membership is renewed: thank you."
              : "This membership cannot be renewed from this link."}
          </p>
          <Link to="/profile#membership" className="font-medium text-primary-700 underline">
            See your membership
          </Link>
        </Card>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
