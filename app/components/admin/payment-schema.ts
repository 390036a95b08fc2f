import { z } from "zod";
import { CURRENCIES } from "~/lib/constants";
import { decimalsRule, parseMinorUnits } from "~/lib/money";
import { PAYMENT_METHODS } from "~/lib/payments/methods";

/**
 * A positive amount as typed, with at most two decimals (the most any currency has); the
 * currency's own decimals are checked where the currency is known (decision 0081).
 */
const amountText = (v: string) => (parseMinorUnits(v, "USD") ?? 0) > 0;

/** Recording a payment that arrived (Payments screen). */
export const RecordPaymentSchema = z
  .object({
    intent: z.literal("record"),
    invoiceNumber: z
      .string({ error: "Enter the invoice number (the M-Pesa account number)" })
      .trim()
      .min(1, { error: "Enter the invoice number (the M-Pesa account number)" })
      .max(40, { error: "Invoice number is too long" }),
    method: z.enum(PAYMENT_METHODS, { error: "Choose how it was paid" }),
    reference: z
      .string({ error: "Enter the payment reference (e.g. the M-Pesa code)" })
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9 /-]{2,39}$/, {
        error: "Enter the payment reference (e.g. the M-Pesa code)",
      }),
    amount: z
      .string({ error: "Enter the amount paid, e.g. 1500 or 1500.50" })
      .trim()
      .refine(amountText, { error: "Enter the amount paid, e.g. 1500 or 1500.50" }),
    currency: z.enum(CURRENCIES, { error: "Choose the currency" }),
    paidOn: z
      .string({ error: "Enter the payment date" })
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "Enter the payment date" })
      .refine((v) => !Number.isNaN(Date.parse(`${v}T12:00:00Z`)), {
        error: "Enter the payment date",
      }),
  })
  .superRefine((value, ctx) => {
    if (parseMinorUnits(value.amount, value.currency) === null) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: decimalsRule(value.currency) });
    }
  });

/** Matching a payment kept unmatched to an invoice (admins). */
export const MatchPaymentSchema = z.object({
  intent: z.literal("match"),
  paymentId: z.uuid(),
  invoiceNumber: z
    .string({ error: "Enter the invoice number" })
    .trim()
    .min(1, { error: "Enter the invoice number" }),
});

/** Recording money given back for an order (admins; issue 26). */
export const RefundSchema = z.object({
  intent: z.literal("refund"),
  orderId: z.uuid({ error: "Choose the order to refund" }),
  /** The payment the money goes back from (the form always names one; absent: the latest with money left). */
  paymentId: z.uuid({ error: "Choose the payment the money goes back from" }).optional(),
  method: z.enum(PAYMENT_METHODS, { error: "Choose how the money went back" }),
  reference: z
    .string({ error: "Enter the refund reference (e.g. the M-Pesa reversal code)" })
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9 /-]{2,39}$/, {
      error: "Enter the refund reference (e.g. the M-Pesa reversal code)",
    }),
  amount: z
    .string({ error: "Enter the amount refunded, e.g. 1500 or 1500.50" })
    .trim()
    .refine(amountText, { error: "Enter the amount refunded, e.g. 1500 or 1500.50" }),
  reason: z
    .string()
    .trim()
    .max(500, { error: "The reason can be at most 500 characters" })
    .optional(),
});

/**
 * Giving money back through the provider that took it (Paystack, PayPal; issue 31): no method or
 * reference to type, the provider's refund id becomes the reference once it confirms.
 */
export const OnlineRefundSchema = z.object({
  intent: z.literal("online-refund"),
  orderId: z.uuid({ error: "Choose the order to refund" }),
  paymentId: z.uuid({ error: "Choose the payment the money goes back to" }),
  amount: z
    .string({ error: "Enter the amount to refund, e.g. 1500 or 1500.50" })
    .trim()
    .refine(amountText, { error: "Enter the amount to refund, e.g. 1500 or 1500.50" }),
  reason: z
    .string()
    .trim()
    .max(500, { error: "The reason can be at most 500 characters" })
    .optional(),
});

/** Reinstating a closed order whose payments cover it (issue 26). */
export const ReinstateSchema = z.object({
  intent: z.literal("reinstate"),
  orderId: z.uuid({ error: "Choose the order to reinstate" }),
});

export const PaymentActionSchema = z.discriminatedUnion("intent", [
  RecordPaymentSchema,
  MatchPaymentSchema,
  RefundSchema,
  OnlineRefundSchema,
  ReinstateSchema,
]);
