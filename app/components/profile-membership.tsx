import { Form, useSearchParams } from "react-router";
import { ConfirmAction } from "~/components/confirm-action";
import { Link } from "~/components/link";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { cn } from "~/lib/utils";
import type { ProfileMembershipData } from "~/models/membership/queries.server";

const UPGRADES: Record<string, { id: string; name: string }[]> = {
  individual: [{ id: "professional", name: "Professional" }],
  professional: [],
};

/** Membership on /profile: where the person stands, what happens next, invoices, card, actions. */
export function ProfileMembership({ data }: { data: ProfileMembershipData }) {
  // Without JavaScript, the first "Cancel" comes back here with the question open.
  const [searchParams] = useSearchParams();
  const confirmCancel = searchParams.get("confirm") === "cancel-membership";
  const m = data?.membership;
  return (
    <Card id="membership" className="grid gap-4 p-6" aria-labelledby="membership-heading">
      <h2 id="membership-heading" className="text-xl font-semibold">
        Membership
      </h2>
      {data?.seat ? (
        <div className="grid gap-3">
          <p>
            You hold a seat of the Corporate membership of {data.seat.organisationName}
            {data.seat.current ? ": you have member benefits." : ", which is not current."}
          </p>
          {data.seat.current && !m?.hasCard ? (
            <Link to="/membership/card" className={buttonVariants({ variant: "outline" })}>
              Membership card
            </Link>
          ) : null}
        </div>
      ) : null}
      {!m ? (
        data?.seat ? null : (
          <div className="grid gap-3">
            <p>You are not a member yet.</p>
            <Link to="/membership" className={buttonVariants({ variant: "outline" })}>
              See membership plans
            </Link>
          </div>
        )
      ) : (
        <div className="grid gap-4">
          <p>
            <strong>{m.planName}</strong>
          </p>
          <p data-testid="membership-standing" className="text-lg">
            {m.standing}
          </p>
          {m.upgradeWaitingForReview ? (
            <p>
              Your upgrade to Corporate is waiting for review: you will get an e-mail with the
              invoice or the reason.
            </p>
          ) : null}
          <div className="flex flex-wrap gap-3">
            {m.hasCard ? (
              <Link to="/membership/card" className={buttonVariants({ variant: "outline" })}>
                Membership card
              </Link>
            ) : null}
            {m.state === "lapsed" || m.state === "rejected" || m.state === "cancelled" ? (
              <Link to={`/membership/apply/${m.plan}`} className={buttonVariants({})}>
                Re-join
              </Link>
            ) : null}
            {m.needsInvoice ? (
              <Form method="post" action="/profile/membership">
                <input type="hidden" name="intent" value="reissue" />
                <input type="hidden" name="id" value={m.id} />
                <Button type="submit">Get a new invoice</Button>
              </Form>
            ) : null}
            {m.canUpgrade
              ? (UPGRADES[m.plan] ?? []).map((to) => (
                  <Form key={to.id} method="post" action="/profile/membership">
                    <input type="hidden" name="intent" value="upgrade" />
                    <input type="hidden" name="id" value={m.id} />
                    <input type="hidden" name="plan" value={to.id} />
                    <Button type="submit" variant="outline">
                      Upgrade to {to.name} (pay the prorated difference)
                    </Button>
                  </Form>
                ))
              : null}
            {m.canRequestCorporate ? (
              <Link
                to="/membership/apply/corporate"
                className={cn(
                  buttonVariants({ variant: "outline" }),
                  "h-auto min-h-10 shrink whitespace-normal text-center",
                )}
              >
                Upgrade to Corporate (reviewed like an application)
              </Link>
            ) : null}
            {m.canCancel ? (
              <ConfirmAction
                trigger={
                  m.accessUntil && (m.state === "active" || m.state === "renewal_open")
                    ? `Cancel (access until ${m.accessUntil})`
                    : "Cancel membership"
                }
                triggerVariant="outline"
                title="Cancel your membership?"
                confirmLabel="Yes, cancel membership"
                keepLabel="Keep my membership"
                keepHref="/profile#membership"
                action="/profile/membership"
                fields={{ intent: "cancel", id: m.id }}
                open={confirmCancel}
              >
                <p>
                  {m.accessUntil && (m.state === "active" || m.state === "renewal_open")
                    ? `You keep your benefits until ${m.accessUntil}; it is not renewed after that. Nothing paid is refunded.`
                    : "The application and its unpaid invoice are cancelled; nothing is owed."}{" "}
                  This cannot be undone: to be a member again, you apply again.
                </p>
              </ConfirmAction>
            ) : null}
          </div>
          {m.invoices.length > 0 ? (
            <div className="grid gap-2">
              <h3 className="font-medium">Invoices and receipts</h3>
              <ul className="grid gap-2 text-sm">
                {m.invoices.map((invoice) => (
                  <li key={invoice.orderId}>
                    <Link to={`/orders/${invoice.orderId}`} className="font-medium underline">
                      {invoice.invoiceNumber}
                    </Link>{" "}
                    · {invoice.label} · {invoice.total} · {invoice.state.replace("_", " ")}
                    {invoice.period ? ` · ${invoice.period}` : ""}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {m.canInvite || m.seats.length > 0 ? (
            <div className="grid gap-2">
              <h3 className="font-medium">Team seats ({m.seatsLeft} left)</h3>
              <ul className="grid gap-1 text-sm">
                {m.seats.map((seat) => (
                  <li key={seat.id} className="flex flex-wrap items-center gap-2">
                    {seat.email} ·{" "}
                    {seat.accepted
                      ? "member"
                      : seat.expired
                        ? "invitation expired"
                        : `invited until ${seat.expiresOn}`}
                    {!seat.accepted && m.canInvite ? (
                      <Form method="post" action="/profile/membership">
                        <input type="hidden" name="intent" value="invite-seat" />
                        <input type="hidden" name="id" value={m.id} />
                        <input type="hidden" name="email" value={seat.email} />
                        <Button type="submit" variant="ghost" size="sm">
                          Invite {seat.email} again
                        </Button>
                      </Form>
                    ) : null}
                    <Form method="post" action="/profile/membership">
                      <input type="hidden" name="intent" value="revoke-seat" />
                      <input type="hidden" name="id" value={seat.id} />
                      <Button type="submit" variant="ghost" size="sm">
                        Remove {seat.email}
                      </Button>
                    </Form>
                  </li>
                ))}
              </ul>
              {m.canInvite && m.seatsLeft > 0 ? (
                <Form
                  method="post"
                  action="/profile/membership"
                  className="flex flex-wrap items-end gap-2"
                >
                  <input type="hidden" name="intent" value="invite-seat" />
                  <input type="hidden" name="id" value={m.id} />
                  <div className="grid gap-1">
                    <Label htmlFor="seat-email">Colleague's e-mail</Label>
                    <Input id="seat-email" name="email" type="email" required />
                  </div>
                  <Button type="submit" variant="outline">
                    Invite
                  </Button>
                </Form>
              ) : null}
            </div>
          ) : null}
        </div>
      )}
    </Card>
  );
}
