// What the payer is told about an order: its invoice, money reaching it, money going back. One
// template per message, plain data in, subject and text out, so a test can read every variant.
import type { OrderState } from "~/db/schema";
import { formatDate } from "~/lib/format";
import { formatMinor } from "~/lib/money";

/**
 * The opening line. A name only for a mail to the account holder's own address: a name someone
 * typed is never mailed to an address they typed (a billing contact, an attendee).
 */
export function greeting(name: string | null) {
  return name ? `Dear ${name},` : "Hello,";
}

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
  return {
    subject: `Invoice ${facts.invoiceNumber} from Kongamano`,
    text: [
      greeting(facts.greetName),
      "",
      `Thank you for your order. Invoice ${facts.invoiceNumber} for ${money(facts.totalMinor)} is attached.`,
      "",
      ...(facts.mpesa
        ? [
            `Pay ${money(facts.dueMinor)} by M-Pesa: ${facts.mpesa}.`,
            "Bank transfer details are on the invoice.",
          ]
        : []),
      `Please pay by ${formatDate(facts.expiresAt)}; unpaid orders expire then.`,
      "",
      `Your order: ${facts.orderUrl}`,
    ].join("\n"),
  };
}

export type ReceiptMailFacts = {
  greetName: string | null;
  invoiceNumber: string;
  receiptNumber: string;
  currency: string;
  amountMinor: number;
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
  const received = `We received ${money(facts.amountMinor)} for invoice ${facts.invoiceNumber}`;
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
  return {
    subject: `Receipt ${facts.receiptNumber} for invoice ${facts.invoiceNumber}`,
    text: [greeting(facts.greetName), "", ...lines, "", `Your order: ${facts.orderUrl}`].join("\n"),
  };
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
  return {
    subject: `Refund recorded: credit note ${facts.creditNoteNumber} for invoice ${facts.invoiceNumber}`,
    text: [
      greeting(facts.greetName),
      "",
      `We recorded a refund of ${formatMinor(facts.amountMinor, facts.currency)} for invoice ${facts.invoiceNumber}, by ${facts.method} (reference ${facts.reference}).`,
      `Credit note ${facts.creditNoteNumber} is attached.`,
      "",
      `Your order: ${facts.orderUrl}`,
    ].join("\n"),
  };
}
