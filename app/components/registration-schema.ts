import { z } from "zod";

/** The ticket value of an event without fees (its one free ticket). */
export const FREE_TICKET = "free";

/** The registration form (event page → 'Register Now' → /events/:slug/register). */
export const RegistrationSchema = z.object({
  intent: z.enum(["register", "waitlist"]).default("register"),
  ticket: z.string({ error: "Choose a ticket" }).trim().min(1, { error: "Choose a ticket" }),
  quantity: z
    .number({ error: "Enter how many seats you need" })
    .int({ error: "Enter a whole number" })
    .min(1, { error: "At least 1 seat" })
    // The ticket's own max_per_order is checked by the server (and the field's max attribute).
    .max(1000, { error: "At most 1000 seats per registration" }),
  attendeeName: z
    .string({ error: "Enter the attendee's name" })
    .trim()
    .min(2, { error: "Name must be at least 2 characters" })
    .max(100, { error: "Name must be at most 100 characters" }),
  attendeeEmail: z
    .string({ error: "Please enter a valid email address" })
    .trim()
    .pipe(z.email({ error: "Please enter a valid email address" })),
  organisationName: z
    .string()
    .trim()
    .max(200, { error: "Organisation name must be at most 200 characters" })
    .optional(),
  taxId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{3,24}$/, {
      error: "Enter a KRA PIN (e.g. P051234567X) or VAT number",
    })
    .optional(),
  offerId: z.uuid().optional(),
});

export type RegistrationValues = z.infer<typeof RegistrationSchema>;

/** Seats one delegation order may have in all (the server's MAX_SEATS_PER_BOOKING). */
export const MAX_DELEGATION_SEATS = 20;

/** One seat of a delegation order: its ticket and the attendee it is for (decision 0093). */
export const SeatSchema = z.object({
  ticket: z.string({ error: "Choose a ticket" }).trim().min(1, { error: "Choose a ticket" }),
  name: RegistrationSchema.shape.attendeeName,
  email: RegistrationSchema.shape.attendeeEmail,
});

/** The invoice fields of a delegation order (the same rules as a single registration's). */
export const DelegationInvoiceSchema = RegistrationSchema.pick({
  organisationName: true,
  taxId: true,
});

/** The quantity field of a ticket on the delegation form. */
export const quantityField = (ticket: string) => `qty.${ticket}`;
/** A seat's field on the delegation form: `seats[2].email`. */
export const seatField = (index: number, key: "ticket" | "name" | "email") =>
  `seats[${index}].${key}`;
