import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { FieldErrors } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { formatMinor } from "~/lib/money";
import { useHydrated } from "~/lib/use-hydrated";
import { MAX_DELEGATION_SEATS, quantityField, seatField } from "./registration-schema";

/** A ticket as the delegation form offers it (prices in minor units, decision 0081). */
export type DelegationTicket = {
  value: string;
  label: string;
  amountLabel: string;
  description: string | null;
  unitAmountMinor: number;
  currency: string | null;
  /** Seats left; null when unlimited. */
  remaining: number | null;
  /** Seats of this ticket one order may take now (its max per order and what is left). */
  maxPerOrder: number;
  /** People one ticket admits (a group ticket: more than 1). */
  admits: number;
  onSale: boolean;
  offSaleReason: string | null;
};

export type DelegationSeat = { ticket: string; name: string; email: string };

/** What the form shows again after a round trip: the choice, what was typed, the errors. */
export type DelegationState = {
  quantities: Record<string, number>;
  seats: DelegationSeat[];
  organisationName?: string;
  taxId?: string;
  /** Field errors by field name (`seats[1].email`, `organisationName`, …). */
  errors?: Record<string, string[]>;
  formErrors?: string[];
};

/** The seats the quantities ask for, ticket by ticket in the order shown. */
export function seatRows(tickets: DelegationTicket[], quantities: Record<string, number>) {
  return tickets.flatMap((ticket) =>
    Array.from({ length: Math.max(0, quantities[ticket.value] ?? 0) }, (_, n) => ({
      ticket,
      key: `${ticket.value}#${n}`,
    })),
  );
}

/**
 * The order's total from the tickets' prices: the same sum the server computes (quoteBooking),
 * shown before submitting; null when the chosen tickets are priced in more than one currency.
 */
export function delegationTotal(tickets: DelegationTicket[], quantities: Record<string, number>) {
  let minor = 0;
  const currencies = new Set<string>();
  const lines = [];
  for (const ticket of tickets) {
    const quantity = quantities[ticket.value] ?? 0;
    if (quantity <= 0) continue;
    const lineMinor = quantity * ticket.unitAmountMinor;
    if (ticket.unitAmountMinor > 0 && ticket.currency) currencies.add(ticket.currency);
    minor += lineMinor;
    lines.push({
      label: ticket.label,
      quantity,
      amount:
        ticket.unitAmountMinor > 0 && ticket.currency
          ? formatMinor(lineMinor, ticket.currency)
          : "Free",
    });
  }
  const [currency] = [...currencies];
  const label =
    currencies.size > 1 ? null : minor === 0 || !currency ? "Free" : formatMinor(minor, currency);
  return { lines, label, paid: minor > 0 };
}

function availabilityLabel(ticket: DelegationTicket) {
  if (!ticket.onSale) return ticket.offSaleReason ?? "Not on sale";
  if (ticket.remaining === null) return "Available";
  if (ticket.remaining === 0) return "Sold out";
  return `${ticket.remaining} ${ticket.remaining === 1 ? "seat" : "seats"} left`;
}

/**
 * A delegation order (issue 30): a quantity per ticket, then a name and e-mail per seat (the first
 * seat is the buyer's until changed), and the total before submitting. Without JavaScript the
 * "Update seats" button redraws the seat rows on the server; with it they follow the quantities.
 * The state is read once: give the form a new `key` for each answer from the server.
 */
