import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  getSelectProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useNavigation } from "react-router";
import type { z } from "zod";
import { EmptyState } from "~/components/admin/empty-state";
import { PageHeader } from "~/components/admin/page-header";
import {
  type OnlineRefundSchema,
  PaymentActionSchema,
  type RecordPaymentSchema,
  type RefundSchema,
} from "~/components/admin/payment-schema";
import { Wallet } from "~/components/icons";
import { ORDER_STATE_LABELS } from "~/components/order-state-badge";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field, fieldWiring } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { TableScroll } from "~/components/ui/table-scroll";
import { CURRENCIES, EVENT_TIME_ZONE } from "~/lib/constants";
import { useDeferredSchema } from "~/lib/deferred-validation";
import { formatKesRate, kesRate } from "~/lib/exchange-rates.server";
import { formatDate } from "~/lib/format";
import { decimalsRule, formatMinor, minorToDecimal, parseMinorUnits } from "~/lib/money";
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from "~/lib/payments/methods";
import { requireRole } from "~/lib/permissions.server";
import { hasRole, type Role } from "~/lib/roles";
import { dayInZone, instantInZone } from "~/lib/time-zones";
import { redirectWithToast } from "~/lib/toast.server";
import { UploadError } from "~/lib/uploads.server";
import { orderBalance } from "~/models/orders/balance";
import {
  matchPayment,
  OrderError,
  recordPayment,
  recordRefund,
  reinstateOrder,
} from "~/models/orders/orders.server";
import {
  discardPaymentProof,
  MAX_PROOF_BYTES,
  storePaymentProof,
} from "~/models/orders/payment-proof.server";
import { refundableOf } from "~/models/orders/payments.server";
import {
  openProviderRefunds,
  PROVIDER_NAMES,
  refundThroughProvider,
} from "~/models/orders/provider-refunds.server";
import {
  getOrderForViewer,
  listOrdersAwaitingPayment,
  listOrdersNeedingAttention,
  listRecentPayments,
  listUnmatchedPayments,
} from "~/models/orders/queries.server";
import type { Route } from "./+types/payments";

