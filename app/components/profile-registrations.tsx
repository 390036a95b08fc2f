import { ConfirmAction } from "~/components/confirm-action";
import { PastEventBadge } from "~/components/event-card";
import { Link } from "~/components/link";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import type { ProfileRegistrationsData } from "~/models/registrations/queries.server";

const VARIANTS = {
  confirmed: "success",
  awaiting_payment: "warning",
  cancelled: "neutral",
  expired: "neutral",
} as const;

const LABELS = {
  confirmed: "Confirmed",
  awaiting_payment: "Awaiting payment",
  cancelled: "Cancelled",
  expired: "Expired",
} as const;

export function RegistrationStateBadge({ state }: { state: keyof typeof LABELS }) {
  return <Badge variant={VARIANTS[state]}>{LABELS[state]}</Badge>;
}

const linkClass = "text-primary-700 underline underline-offset-2";

/** "My events": registrations with status, ticket, invoice and self-service cancellation. */
export function ProfileRegistrations({ myEvents }: { myEvents: ProfileRegistrationsData }) {
  const { registrations, waitlist } = myEvents;
  return (
    <Card id="my-events" className="grid gap-4 p-6">
      <h2 className="text-xl font-semibold">My events</h2>
      {registrations.length === 0 && waitlist.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          You have not registered for an event yet.{" "}
          <Link to="/events" className={linkClass}>
            Browse upcoming events
          </Link>
          .
        </p>
      ) : (
        <ul className="grid gap-3">
          {waitlist.map((w) => (
            <li key={w.id} className="grid gap-2 rounded-lg border border-border p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <Link to={`/events/${encodeURIComponent(w.eventSlug)}`} className="font-medium">
                  {w.eventTitle}
                </Link>
                <Badge variant={w.offered ? "success" : "info"}>
                  {w.offered ? "Seat offered" : `Waitlisted #${w.position}`}
                </Badge>
              </div>
              <p className="text-muted-foreground">{w.dateLabel}</p>
              {w.offered ? (
                <p>
                  A seat is held for you until {w.offerExpiresLabel}.{" "}
                  <Link
                    to={`/events/${encodeURIComponent(w.eventSlug)}/register?offer=${w.id}`}
                    className={linkClass}
                  >
                    Claim your seat
                  </Link>
                </p>
              ) : null}
            </li>
          ))}
          {registrations.map((r) => (
            <li key={r.id} className="grid gap-2 rounded-lg border border-border p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <Link to={`/registrations/${r.id}`} className="font-medium hover:underline">
                  {r.eventTitle}
                </Link>
                <span className="flex flex-wrap gap-2">
                  {r.past ? <PastEventBadge /> : null}
                  {r.eventCancelled ? <Badge variant="destructive">Event cancelled</Badge> : null}
                  <RegistrationStateBadge state={r.state} />
                </span>
              </div>
              <p className="text-muted-foreground">
                {r.dateLabel} · {r.ticket}
                {r.invoiceNumber ? ` · Invoice ${r.invoiceNumber}` : ""}
              </p>
              <div className="flex flex-wrap items-center gap-2">
                {r.state === "confirmed" ? (
                  <Link
                    to={`/registrations/${r.id}`}
                    className={buttonVariants({ variant: "outline", size: "sm" })}
                  >
                    View Ticket
                  </Link>
                ) : null}
                {r.orderId ? (
                  <Link
                    to={`/orders/${r.orderId}`}
                    className={buttonVariants({ variant: "outline", size: "sm" })}
                  >
                    {r.state === "awaiting_payment" ? "Pay Invoice" : "View Invoice"}
                  </Link>
                ) : null}
                {r.mayCancel ? (
                  <ConfirmAction
                    trigger="Cancel"
                    triggerLabel={`Cancel registration for ${r.eventTitle}`}
                    triggerVariant="outline"
                    size="sm"
                    title={`Cancel your registration for ${r.eventTitle}?`}
                    confirmLabel="Yes, cancel registration"
                    keepLabel="Keep it"
                    keepHref="/profile#my-events"
                    action={`/registrations/${r.id}`}
                    fields={{ intent: "cancel" }}
                  >
                    <p>
                      The seats go to the waitlist at once and the tickets stop working. This cannot
                      be undone.{" "}
                      {r.state === "awaiting_payment"
                        ? "The unpaid invoice is cancelled; nothing is owed."
                        : "Money paid is not refunded automatically: our team will contact you."}
                    </p>
                  </ConfirmAction>
                ) : null}
              </div>
              {r.mayCancel ? (
                <p className="text-xs text-muted-foreground">
                  Online cancellation until {r.cancelDeadlineLabel}. Refunds of paid registrations
                  are handled by our team.
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