export function DelegationForm({
  tickets,
  buyer,
  state,
  waitlistHref,
}: {
  tickets: DelegationTicket[];
  buyer: { name: string; email: string };
  state: DelegationState;
  /** Where a sold-out ticket's waitlist is joined. */
  waitlistHref: (ticket: string) => string;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const hydrated = useHydrated();
  const [quantities, setQuantities] = useState(state.quantities);
  // What was typed, per seat of a ticket: changing a quantity keeps the other seats' entries.
  const [values, setValues] = useState(() => {
    const byKey: Record<string, { name: string; email: string }> = {};
    const nth: Record<string, number> = {};
    for (const seat of state.seats) {
      const n = nth[seat.ticket] ?? 0;
      nth[seat.ticket] = n + 1;
      byKey[`${seat.ticket}#${n}`] = { name: seat.name, email: seat.email };
    }
    return byKey;
  });
  const rows = seatRows(tickets, quantities);
  const order = delegationTotal(tickets, quantities);
  const seatCount = rows.length;
  const seatValue = (key: string, index: number) =>
    values[key] ?? (index === 0 ? { ...buyer } : { name: "", email: "" });
  const setValue = (key: string, index: number, field: "name" | "email", value: string) =>
    setValues((current) => ({ ...current, [key]: { ...seatValue(key, index), [field]: value } }));
  const errors = state.errors ?? {};

  return (
    <Form method="post" id="delegation-form" className="grid gap-6">
      {state.formErrors?.length ? (
        <Alert variant="destructive" id="delegation-form-errors">
          <AlertDescription>{state.formErrors.join(" ")}</AlertDescription>
        </Alert>
      ) : null}
      <fieldset className="grid gap-3">
        <legend className="mb-1 text-lg font-semibold">Tickets</legend>
        <p className="text-sm text-muted-foreground">
          Choose how many seats of each ticket; up to {MAX_DELEGATION_SEATS} seats in one order.
        </p>
        {tickets.map((ticket) => {
          const id = `qty-${ticket.value}`;
          const soldOut = ticket.onSale && ticket.remaining === 0;
          const disabled = !ticket.onSale || soldOut;
          return (
            <div
              key={ticket.value}
              data-ticket-row
              className="grid gap-2 rounded-lg border border-border p-3"
            >
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <span className="font-medium">{ticket.label}</span>
                <span className="font-semibold text-primary-700">{ticket.amountLabel}</span>
              </div>
              {ticket.description ? (
                <p className="text-sm text-muted-foreground">{ticket.description}</p>
              ) : null}
              {ticket.admits > 1 ? (
                <p className="text-sm">One ticket admits {ticket.admits} people (one QR code).</p>
              ) : null}
              <div className="flex flex-wrap items-center justify-between gap-3">
                <span className="text-sm text-slate-700">{availabilityLabel(ticket)}</span>
                {soldOut ? (
                  <Link
                    to={waitlistHref(ticket.value)}
                    className="text-sm font-medium text-primary-700 underline underline-offset-2"
                  >
                    Join the waitlist for {ticket.label}
                  </Link>
                ) : (
                  <div className="flex items-center gap-2">
                    <Label htmlFor={id}>
                      Seats<span className="sr-only"> of {ticket.label}</span>
                    </Label>
                    <Input
                      id={id}
                      name={quantityField(ticket.value)}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={ticket.maxPerOrder}
                      disabled={disabled}
                      value={String(quantities[ticket.value] ?? 0)}
                      onChange={(e) => {
                        const n = Number.parseInt(e.currentTarget.value, 10);
                        const clamped = Number.isFinite(n)
                          ? Math.max(0, Math.min(n, ticket.maxPerOrder))
                          : 0;
                        setQuantities((q) => ({ ...q, [ticket.value]: clamped }));
                      }}
                      className="h-10 w-20"
                      aria-describedby={`${id}-hint`}
                    />
                  </div>
                )}
              </div>
              {disabled ? null : (
                <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                  Up to {ticket.maxPerOrder} in one order.
                </p>
              )}
            </div>
          );
        })}
        {hydrated ? null : (
          <Button
            type="submit"
            name="intent"
            value="seats"
            variant="outline"
            formNoValidate
            className="w-fit"
          >
            Update seats
          </Button>
        )}
      </fieldset>

      <section aria-labelledby="attendees-heading" className="grid gap-3">
        <h2 id="attendees-heading" className="text-lg font-semibold">
          Attendees
        </h2>
        <p className="text-sm text-muted-foreground">
          Each attendee gets their own ticket with its QR code by e-mail; you get the order
          {order.paid ? " and its invoice" : ""}.
        </p>
        {rows.length === 0 ? <p className="text-sm">Choose at least one seat above.</p> : null}
        {rows.map(({ ticket, key }, index) => {
          const value = seatValue(key, index);
          const nameId = `seat-${index}-name`;
          const emailId = `seat-${index}-email`;
          const nameErrors = errors[seatField(index, "name")];
          const emailErrors = errors[seatField(index, "email")];
          return (
            <fieldset key={key} className="grid gap-3 rounded-lg border border-border p-3">
              <legend className="px-1 text-sm font-medium">
                Seat {index + 1}: {ticket.label}
              </legend>
              <input type="hidden" name={seatField(index, "ticket")} value={ticket.value} />
              <div className="grid gap-3 sm:grid-cols-2">
                <div className="grid gap-2">
                  <Label htmlFor={nameId}>Name</Label>
                  <Input
                    id={nameId}
                    name={seatField(index, "name")}
                    value={value.name}
                    onChange={(e) => setValue(key, index, "name", e.currentTarget.value)}
                    autoComplete={index === 0 ? "name" : "off"}
                    required
                    aria-invalid={nameErrors ? true : undefined}
                    aria-describedby={nameErrors ? `${nameId}-error` : undefined}
                  />
                  <FieldErrors id={`${nameId}-error`} errors={nameErrors} />
                </div>
                <div className="grid gap-2">
                  <Label htmlFor={emailId}>E-mail</Label>
                  <Input
                    id={emailId}
                    name={seatField(index, "email")}
                    type="email"
                    value={value.email}
                    onChange={(e) => setValue(key, index, "email", e.currentTarget.value)}
                    autoComplete={index === 0 ? "email" : "off"}
                    required
                    aria-invalid={emailErrors ? true : undefined}
                    aria-describedby={emailErrors ? `${emailId}-error` : undefined}
                  />
                  <FieldErrors id={`${emailId}-error`} errors={emailErrors} />
                </div>
              </div>
            </fieldset>
          );
        })}
      </section>

      {order.paid ? (
        <fieldset className="grid gap-4 rounded-lg border border-border p-4">
          <legend className="px-1 text-sm font-medium">
            Invoice to an organisation (optional)
          </legend>
          <div className="grid gap-2">
            <Label htmlFor="delegation-organisation">Organisation name</Label>
            <Input
              id="delegation-organisation"
              name="organisationName"
              defaultValue={state.organisationName}
              autoComplete="organization"
            />
            <FieldErrors errors={errors.organisationName} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="delegation-tax-id">KRA PIN or VAT number</Label>
            <Input id="delegation-tax-id" name="taxId" defaultValue={state.taxId} />
            <FieldErrors errors={errors.taxId} />
          </div>
        </fieldset>
      ) : null}

      <section
        className="grid gap-2 rounded-lg bg-muted/50 p-4"
        aria-labelledby="order-total-heading"
      >
        <h2 id="order-total-heading" className="text-base font-semibold">
          Your order
        </h2>
        {order.lines.length > 0 ? (
          <ul className="grid gap-1 text-sm">
            {order.lines.map((line) => (
              <li key={line.label} className="flex justify-between gap-2">
                <span>
                  {line.label} × {line.quantity}
                </span>
                <span>{line.amount}</span>
              </li>
            ))}
          </ul>
        ) : null}
        <p className="flex justify-between gap-2 font-semibold" role="status" aria-live="polite">
          <span>
            Total ({seatCount} {seatCount === 1 ? "seat" : "seats"})
          </span>
          <span>
            {order.label ?? "Tickets priced in different currencies need separate orders"}
          </span>
        </p>
      </section>

      <Button
        type="submit"
        name="intent"
        value="book"
        size="lg"
        disabled={submitting || seatCount === 0}
      >
        {submitting ? "Registering..." : order.paid ? "Register and Get Invoice" : "Register"}
      </Button>
      <p className="text-sm text-muted-foreground">
        {order.paid
          ? "You receive the invoice by e-mail with M-Pesa and bank transfer instructions; the seats are held until it is due, and each attendee's ticket follows once it is paid."
          : "Each attendee's ticket with its QR code and a calendar file arrives by e-mail."}
      </p>
    </Form>
  );
}
