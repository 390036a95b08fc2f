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

// ---------------------------------------------------------------------------------------------
// Refunds back to the source (issue 31, decision 0100). The contract every online provider
// (Paystack, PayPal) implements; M-Pesa and offline refunds stay recorded by staff with their
// reference (recordRefund).
//
//  - `refund` asks the provider to give back `amountMinor` (the payment's currency's minor units,
//    never a float) of the payment the provider knows as `paymentReference` (Paystack: the
//    transaction reference; PayPal: the capture id — what payments.reference holds). `requestId`
//    is our provider_refunds row id: send it where the provider takes an idempotency key or a
//    note (PayPal-Request-Id, Paystack merchant_note) so a retried call cannot refund twice.
//  - It answers what the provider said, never more: `completed` only when the provider says the
//    money went back (Paystack `processed`, PayPal `COMPLETED`), `pending` while it is on its way
//    (Paystack `pending`/`processing`, PayPal `PENDING`), `failed` when it refused or reversed it.
//  - It throws `ProviderUnavailableError` when we cannot know whether the provider took the
//    refund (network, 5xx): the request stays `requested` (its amount stays reserved) and is
//    asked about again; it returns `failed` only when the provider answered no (4xx).
//  - `queryRefund` asks about a refund the provider answered `pending` for; webhooks about
//    refunds are hints that only trigger it.
//
// The orders model (app/models/orders/provider-refunds.server.ts) reserves the amount under the
// payment's row lock before calling `refund`, and records the refund (credit note, mail, payment
// and order states) only on `completed`; see `refundThroughProvider`.
// ---------------------------------------------------------------------------------------------
export type ProviderRefundRequest = {
  paymentReference: string;
  amountMinor: number;
  currency: string;
  /** Our provider_refunds row id (idempotency key / merchant note). */
  requestId: string;
  note?: string;
};

export type ProviderRefundResult =
  | { status: "completed"; providerRefundId: string; amountMinor: number; currency: string }
  | { status: "pending"; providerRefundId: string }
  | { status: "failed"; providerRefundId: string | null; reason: string };

export interface RefundingProvider {
  readonly id: "paystack" | "paypal";
  refund(request: ProviderRefundRequest): Promise<ProviderRefundResult>;
  queryRefund(providerRefundId: string): Promise<ProviderRefundResult>;
}

/** The provider could not be reached or answered 5xx: whether it acted is not known. */
export class ProviderUnavailableError extends Error {
  override name = "ProviderUnavailableError";
}
