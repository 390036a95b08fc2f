// M-Pesa online for staff (issue 34): Paybill payments reported and awaiting confirmation, the
// latest STK pushes (phones masked), registering the Paybill URLs with Daraja, and the statement
// CSV upload that reconciles what the callbacks missed. Editors read; admins act (the models
// enforce it). Linked from the Payments screen's URL: /admin/payments/mpesa.
import { data, Form, useActionData, useLoaderData } from "react-router";
import { PageHeader } from "~/components/admin/page-header";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { formatDate, formatTime } from "~/lib/format";
import { formatMinor } from "~/lib/money";
import { DarajaError, darajaConfig } from "~/lib/payments/daraja.server";
import { requireRole } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { listRecentPushes } from "~/models/orders/mpesa.server";
import {
  confirmReportedPayment,
  listReportedConfirmations,
  registerPaybillUrls,
} from "~/models/orders/mpesa-paybill.server";
import { reconcileStatement } from "~/models/orders/mpesa-statement.server";
import { OrderError } from "~/models/orders/orders.server";
import type { Route } from "./+types/mpesa";

export const meta: Route.MetaFunction = () => [
  { title: "M-Pesa | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

/** A statement CSV over this size is refused (the portal's monthly files are far smaller). */
const MAX_STATEMENT_BYTES = 900 * 1024;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireRole(request, "editor");
  const config = darajaConfig();
  const when = (d: Date) => `${formatDate(d)}, ${formatTime(d)}`;
  return {
    isAdmin: user.role === "admin",
    online: Boolean(config),
    confirming: Boolean(config?.initiator),
    reported: (await listReportedConfirmations()).map((c) => ({
      id: c.id,
      transId: c.transId,
      account: c.billRefNumber,
      amount: formatMinor(c.amountMinor, "KES"),
      phone: c.msisdn,
      state: c.state,
      when: when(c.createdAt),
    })),
    pushes: (await listRecentPushes()).map((p) => ({ ...p, when: when(new Date(p.createdAt)) })),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireRole(request, "editor");
  const actor = { id: user.id, role: user.role, request };
  const form = await request.formData();
  const intent = form.get("intent");
  try {
    // Each action here is an admin's, as the page shows them (editors read the lists): refused
    // before anything is read (the models check the role again).
    if (intent === "register-urls") {
      if (user.role !== "admin") throw new OrderError("Only admins can register the URLs.", 403);
      await registerPaybillUrls(actor);
      return redirectWithToast("/admin/payments/mpesa", {
        type: "success",
        title: "Paybill URLs registered with M-Pesa",
      });
    }
    if (intent === "confirm") {
      if (user.role !== "admin")
        throw new OrderError("Only admins can confirm M-Pesa payments.", 403);
      const id = String(form.get("id") ?? "");
      if (!/^[0-9a-f-]{36}$/i.test(id)) return data({ error: "Unknown payment." }, { status: 400 });
      await confirmReportedPayment(id, actor);
      return redirectWithToast("/admin/payments/mpesa", {
        type: "success",
        title: "Payment confirmed",
      });
    }
    if (intent === "statement") {
      if (user.role !== "admin") {
        throw new OrderError("Only admins can reconcile the M-Pesa statement.", 403);
      }
      const file = form.get("statement");
      if (!(file instanceof File) || file.size === 0) {
        return data({ error: "Choose the statement CSV file." }, { status: 400 });
      }
      if (file.size > MAX_STATEMENT_BYTES) {
        return data({ error: "The statement file must be at most 900 kB." }, { status: 400 });
      }
      const outcome = await reconcileStatement(await file.text(), actor);
      return data({ outcome });
    }
  } catch (error) {
    if (error instanceof OrderError)
      return data({ error: error.message }, { status: error.status });
    if (error instanceof DarajaError) {
      return data({ error: `M-Pesa answered: ${error.message}` }, { status: 409 });
    }
    throw error;
  }
  return data({ error: "Unknown action." }, { status: 400 });
}

const PUSH_STATES: Record<string, string> = {
  pending: "Waiting for the phone",
  paid: "Paid",
  cancelled: "Cancelled on the phone",
  timed_out: "Timed out",
  failed: "Failed",
};

export default function MpesaAdmin() {
  const { isAdmin, online, confirming, reported, pushes } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="grid gap-6">
      <PageHeader
        title="M-Pesa"
        description={
          online
            ? confirming
              ? "M-Pesa online is on: STK Push and Paybill payments record themselves once M-Pesa confirms them."
              : "M-Pesa online is on. Paybill payments are reported, awaiting confirmation: confirm them from the portal or the statement."
            : "M-Pesa online is off (MPESA_CONSUMER_KEY, MPESA_CONSUMER_SECRET and MPESA_PASSKEY are not set): payments are recorded on the Payments screen."
        }
      />
      {result && "error" in result ? (
        <p role="alert" className="text-sm text-destructive">
          {result.error}
        </p>
      ) : null}
      {result && "outcome" in result ? (
        <Card className="grid gap-2 p-4" role="status">
          <p className="font-medium">
            Statement read: {result.outcome.lines} payments in. {result.outcome.alreadyRecorded}{" "}
            already recorded, {result.outcome.confirmed} receipts confirmed,{" "}
            {result.outcome.recorded} recorded now, {result.outcome.unmatched.length} unmatched.
          </p>
          {result.outcome.unmatched.length > 0 ? (
            <ul className="text-sm">
              {result.outcome.unmatched.map((u) => (
                <li key={u.receipt}>
                  {u.receipt} · {formatMinor(u.amountMinor, "KES")} · account {u.account ?? "none"}{" "}
                  (kept unmatched on the Payments screen)
                </li>
              ))}
            </ul>
          ) : null}
        </Card>
      ) : null}

      {isAdmin ? (
        <Card className="grid gap-4 p-6">
          <h2 className="text-xl font-semibold">Statement</h2>
          <Form
            method="post"
            encType="multipart/form-data"
            className="flex flex-wrap items-end gap-3"
          >
            <input type="hidden" name="intent" value="statement" />
            <div className="grid min-w-0 max-w-full grow basis-64 gap-1 text-sm">
              <label htmlFor="mpesa-statement">
                M-Pesa statement (CSV from the organisation portal)
              </label>
              <Input
                id="mpesa-statement"
                type="file"
                name="statement"
                accept=".csv,text/csv"
                required
              />
            </div>
            <Button type="submit">Reconcile</Button>
          </Form>
          {online ? (
            <Form method="post">
              <input type="hidden" name="intent" value="register-urls" />
              <Button type="submit" variant="outline" className="h-auto whitespace-normal">
                Register Paybill URLs with M-Pesa
              </Button>
            </Form>
          ) : null}
        </Card>
      ) : null}

      <Card className="grid gap-3 p-6">
        <h2 className="text-xl font-semibold">Paybill payments reported, awaiting confirmation</h2>
        {reported.length === 0 ? (
          <p className="text-sm text-muted-foreground">None.</p>
        ) : (
          <ul className="grid gap-2">
            {reported.map((r) => (
              <li
                key={r.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-border p-3 text-sm"
              >
                <span>
                  {r.transId} · {r.amount} · account {r.account ?? "none"} · {r.phone} · {r.when}
                  {r.state === "rejected"
                    ? " · not confirmed by M-Pesa"
                    : " · reported, awaiting confirmation"}
                </span>
                {isAdmin && r.state === "reported" ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="confirm" />
                    <input type="hidden" name="id" value={r.id} />
                    <Button
                      type="submit"
                      size="sm"
                      variant="outline"
                      aria-label={`Confirm ${r.transId}`}
                    >
                      Confirm
                    </Button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card className="grid gap-3 p-6">
        <h2 className="text-xl font-semibold">Latest STK pushes</h2>
        {pushes.length === 0 ? (
          <p className="text-sm text-muted-foreground">None yet.</p>
        ) : (
          <ul className="grid gap-2 text-sm">
            {pushes.map((p) => (
              <li key={p.id} className="rounded-lg border border-border p-3">
                {p.invoiceNumber} · {p.amount} · {p.phone} · {PUSH_STATES[p.state]}
                {p.resultDesc && p.state !== "paid" ? ` (${p.resultDesc})` : ""}
                {p.receipt ? ` · receipt ${p.receipt}` : ""} · {p.when}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