export const meta: Route.MetaFunction = () => [
  { title: "Payments | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

/**
 * The order named by `?refund=` (e.g. after staff cancelled a paid registration), if visible,
 * with its payments that have money left: the form picks one, the latest by default.
 */
async function refundTarget(request: Request, viewer: { id: string; role: Role }) {
  const orderId = new URL(request.url).searchParams.get("refund");
  const detail = orderId ? await getOrderForViewer(orderId, viewer) : null;
  if (!detail) return null;
  const { currency } = detail.order;
  const { heldMinor } = orderBalance(detail.order);
  // Latest first (by payment date, then when recorded): the first is the default.
  const refundable = detail.payments
    .filter((p) => refundableOf(p) > 0)
    .sort(
      (a, b) =>
        b.paidAt.getTime() - a.paidAt.getTime() || b.createdAt.getTime() - a.createdAt.getTime(),
    )
    .map((p) => ({
      id: p.id,
      provider: p.provider,
      label: `${PAYMENT_METHOD_LABELS[p.method]} ${p.reference} · ${formatDate(p.paidAt)} · ${formatMinor(refundableOf(p), currency)} left`,
      leftAmount: minorToDecimal(Math.min(refundableOf(p), heldMinor), currency),
    }));
  // Payments a provider took go back through it (issue 31); the rest are recorded by staff.
  const offline = refundable.filter((p) => !p.provider);
  const online = refundable.filter((p) => p.provider);
  return {
    orderId: detail.order.id,
    invoiceNumber: detail.invoice.number,
    buyer: detail.order.buyerName,
    currency,
    refundable: formatMinor(heldMinor, currency),
    refundableAmount: offline[0]?.leftAmount ?? minorToDecimal(heldMinor, currency),
    payments: offline,
    online: online.map((p) => ({
      id: p.id,
      label: `${p.label} · via ${PROVIDER_NAMES[p.provider ?? "paystack"]}`,
      leftAmount: p.leftAmount,
    })),
    onlineAmount: online[0]?.leftAmount ?? "",
    providerRefunds: await openProviderRefunds(detail.order.id, true),
  };
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireRole(request, "editor");
  const [awaiting, unmatched, recent, attention, refund] = await Promise.all([
    listOrdersAwaitingPayment(user.role),
    listUnmatchedPayments(user.role),
    listRecentPayments(user.role),
    listOrdersNeedingAttention(user.role),
    refundTarget(request, user),
  ]);
  // The configured rates (never typed by staff): shillings against such an invoice are converted.
  const kesRates = CURRENCIES.flatMap((c) => {
    const rate = kesRate(c);
    return rate ? [formatKesRate(rate, c)] : [];
  });
  return {
    isAdmin: hasRole(user.role, "admin"),
    kesRates,
    refund,
    attention: attention.map((o) => {
      const held = o.paidMinor - o.refundedMinor;
      const closed = o.state === "expired" || o.state === "cancelled";
      return {
        id: o.id,
        invoiceNumber: o.invoiceNumber,
        buyer: o.organisationName ? `${o.buyerName} (${o.organisationName})` : o.buyerName,
        state: o.registrationCancelled ? "Registration cancelled" : ORDER_STATE_LABELS[o.state],
        total: formatMinor(o.totalMinor, o.currency),
        paid: formatMinor(o.paidMinor, o.currency),
        refunded: o.refundedMinor > 0 ? formatMinor(o.refundedMinor, o.currency) : null,
        credit: formatMinor(o.creditMinor, o.currency),
        canReinstate: closed && held >= o.totalMinor && o.buyerId !== user.id,
      };
    }),
    awaiting: awaiting.map((o) => ({
      id: o.id,
      invoiceNumber: o.invoiceNumber,
      buyer: o.organisationName ? `${o.buyerName} (${o.organisationName})` : o.buyerName,
      currency: o.currency,
      total: formatMinor(o.totalMinor, o.currency),
      due: formatMinor(o.totalMinor - o.paidMinor, o.currency),
      partPaid: o.paidMinor > 0,
      dueLabel: formatDate(o.expiresAt),
      overdue: o.overdue,
    })),
    unmatched: unmatched.map((p) => ({
      id: p.id,
      method: PAYMENT_METHOD_LABELS[p.method],
      reference: p.reference,
      payerAccount: p.payerAccount,
      amount: formatMinor(p.amountMinor, p.currency),
      paidLabel: formatDate(p.paidAt),
      hasProof: Boolean(p.proofKey),
    })),
    recent: recent.map((p) => ({
      id: p.id,
      orderId: p.orderId,
      invoiceNumber: p.invoiceNumber,
      method: PAYMENT_METHOD_LABELS[p.method],
      reference: p.reference,
      amount: formatMinor(p.amountMinor, p.currency),
      received:
        p.receivedMinor !== null && p.exchangeRate !== null
          ? `${formatMinor(p.receivedMinor, "KES")} at ${formatKesRate(p.exchangeRate, p.currency)}`
          : null,
      refunded:
        p.state === "recorded"
          ? null
          : p.state === "refunded"
            ? "refunded"
            : `${formatMinor(p.refundedMinor, p.currency)} refunded`,
      paidLabel: formatDate(p.paidAt),
      recordedBy: p.recordedBy,
      receiptNumber: p.receiptNumber,
      hasProof: Boolean(p.proofKey),
    })),
  };
}

/** The posted form, or why it could not be read (a body over the cap is cut off unread). */
async function readForm(request: Request): Promise<FormData | string> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_PROOF_BYTES + 64 * 1024) return "The proof file must be at most 5 MB.";
  try {
    return await request.formData();
  } catch {
    // A broken multipart body (an over-long one never gets here: see server/http-guards.ts).
    return "The form could not be read. Please try again.";
  }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireRole(request, "editor");
  const form = await readForm(request);
  if (typeof form === "string") {
    return data({ result: null, error: form, intent: null }, { status: 400 });
  }
  const submission = parseWithZod(form, { schema: PaymentActionSchema });
  if (submission.status !== "success") {
    const intent = String(form.get("intent") ?? "");
    return data({ result: submission.reply(), error: null, intent }, { status: 400 });
  }
  const actor = { id: user.id, role: user.role, request };
  const value = submission.value;
  const refused = (error: OrderError) =>
    data(
      {
        result: submission.reply({ formErrors: [error.message] }),
        error: null,
        intent: value.intent,
      },
      { status: error.status },
    );
  if (value.intent === "reinstate") {
    try {
      const order = await reinstateOrder(value.orderId, actor);
      return redirectWithToast("/admin/payments", {
        type: "success",
        title: "Order reinstated",
        description: `The order is paid again (${formatMinor(order.totalMinor, order.currency)}); its tickets or membership follow.`,
      });
    } catch (error) {
      if (error instanceof OrderError) return refused(error);
      throw error;
    }
  }
  if (value.intent === "refund") {
    // The amount is read in the order's currency (UGX has no decimals). An order this person
    // cannot see is refused by recordRefund; its amount is then only read for shape.
    const target = await getOrderForViewer(value.orderId, { id: user.id, role: user.role });
    const currency = target?.order.currency ?? "USD";
    const amountMinor = parseMinorUnits(value.amount, currency);
    if (amountMinor === null) return refused(new OrderError(decimalsRule(currency), 400));
    try {
      const { refund, order } = await recordRefund(
        {
          orderId: value.orderId,
          paymentId: value.paymentId,
          amountMinor,
          method: value.method,
          reference: value.reference,
          reason: value.reason,
        },
        actor,
      );
      return redirectWithToast("/admin/payments", {
        type: "success",
        title: order.state === "refunded" ? "Refund recorded · order refunded" : "Refund recorded",
        description: `Credit note ${refund.creditNoteNumber} for ${formatMinor(refund.amountMinor, refund.currency)} issued and e-mailed to the buyer.`,
      });
    } catch (error) {
      if (error instanceof OrderError) return refused(error);
      throw error;
    }
  }
  if (value.intent === "online-refund") {
    const target = await getOrderForViewer(value.orderId, { id: user.id, role: user.role });
    const currency = target?.order.currency ?? "USD";
    const amountMinor = parseMinorUnits(value.amount, currency);
    if (amountMinor === null) return refused(new OrderError(decimalsRule(currency), 400));
    try {
      const outcome = await refundThroughProvider(
        {
          orderId: value.orderId,
          paymentId: value.paymentId,
          amountMinor,
          reason: value.reason,
        },
        actor,
      );
      const { request: asked } = outcome;
      const provider = PROVIDER_NAMES[asked.provider];
      const amount = formatMinor(asked.amountMinor, asked.currency);
      if (asked.state === "failed") {
        return refused(
          new OrderError(
            `${provider} did not refund ${amount}: ${asked.failure ?? "refused"}`,
            409,
          ),
        );
      }
      return redirectWithToast("/admin/payments", {
        type: "success",
        title:
          asked.state === "completed"
            ? outcome.orderState === "refunded"
              ? `Refunded through ${provider} · order refunded`
              : `Refunded through ${provider}`
            : asked.state === "pending"
              ? `Refund asked of ${provider}`
              : `${provider} did not answer`,
        description:
          asked.state === "completed"
            ? `Credit note ${outcome.creditNoteNumber} for ${amount} issued and e-mailed to the buyer.`
            : asked.state === "pending"
              ? `${provider} is processing ${amount}; the credit note is issued and e-mailed once it confirms.`
              : `Whether ${provider} refunded ${amount} is not known: check its dashboard before trying again. The amount stays held back.`,
      });
    } catch (error) {
      if (error instanceof OrderError) return refused(error);
      throw error;
    }
  }
  // The proof is stored before the payment is recorded; it is removed again when no payment
  // ends up holding it, so no staff-private file is left behind without an owner.
  let proofKey: string | null = null;
  try {
    if (value.intent === "match") {
      const matched = await matchPayment(value.paymentId, value.invoiceNumber, actor);
      return redirectWithToast("/admin/payments", {
        type: "success",
        title: "Payment matched",
        description: `Receipt ${matched.receiptNumber} issued${matched.orderPaid ? "; the order is paid" : ""}.`,
      });
    }
    const proof = form.get("proof");
    proofKey = proof instanceof Blob && proof.size > 0 ? await storePaymentProof(proof) : null;
    const result = await recordPayment(
      {
        method: value.method,
        reference: value.reference,
        amountMinor: parseMinorUnits(value.amount, value.currency) ?? 0,
        currency: value.currency,
        // Noon of the day typed, in Nairobi (the office's day), whatever the server's zone.
        paidAt: instantInZone(value.paidOn, 12, 0, EVENT_TIME_ZONE),
        invoiceNumber: value.invoiceNumber,
        proofKey,
      },
      actor,
    );
    if (result.outcome === "duplicate" && proofKey) await discardPaymentProof(proofKey);
    const toast =
      result.outcome === "duplicate"
        ? {
            type: "info" as const,
            title: "Already recorded",
            description: `This ${PAYMENT_METHOD_LABELS[value.method]} reference was recorded before; nothing changed.`,
          }
        : result.outcome === "unmatched"
          ? {
              type: "info" as const,
              title: "Payment kept unmatched",
              description: `No invoice is numbered ${value.invoiceNumber}. Match it below when you know which one it pays.`,
            }
          : {
              type: "success" as const,
              title: result.orderPaid ? "Payment recorded · order paid" : "Payment recorded",
              description: `${
                result.received
                  ? `${formatMinor(result.received.receivedMinor, "KES")} at ${formatKesRate(result.received.exchangeRate, result.currency)} credited as ${formatMinor(result.amountMinor, result.currency)}. `
                  : ""
              }Receipt ${result.receiptNumber} issued and e-mailed to the buyer.`,
            };
    return redirectWithToast("/admin/payments", toast);
  } catch (error) {
    if (proofKey) await discardPaymentProof(proofKey);
    if (error instanceof OrderError || error instanceof UploadError) {
      const status = error.status === 403 ? 403 : 400;
      return data(
        {
          result: submission.reply({ formErrors: [error.message] }),
          error: null,
          intent: value.intent,
        },
        { status },
      );
    }
    throw error;
  }
}

