// What the payer is told about an order: its invoice, money reaching it, money going back. One
// template per message, plain data in, subject, text and HTML out (mail-layout), so a test can
// read every variant.
import type { OrderState } from "~/db/schema";
import { formatDate } from "~/lib/format";
import { greeting, renderMail } from "~/lib/mail-layout.server";
import { formatMinor } from "~/lib/money";

export type InvoiceMailFacts = {
  /** The buyer's name when the billing address is the buyer's own (see greeting). */
  greetName: string | null;
  invoiceNumber: string;
  currency: string;
  totalMinor: number;
  dueMinor: number;
  /** The M-Pesa instructions in one line, when M-Pesa is offered. */
  mpesa: string | null;
  expiresAt: Date;
  orderUrl: string;
};

export function invoiceMail(facts: InvoiceMailFacts) {
  const money = (minor: number) => formatMinor(minor, facts.currency);
  return renderMail({
    subject: `Invoice ${facts.invoiceNumber} from Kongamano`,
    greeting: greeting(facts.greetName),
    blocks: [
      {
        kind: "paragraph",
        text: `Thank you for your order. Invoice ${facts.invoiceNumber} for ${money(facts.totalMinor)} is attached.`,
      },
      ...(facts.mpesa
        ? [
            {
              kind: "paragraph" as const,
              text: `Pay ${money(facts.dueMinor)} by M-Pesa: ${facts.mpesa}.\nBank transfer details are on the invoice.`,
            },
          ]
        : []),
      {
        kind: "paragraph",
        text: `Please pay by ${formatDate(facts.expiresAt)}; unpaid orders expire then.`,
      },
      { kind: "button", label: "View your order", url: facts.orderUrl },
    ],
  });
}

export type ReceiptMailFacts = {
  greetName: string | null;
  invoiceNumber: string;
  receiptNumber: string;
  currency: string;
  amountMinor: number;
  /** Shillings that arrived against an invoice in another currency, and the rate used. */
  received?: { kesMinor: number; rateLabel: string } | null;
  method: string;
  reference: string;
  /** The order's state when the payment reached it. */
  stateBefore: OrderState;
  /** After the payment. */
  dueMinor: number;
  creditMinor: number;
  orderUrl: string;
};

/** Why money on this order is credit, by the state the payment found it in. */
const CREDIT_BECAUSE: Partial<Record<OrderState, string>> = {
  expired: "the order had expired, so we will refund it or reinstate the order.",
  cancelled: "the order had been cancelled, so we will refund it or reinstate the order.",
  paid: "the invoice was already paid in full, so we will refund it.",
  refunded: "the order had been refunded and closed, so we will refund this payment too.",
};

export function receiptMail(facts: ReceiptMailFacts) {
  const money = (minor: number) => formatMinor(minor, facts.currency);
  const converted = facts.received
    ? ` (${formatMinor(facts.received.kesMinor, "KES")} at ${facts.received.rateLabel})`
    : "";
  const received = `We received ${money(facts.amountMinor)}${converted} for invoice ${facts.invoiceNumber}`;
  const late = CREDIT_BECAUSE[facts.stateBefore];
  const lines = late
    ? [
        `${received}; ${late}`,
        `${facts.method} reference ${facts.reference}. Receipt ${facts.receiptNumber} is attached.`,
        "Our team will contact you.",
      ]
    : [
        `${received} by ${facts.method} (reference ${facts.reference}). Receipt ${facts.receiptNumber} is attached.`,
        facts.creditMinor > 0
          ? `Credit on this order: ${money(facts.creditMinor)}. The invoice is paid in full; we will refund the rest.`
          : facts.dueMinor > 0
            ? `Balance still due: ${money(facts.dueMinor)}.`
            : "Your invoice is paid in full.",
      ];
  return renderMail({
    subject: `Receipt ${facts.receiptNumber} for invoice ${facts.invoiceNumber}`,
    greeting: greeting(facts.greetName),
    blocks: [
      ...lines.map((text) => ({ kind: "paragraph" as const, text })),
      { kind: "button", label: "View your order", url: facts.orderUrl },
    ],
  });
}

export type RefundMailFacts = {
  greetName: string | null;
  invoiceNumber: string;
  creditNoteNumber: string;
  currency: string;
  amountMinor: number;
  method: string;
  reference: string;
  orderUrl: string;
};

export function refundMail(facts: RefundMailFacts) {
  return renderMail({
    subject: `Refund recorded: credit note ${facts.creditNoteNumber} for invoice ${facts.invoiceNumber}`,
    greeting: greeting(facts.greetName),
    blocks: [
      {
        kind: "paragraph",
        text: `We recorded a refund of ${formatMinor(facts.amountMinor, facts.currency)} for invoice ${facts.invoiceNumber}, by ${facts.method} (reference ${facts.reference}).\nCredit note ${facts.creditNoteNumber} is attached.`,
      },
      { kind: "button", label: "View your order", url: facts.orderUrl },
    ],
  });
}

export type HoldReminderMailFacts = {
  greetName: string | null;
  invoiceNumber: string;
  currency: string;
  dueMinor: number;
  expiresAt: Date;
  orderUrl: string;
};

/** A day before an unpaid order's hold ends: what is due, by when, and what happens after. */
export function holdReminderMail(facts: HoldReminderMailFacts) {
  return renderMail({
    subject: `Reminder: invoice ${facts.invoiceNumber} expires ${formatDate(facts.expiresAt)}`,
    greeting: greeting(facts.greetName),
    blocks: [
      {
        kind: "paragraph",
        text: `Invoice ${facts.invoiceNumber} still has ${formatMinor(facts.dueMinor, facts.currency)} to pay. Please pay by ${formatDate(facts.expiresAt)}: after that the order expires and what it holds (seats, a membership) is released.`,
      },
      { kind: "button", label: "Pay your invoice", url: facts.orderUrl },
      {
        kind: "note",
        text: "Already paid? Then nothing is needed: we record payments as they arrive, and your receipt follows.",
      },
    ],
  });
}
