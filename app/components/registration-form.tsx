import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field, FieldErrors, fieldWiring } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { RegistrationSchema } from "./registration-schema";

export type RegistrationTicket = {
  value: string;
  label: string;
  amountLabel: string;
  description: string | null;
  paid: boolean;
  /** Seats left; null when unlimited. */
  remaining: number | null;
  maxPerRegistration: number;
  /** Live registrations one account may have for this ticket. */
  maxPerAccount: number;
  onSale: boolean;
  offSaleReason: string | null;
};

function availabilityLabel(ticket: RegistrationTicket) {
  if (!ticket.onSale) return ticket.offSaleReason ?? "Not on sale";
  if (ticket.remaining === null) return "Available";
  if (ticket.remaining === 0) return "Sold out: join the waitlist";
  return `${ticket.remaining} ${ticket.remaining === 1 ? "seat" : "seats"} left`;
}

function accountShareHint(maxPerAccount: number) {
  return maxPerAccount === 1
    ? "one registration per account for this ticket"
    : `up to ${maxPerAccount} registrations per account for this ticket`;
}

/** Ticket, seats, attendee and (for paid tickets) who the invoice is made out to. */
export function RegistrationForm({
  tickets,
  attendee,
  offer,
  preselect = null,
  lastResult,
}: {
  tickets: RegistrationTicket[];
  attendee: { name: string; email: string };
  offer: { id: string; ticket: string; quantity: number } | null;
  /** The ticket chosen first (a sold-out ticket whose waitlist the person came to join). */
  preselect?: string | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const firstOpen =
    tickets.find((t) => t.onSale && t.remaining !== 0) ?? tickets.find((t) => t.onSale);
  const [form, fields] = useForm({
    id: "registration-form",
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    defaultValue: {
      ticket: offer?.ticket ?? preselect ?? firstOpen?.value,
      quantity: String(offer?.quantity ?? 1),
      attendeeName: attendee.name,
      attendeeEmail: attendee.email,
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegistrationSchema }),
  });
  const selected = tickets.find((t) => t.value === fields.ticket.value) ?? firstOpen;
  // An offer's seats are held for this person, whatever the count says.
  const full = !offer && selected?.remaining === 0;
  const max = offer ? offer.quantity : (selected?.maxPerRegistration ?? 10);

  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-5">
      {form.errors?.length ? (
        <Alert variant="destructive" id={form.errorId}>
          <AlertDescription>{form.errors.join(" ")}</AlertDescription>
        </Alert>
      ) : null}
      {offer ? <input type="hidden" name="offerId" value={offer.id} /> : null}
      <fieldset className="grid gap-3" aria-describedby={fields.ticket.errorId}>
        <legend className="mb-1 text-sm font-medium">Ticket</legend>
        {tickets.map((ticket) => {
          const disabled = !ticket.onSale || (offer !== null && offer.ticket !== ticket.value);
          const id = `${fields.ticket.id}-${ticket.value}`;
          return (
            <label
              key={ticket.value}
              htmlFor={id}
              className={`flex items-start gap-3 rounded-lg border border-border p-3 has-[:checked]:border-primary has-[:checked]:ring-1 has-[:checked]:ring-primary ${disabled ? "opacity-70" : "cursor-pointer"}`}
            >
              <input
                {...getInputProps(fields.ticket, { type: "radio", value: ticket.value })}
                id={id}
                disabled={disabled}
                className="mt-1 size-4 accent-primary"
              />
              <span className="grid flex-1 gap-0.5">
                <span className="flex flex-wrap items-baseline justify-between gap-2">
                  <span className="font-medium">{ticket.label}</span>
                  <span className="font-semibold text-primary-700">{ticket.amountLabel}</span>
                </span>
                {ticket.description ? (
                  <span className="text-sm text-muted-foreground">{ticket.description}</span>
                ) : null}
                <span className="text-sm text-slate-700">{availabilityLabel(ticket)}</span>
              </span>
            </label>
          );
        })}
        <FieldErrors id={fields.ticket.errorId} errors={fields.ticket.errors} />
      </fieldset>
      <Field
        label="Seats"
        {...fieldWiring(fields.quantity)}
        hint={
          offer
            ? `Your offer holds ${offer.quantity}.`
            : `Up to ${max} per registration; ${accountShareHint(selected?.maxPerAccount ?? 1)}.`
        }
      >
        <Input
          {...getInputProps(fields.quantity, { type: "number" })}
          min={1}
          max={max}
          inputMode="numeric"
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Attendee name" {...fieldWiring(fields.attendeeName)}>
          <Input {...getInputProps(fields.attendeeName, { type: "text" })} autoComplete="name" />
        </Field>
        <Field label="Attendee e-mail" {...fieldWiring(fields.attendeeEmail)}>
          <Input {...getInputProps(fields.attendeeEmail, { type: "email" })} autoComplete="email" />
        </Field>
      </div>
      {selected?.paid ? (
        <fieldset className="grid gap-4 rounded-lg border border-border p-4">
          <legend className="px-1 text-sm font-medium">
            Invoice to an organisation (optional)
          </legend>
          <Field label="Organisation name" {...fieldWiring(fields.organisationName)}>
            <Input
              {...getInputProps(fields.organisationName, { type: "text" })}
              autoComplete="organization"
            />
          </Field>
          <Field label="KRA PIN or VAT number" {...fieldWiring(fields.taxId)}>
            <Input {...getInputProps(fields.taxId, { type: "text" })} />
          </Field>
        </fieldset>
      ) : null}
      {full ? (
        <Button type="submit" name="intent" value="waitlist" size="lg" disabled={submitting}>
          {submitting ? "Joining..." : "Join Waitlist"}
        </Button>
      ) : (
        <Button type="submit" name="intent" value="register" size="lg" disabled={submitting}>
          {submitting ? "Registering..." : selected?.paid ? "Register and Get Invoice" : "Register"}
        </Button>
      )}
      <p className="text-sm text-muted-foreground">
        {full
          ? "You will be e-mailed when a seat is free; it is then held for you for 24 hours."
          : selected?.paid
            ? "You receive an invoice by e-mail with M-Pesa and bank transfer instructions; your seats are held until it is due."
            : "Your ticket with its QR code and a calendar file arrive by e-mail."}
      </p>
    </Form>
  );
}
