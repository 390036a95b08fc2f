import { data, Link } from "react-router";
import { ConfirmAction, isConfirmed } from "~/components/confirm-action";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { PastEventBadge } from "~/components/event-card";
import { RegistrationStateBadge } from "~/components/profile-registrations";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { formatDate, formatDateRange, formatTime } from "~/lib/format";
import { formatMinor } from "~/lib/money";
import { requireUser } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { admitsLabel } from "~/models/registrations/checkin.server";
import { getMyRegistration } from "~/models/registrations/queries.server";
import { ticketQrSvg } from "~/models/registrations/registration-jobs.server";
import {
  cancelRegistration,
  RegistrationError,
  SELF_CANCEL_HOURS_BEFORE,
} from "~/models/registrations/registrations.server";
import type { Route } from "./+types/registration";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Ticket: ${loaderData?.event.title ?? "Event"} | Kongamano` },
  { name: "robots", content: "noindex" },
];

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

async function requireOwnRegistration(request: Request, id: string) {
  const user = await requireUser(request);
  // Someone else's registration is as good as missing: ids never confirm what exists.
  const detail = await getMyRegistration(id, user.id);
  if (!detail) throw data({ message: "Registration not found" }, { status: 404 });
  return { user, detail };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { detail } = await requireOwnRegistration(request, params.id);
  const { registration, event, join } = detail;
  const zone = event.timeZone;
  return {
    join:
      join.state === "open"
        ? { url: join.url, opensLabel: null }
        : join.state === "later"
          ? {
              url: null,
              opensLabel: `${formatDate(join.opensAt, zone)} ${formatTime(join.opensAt, zone)} (${zone})`,
            }
          : null,
    id: registration.id,
    state: registration.state,
    ticketLabel: registration.ticketLabel,
    quantity: registration.quantity,
    attendee: { name: registration.attendeeName, email: registration.attendeeEmail },
    price:
      registration.unitAmountMinor > 0 && registration.currency
        ? formatMinor(registration.unitAmountMinor * registration.quantity, registration.currency)
        : "Free",
    paid: registration.unitAmountMinor > 0,
    orderId: registration.orderId,
    invoiceNumber: detail.invoiceNumber,
    /** Other unpaid seats of this order, cancelled with it (a delegation's order). */
    otherOrderSeats:
      registration.state === "awaiting_payment"
        ? Math.max(0, (detail.unpaidOrderSeats ?? 1) - 1)
        : 0,
    event: {
      slug: event.slug,
      title: event.title,
      location: event.location,
      dateLabel: formatDateRange(event.startDate, event.endDate, zone),
      timeLabel: `${formatTime(event.startDate, zone)} (${zone})`,
      cancelled: event.cancelledAt !== null,
    },
    past: detail.past,
    cancelHours: SELF_CANCEL_HOURS_BEFORE,
    mayCancel: detail.mayCancel && !event.cancelledAt,
    cancelDeadlineLabel: `${formatDate(detail.cancelDeadline, zone)} ${formatTime(detail.cancelDeadline, zone)}`,
    tickets: await Promise.all(
      detail.tickets.map(async (t) => ({
        seat: t.seat,
        code: t.code,
        qr: `data:image/svg+xml;base64,${Buffer.from(await ticketQrSvg(t.code)).toString("base64")}`,
        checkedInLabel: t.checkedInAt
          ? `${formatDate(t.checkedInAt, zone)} ${formatTime(t.checkedInAt, zone)}`
          : null,
        // A group ticket: one QR for its whole group, "Admits 6 — 2 of 6 in".
        admitsLabel: t.admits > 1 ? admitsLabel(t.admits, t.admittedLastDay ?? 0) : null,
      })),
    ),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const { user } = await requireOwnRegistration(request, params.id);
  const form = await request.formData();
  if (form.get("intent") !== "cancel") return data({ error: "Unknown action" }, { status: 400 });
  // Irreversible: only a confirmed request cancels; the first one answers with the question.
  if (!isConfirmed(form)) return data({ confirmCancel: true }, { status: 400 });
  try {
    await cancelRegistration(params.id, { id: user.id, role: "user", request });
  } catch (error) {
    if (error instanceof RegistrationError) {
      return data({ error: error.message }, { status: error.status === 404 ? 404 : 400 });
    }
    throw error;
  }
  return redirectWithToast(`/registrations/${params.id}`, {
    type: "success",
    title: "Registration cancelled",
    description: "Your seats were released.",
  });
}

export default function RegistrationPage({ loaderData, actionData }: Route.ComponentProps) {
  const r = loaderData;
  const eventPath = `/events/${encodeURIComponent(r.event.slug)}`;
  return (
    <main id="main" className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-10">
      <div className="grid gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <RegistrationStateBadge state={r.state} />
          {r.past ? <PastEventBadge /> : null}
        </div>
        <h1 className="text-3xl font-semibold">
          <Link to={eventPath} className="hover:underline">
            {r.event.title}
          </Link>
        </h1>
        <p className="text-muted-foreground">
          {r.event.dateLabel} · {r.event.timeLabel} · {r.event.location}
        </p>
      </div>
      {actionData && "error" in actionData ? (
        <Alert variant="destructive">
          <AlertDescription>{actionData.error}</AlertDescription>
        </Alert>
      ) : null}
      {r.event.cancelled ? (
        <Alert variant="destructive">
          <AlertDescription>This event has been cancelled.</AlertDescription>
        </Alert>
      ) : null}
      {r.join ? (
        <Card className="grid gap-2 p-6">
          <h2 className="text-xl font-semibold">Join online</h2>
          {r.join.url ? (
            <a
              href={r.join.url}
              rel="noopener noreferrer"
              target="_blank"
              className={buttonVariants({ className: "w-fit" })}
            >
              Join the event online
            </a>
          ) : (
            <p className="text-sm">
              The join link appears here from {r.join.opensLabel}, an hour before the start. It is
              also in the reminder e-mail the day before.
            </p>
          )}
        </Card>
      ) : null}
      <Card className="grid gap-3 p-6">
        <h2 className="text-xl font-semibold">Registration</h2>
        <dl className="grid gap-2 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="text-muted-foreground">Ticket</dt>
          <dd>
            {r.ticketLabel} × {r.quantity}
          </dd>
          <dt className="text-muted-foreground">Attendee</dt>
          <dd>
            {r.attendee.name} ({r.attendee.email})
          </dd>
          <dt className="text-muted-foreground">Price</dt>
          <dd>{r.price}</dd>
          {r.orderId && r.invoiceNumber ? (
            <>
              <dt className="text-muted-foreground">Invoice</dt>
              <dd>
                <Link
                  to={`/orders/${r.orderId}`}
                  className="text-primary-700 underline underline-offset-2"
                >
                  {r.invoiceNumber}
                </Link>
              </dd>
            </>
          ) : null}
        </dl>
        {r.state === "awaiting_payment" ? (
          <p className="text-sm">
            Your seats are held until the invoice is paid; your ticket follows by e-mail then.
          </p>
        ) : null}
      </Card>
      {r.tickets.length > 0 && r.state === "confirmed" ? (
        <section aria-labelledby="tickets-heading" className="grid gap-4">
          <h2 id="tickets-heading" className="text-xl font-semibold">
            {r.tickets.length === 1 ? "Your ticket" : "Your tickets"}
          </h2>
          <p className="text-sm text-muted-foreground">
            Show the QR code at the entrance, one per seat.
          </p>
          <ul className="grid gap-4 sm:grid-cols-2">
            {r.tickets.map((t) => (
              <li key={t.seat}>
                <Card className="grid justify-items-center gap-2 p-4 text-center">
                  <img
                    src={t.qr}
                    alt={`QR code of seat ${t.seat}`}
                    width={220}
                    height={220}
                    className="size-56 bg-white"
                  />
                  <p className="font-medium">Seat {t.seat}</p>
                  {t.admitsLabel ? <p className="text-sm font-medium">{t.admitsLabel}</p> : null}
                  <p className="font-mono text-xs break-all text-slate-700">{t.code}</p>
                  {t.checkedInLabel ? (
                    <p className="text-sm text-green-800">Checked in {t.checkedInLabel}</p>
                  ) : null}
                </Card>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {r.state === "confirmed" || r.state === "awaiting_payment" ? (
        <Card className="grid gap-3 p-6">
          <h2 className="text-xl font-semibold">Cancel registration</h2>
          {r.mayCancel ? (
            <>
              <p className="text-sm">
                You can cancel online until {r.cancelDeadlineLabel} ({r.cancelHours} hours before
                the start); your seats then go to the waitlist.
                {r.paid && r.state === "confirmed"
                  ? " Refunds of paid registrations are handled by our team, who will contact you."
                  : ""}
              </p>
              <ConfirmAction
                trigger="Cancel Registration"
                title="Cancel this registration?"
                confirmLabel="Yes, cancel registration"
                keepLabel="Keep my registration"
                keepHref={`/registrations/${r.id}`}
                fields={{ intent: "cancel" }}
                open={Boolean(actionData && "confirmCancel" in actionData)}
              >
                <p>
                  {r.quantity > 1 ? `All ${r.quantity} seats` : "Your seat"} go to the waitlist at
                  once and {r.quantity > 1 ? "the tickets stop" : "the ticket stops"} working. This
                  cannot be undone.
                </p>
                <p>
                  {r.state === "awaiting_payment"
                    ? r.otherOrderSeats > 0
                      ? `The unpaid invoice is cancelled with the ${r.otherOrderSeats} other ${r.otherOrderSeats === 1 ? "seat" : "seats"} it holds; nothing is owed.`
                      : "The unpaid invoice is cancelled; nothing is owed."
                    : r.paid
                      ? "What you paid is not refunded automatically: our team will contact you about the refund."
                      : "Nothing was paid for it."}
                </p>
              </ConfirmAction>
            </>
          ) : (
            <p className="text-sm">
              Online cancellation closed {r.cancelHours} hours before the start. Please{" "}
              <Link
                to={`/contact?${new URLSearchParams({ topic: "registration", event: r.event.title })}`}
                className="text-primary-700 underline underline-offset-2"
              >
                contact us
              </Link>
              .
            </p>
          )}
        </Card>
      ) : null}
      <Link to="/profile#my-events" className={buttonVariants({ variant: "outline" })}>
        All my events
      </Link>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