function today() {
  return dayInZone(new Date(), EVENT_TIME_ZONE);
}

function RecordPaymentForm({
  lastResult,
  kesRates,
}: {
  lastResult?: SubmissionResult<string[]> | null;
  kesRates: string[];
}) {
  const navigation = useNavigation();
  const validation = useDeferredSchema<z.input<typeof RecordPaymentSchema>>(
    async () => (await import("~/components/admin/payment-schema")).RecordPaymentSchema,
  );
  const [form, fields] = useForm({
    id: "record-payment",
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    defaultValue: { method: "mpesa", currency: "KES", paidOn: today() },
    ...validation,
  });
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className="grid gap-4"
    >
      <input type="hidden" name="intent" value="record" />
      {form.errors?.length ? (
        <Alert variant="destructive" id={form.errorId}>
          <AlertDescription>{form.errors.join(" ")}</AlertDescription>
        </Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Invoice number (account)" {...fieldWiring(fields.invoiceNumber)}>
          <Input
            {...getInputProps(fields.invoiceNumber, { type: "text" })}
            placeholder="INV-2027-000042"
          />
        </Field>
        <MethodField meta={fields.method} />
        <Field label="Reference (M-Pesa code)" {...fieldWiring(fields.reference)}>
          <Input
            {...getInputProps(fields.reference, { type: "text" })}
            autoCapitalize="characters"
          />
        </Field>
        <Field label="Payment date" {...fieldWiring(fields.paidOn)}>
          <Input {...getInputProps(fields.paidOn, { type: "date" })} />
        </Field>
        <Field label="Amount" {...fieldWiring(fields.amount)}>
          <Input {...getInputProps(fields.amount, { type: "text" })} inputMode="decimal" />
        </Field>
        <Field
          label="Currency"
          hint={
            kesRates.length
              ? `Shillings against an invoice in another currency are converted at the configured rate (${kesRates.join(", ")}), rounded down.`
              : undefined
          }
          {...fieldWiring(fields.currency)}
        >
          <NativeSelect {...getSelectProps(fields.currency)}>
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <Field label="Proof (optional)" htmlFor="payment-proof" hint="PDF or image, at most 5 MB.">
        <Input
          id="payment-proof"
          name="proof"
          type="file"
          accept="application/pdf,image/jpeg,image/png,image/webp"
        />
      </Field>
      <Button type="submit" disabled={navigation.state === "submitting"} className="w-fit">
        Record Payment
      </Button>
    </Form>
  );
}

function ProofLink({ paymentId }: { paymentId: string }) {
  return (
    <>
      {" · "}
      <a
        href={`/admin/payments/${paymentId}/proof`}
        className="text-primary-700 underline underline-offset-2"
      >
        proof
      </a>
    </>
  );
}

function MatchForm({ paymentId }: { paymentId: string }) {
  return (
    <Form method="post" className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="match" />
      <input type="hidden" name="paymentId" value={paymentId} />
      <Input
        name="invoiceNumber"
        aria-label="Invoice number to match"
        placeholder="INV-…"
        className="w-44"
        required
      />
      <Button type="submit" size="sm" variant="outline">
        Match
      </Button>
    </Form>
  );
}

function RefundForm({
  target,
  lastResult,
}: {
  target: {
    orderId: string;
    invoiceNumber: string;
    refundableAmount: string;
    refundable: string;
    payments: { id: string; label: string }[];
  };
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const navigation = useNavigation();
  const refundValidation = useDeferredSchema<z.input<typeof RefundSchema>>(
    async () => (await import("~/components/admin/payment-schema")).RefundSchema,
  );
  const [form, fields] = useForm({
    id: `refund-${target.orderId}`,
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    defaultValue: {
      method: "mpesa",
      amount: target.refundableAmount,
      paymentId: target.payments[0]?.id,
    },
    ...refundValidation,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value="refund" />
      <input type="hidden" name="orderId" value={target.orderId} />
      {form.errors?.length ? (
        <Alert variant="destructive" id={form.errorId}>
          <AlertDescription>{form.errors.join(" ")}</AlertDescription>
        </Alert>
      ) : null}
      <p className="text-sm text-muted-foreground">
        Invoice {target.invoiceNumber}: {target.refundable} paid and not refunded yet. A credit note
        is issued and e-mailed to the buyer.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Refund from payment"
          hint="The money goes back from this payment; at most what it has left."
          {...fieldWiring(fields.paymentId)}
        >
          <NativeSelect {...getSelectProps(fields.paymentId)}>
            {target.payments.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label="Amount refunded" {...fieldWiring(fields.amount)}>
          <Input {...getInputProps(fields.amount, { type: "text" })} inputMode="decimal" />
        </Field>
        <MethodField meta={fields.method} />
        <Field label="Refund reference" {...fieldWiring(fields.reference)}>
          <Input
            {...getInputProps(fields.reference, { type: "text" })}
            autoCapitalize="characters"
          />
        </Field>
        <Field label="Reason (optional)" {...fieldWiring(fields.reason)}>
          <Input {...getInputProps(fields.reason, { type: "text" })} maxLength={500} />
        </Field>
      </div>
      <Button type="submit" disabled={navigation.state === "submitting"} className="w-fit">
        Record Refund
      </Button>
    </Form>
  );
}

function OnlineRefundForm({
  target,
  lastResult,
}: {
  target: {
    orderId: string;
    onlineAmount: string;
    online: { id: string; label: string }[];
  };
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const navigation = useNavigation();
  const validation = useDeferredSchema<z.input<typeof OnlineRefundSchema>>(
    async () => (await import("~/components/admin/payment-schema")).OnlineRefundSchema,
  );
  const [form, fields] = useForm({
    id: `online-refund-${target.orderId}`,
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    defaultValue: { amount: target.onlineAmount, paymentId: target.online[0]?.id },
    ...validation,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value="online-refund" />
      <input type="hidden" name="orderId" value={target.orderId} />
      <h3 className="font-semibold">Refund to the card or PayPal account</h3>
      {form.errors?.length ? (
        <Alert variant="destructive" id={form.errorId}>
          <AlertDescription>{form.errors.join(" ")}</AlertDescription>
        </Alert>
      ) : null}
      <p className="text-sm text-muted-foreground">
        The money goes back through the provider that took it. The refund and its credit note are
        recorded once the provider confirms it.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Refund payment" {...fieldWiring(fields.paymentId)}>
          <NativeSelect {...getSelectProps(fields.paymentId)}>
            {target.online.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label="Amount to refund" {...fieldWiring(fields.amount)}>
          <Input {...getInputProps(fields.amount, { type: "text" })} inputMode="decimal" />
        </Field>
        <Field label="Reason (optional)" {...fieldWiring(fields.reason)}>
          <Input {...getInputProps(fields.reason, { type: "text" })} maxLength={500} />
        </Field>
      </div>
      <Button type="submit" disabled={navigation.state === "submitting"} className="w-fit">
        Refund Online
      </Button>
    </Form>
  );
}

function ReinstateForm({ orderId, invoiceNumber }: { orderId: string; invoiceNumber: string }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="reinstate" />
      <input type="hidden" name="orderId" value={orderId} />
      <Button
        type="submit"
        size="sm"
        variant="outline"
        aria-label={`Reinstate order ${invoiceNumber}`}
      >
        Reinstate
      </Button>
    </Form>
  );
}

export default function Payments({ loaderData, actionData }: Route.ComponentProps) {
  const { awaiting, unmatched, recent, isAdmin, attention, refund, kesRates } = loaderData;
  const reply = (intent: string) =>
    actionData?.intent === intent ? (actionData.result ?? undefined) : undefined;
  const overdue = awaiting.filter((o) => o.overdue).length;
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Payments"
        description={
          isAdmin
            ? "Record M-Pesa, bank and other payments against invoices, and reconcile what arrived."
            : "Record payments for event orders."
        }
        actions={
          <Link to="/admin/payments/mpesa" className={buttonVariants({ variant: "outline" })}>
            M-Pesa
          </Link>
        }
      />
      {actionData?.error ? (
        <Alert variant="destructive">
          <AlertDescription>{actionData.error}</AlertDescription>
        </Alert>
      ) : null}
      {actionData?.intent === "reinstate" && actionData.result?.error?.[""] ? (
        <Alert variant="destructive">
          <AlertDescription>{actionData.result.error[""].join(" ")}</AlertDescription>
        </Alert>
      ) : null}
      {refund ? (
        <Card className="grid gap-4 p-6" id="refund">
          <h2 className="text-xl font-semibold">
            Refund {refund.invoiceNumber} ({refund.buyer})
          </h2>
          {isAdmin ? (
            <>
              {refund.providerRefunds.length > 0 ? (
                <ul className="grid gap-1 text-sm">
                  {refund.providerRefunds.map((r) => (
                    <li key={r.id}>
                      {r.amount} through {r.provider}:{" "}
                      {r.state === "failed"
                        ? `not refunded (${r.failure ?? "refused"})`
                        : r.state === "pending"
                          ? "on its way; the credit note follows once it is confirmed"
                          : "asked, no answer yet: check the provider's dashboard"}
                    </li>
                  ))}
                </ul>
              ) : null}
              {refund.online.length > 0 ? (
                <OnlineRefundForm target={refund} lastResult={reply("online-refund")} />
              ) : null}
              {refund.payments.length > 0 || refund.online.length === 0 ? (
                <RefundForm target={refund} lastResult={reply("refund")} />
              ) : null}
            </>
          ) : (
            <p className="text-sm text-muted-foreground">
              {refund.refundable} paid and not refunded yet. An admin records refunds; the order is
              in the list below.
            </p>
          )}
        </Card>
      ) : null}

      <Card className="grid gap-4 p-6">
        <h2 className="text-xl font-semibold">Needs attention ({attention.length})</h2>
        {attention.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No order holds money to refund or reinstate.
          </p>
        ) : (
          <TableScroll label="Needs attention">
            <table className="w-full text-left text-sm">
              <thead className="text-muted-foreground">
                <tr>
                  <th className="py-2 pr-4 font-medium">Invoice</th>
                  <th className="py-2 pr-4 font-medium">Buyer</th>
                  <th className="py-2 pr-4 font-medium">Order</th>
                  <th className="py-2 pr-4 text-right font-medium">Total</th>
                  <th className="py-2 pr-4 text-right font-medium">Paid</th>
                  <th className="py-2 pr-4 text-right font-medium">To refund</th>
                  <th className="py-2 font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {attention.map((o) => (
                  <tr key={o.id} className="border-t border-border align-top">
                    <td className="py-2 pr-4">
                      <Link
                        to={`/orders/${o.id}`}
                        className="font-medium text-primary-700 hover:underline"
                      >
                        {o.invoiceNumber}
                      </Link>
                    </td>
                    <td className="py-2 pr-4">{o.buyer}</td>
                    <td className="py-2 pr-4">{o.state}</td>
                    <td className="py-2 pr-4 text-right whitespace-nowrap">{o.total}</td>
                    <td className="py-2 pr-4 text-right whitespace-nowrap">
                      {o.paid}
                      {o.refunded ? ` (${o.refunded} refunded)` : ""}
                    </td>
                    <td className="py-2 pr-4 text-right font-semibold whitespace-nowrap">
                      {o.credit}
                    </td>
                    <td className="py-2">
                      <div className="flex flex-wrap gap-2">
                        {o.canReinstate ? (
                          <ReinstateForm orderId={o.id} invoiceNumber={o.invoiceNumber} />
                        ) : null}
                        {isAdmin ? (
                          <Link
                            to={`/admin/payments?refund=${o.id}#refund`}
                            className="text-primary-700 underline underline-offset-2"
                            aria-label={`Refund order ${o.invoiceNumber}`}
                          >
                            Refund
                          </Link>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Card>

      <Card className="grid gap-4 p-6">
        <h2 className="text-xl font-semibold">Record a payment</h2>
        <RecordPaymentForm lastResult={reply("record")} kesRates={kesRates} />
      </Card>

      <Card className="grid gap-4 p-6">
        <h2 className="text-xl font-semibold">
          Awaiting payment ({awaiting.length}
          {overdue ? `, ${overdue} overdue` : ""})
        </h2>
        {awaiting.length === 0 ? (
          <EmptyState
            icon={Wallet}
            title="Nothing awaiting payment"
            hint="Every invoice is paid or closed."
          />
        ) : (
          <TableScroll label="Awaiting payment">
            <table className="w-full text-left text-sm">
              <thead className="text-muted-foreground">
                <tr>
                  <th className="py-2 pr-4 font-medium">Invoice</th>
                  <th className="py-2 pr-4 font-medium">Buyer</th>
                  <th className="py-2 pr-4 text-right font-medium">Total</th>
                  <th className="py-2 pr-4 text-right font-medium">Due</th>
                  <th className="py-2 font-medium">Due by</th>
                </tr>
              </thead>
              <tbody>
                {awaiting.map((o) => (
                  <tr key={o.id} className="border-t border-border">
                    <td className="py-2 pr-4">
                      <Link
                        to={`/orders/${o.id}`}
                        className="font-medium text-primary-700 hover:underline"
                      >
                        {o.invoiceNumber}
                      </Link>
                    </td>
                    <td className="py-2 pr-4">{o.buyer}</td>
                    <td className="py-2 pr-4 text-right whitespace-nowrap">{o.total}</td>
                    <td className="py-2 pr-4 text-right whitespace-nowrap">
                      {o.due}
                      {o.partPaid ? " (part paid)" : ""}
                    </td>
                    <td className="py-2">
                      {o.dueLabel} {o.overdue ? <Badge variant="destructive">Overdue</Badge> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Card>

      {isAdmin ? (
        <Card className="grid gap-4 p-6">
          <h2 className="text-xl font-semibold">
            Payments matching no invoice ({unmatched.length})
          </h2>
          {unmatched.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              Every recorded payment matches an invoice.
            </p>
          ) : (
            <ul className="grid gap-3">
              {unmatched.map((p) => (
                <li
                  key={p.id}
                  className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border p-3 text-sm"
                >
                  <span>
                    {p.amount} · {p.method} {p.reference} · {p.paidLabel} · account “
                    {p.payerAccount ?? "—"}”{p.hasProof ? <ProofLink paymentId={p.id} /> : null}
                  </span>
                  <MatchForm paymentId={p.id} />
                </li>
              ))}
            </ul>
          )}
        </Card>
      ) : null}

      <Card className="grid gap-4 p-6">
        <h2 className="text-xl font-semibold">Recent payments</h2>
        {recent.length === 0 ? (
          <p className="text-sm text-muted-foreground">No payment recorded yet.</p>
        ) : (
          <ul className="grid gap-2">
            {recent.map((p) => (
              <li key={p.id} className="rounded-lg border border-border p-3 text-sm">
                {p.amount}
                {p.received ? ` (${p.received})` : ""}
                {p.refunded ? ` · ${p.refunded}` : ""} · {p.method} {p.reference} · {p.paidLabel} ·{" "}
                <Link
                  to={`/orders/${p.orderId}`}
                  className="text-primary-700 underline underline-offset-2"
                >
                  {p.invoiceNumber}
                </Link>
                {p.receiptNumber ? ` · ${p.receiptNumber}` : ""}
                {p.recordedBy ? ` · recorded by ${p.recordedBy}` : ""}
                {p.hasProof ? <ProofLink paymentId={p.id} /> : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

/** The payment method select of the record and refund forms. */
function MethodField({ meta }: { meta: FieldMetadata<string> }) {
  return (
    <Field label="Method" {...fieldWiring(meta)}>
      <NativeSelect {...getSelectProps(meta)}>
        {PAYMENT_METHODS.map((m) => (
          <option key={m} value={m}>
            {PAYMENT_METHOD_LABELS[m]}
          </option>
        ))}
      </NativeSelect>
    </Field>
  );
}
