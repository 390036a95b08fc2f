// The seam every way of paying plugs into (decision 0026). Providers parse and verify; the orders
// model records: a callback becomes a `ProviderPayment`, which recordPayment stores once per
// (method, reference), so a repeated callback or a status query after it changes nothing.
import type { PaymentMethod } from "~/db/schema";

/** What a provider needs to know about an order to take its payment. */
export type PayableOrder = {
  id: string;
  invoiceNumber: string;
  /** The invoice's short payment reference, the M-Pesa "Account number" (issue 34). */
  paymentReference?: string;
  currency: string;
  dueMinor: number;
  billingEmail: string;
};

/** One way to pay, as the buyer reads it (invoice, order page, e-mail). */
export type PaymentInstruction = {
  method: PaymentMethod;
  title: string;
  lines: { label: string; value: string }[];
  note?: string;
};

export type PaymentStart =
  | { kind: "instructions"; instructions: PaymentInstruction[] }
  | { kind: "redirect"; url: string; providerReference: string };

/** A payment as the provider reports it (callback or status query). */
export type ProviderPayment = {
  method: PaymentMethod;
  /** The provider's own reference (M-Pesa receipt code, Stripe payment intent id…). */
  reference: string;
  /** The invoice number the payer quoted (M-Pesa account number) or the provider echoed. */
  account: string | null;
  amountMinor: number;
  currency: string;
  paidAt: Date;
};

export type ProviderStatus =
  | { status: "pending" | "failed" | "unknown" }
  | { status: "completed"; payment: ProviderPayment };

export interface PaymentProvider {
  readonly id: string;
  /** Instructions to show, or a page to send the buyer to (card checkout, STK prompt). */
  createPayment(order: PayableOrder): Promise<PaymentStart>;
  /**
   * Verifies and parses a provider's callback. Returns null when it carries no completed payment.
   * Idempotent by construction: the caller records by (method, reference), once.
   */
  handleCallback(request: Request): Promise<ProviderPayment | null>;
  /** Asks the provider about a payment whose callback never came. */
  queryStatus(reference: string): Promise<ProviderStatus>;
}
