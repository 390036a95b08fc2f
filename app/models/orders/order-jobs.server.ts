// The jobs orders enqueue (in the transaction of the change that caused them, decision 0025):
// the invoice, receipt and credit note e-mails (each sent once by its key), the expiry at the end of a hold,
// and "what the order unlocks" once it is paid.

import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import type { OrderLineKind } from "~/db/schema";
import { payments, receipts, refunds } from "~/db/schema";
import { env } from "~/lib/env.server";
import { formatDate } from "~/lib/format";
import { sendMailOnce } from "~/lib/mail.server";
import { formatMinor } from "~/lib/money";
import {
  renderCreditNotePdf,
  renderInvoicePdf,
  renderReceiptPdf,
} from "~/lib/pdf/order-documents.server";
import { defineJob } from "~/models/jobs.server";
import { ORDER_JOBS } from "./job-kinds";
import { receiptMail, refundMail } from "./order-mails";
import { expireOrder, type ReceiptMailPayload } from "./orders.server";
import {
  creditNoteDocument,
  getOrderForSystem,
  invoiceDocument,
  receiptDocument,
} from "./queries.server";

type OrderLine = { id: string; referenceId: string; quantity: number };
export type OrderPaidHandler = (
  order: { id: string; buyerId: string | null },
  line: OrderLine,
) => Promise<void>;

const unlockHandlers = new Map<OrderLineKind, OrderPaidHandler[]>();

/**
 * Registers what a paid order line unlocks (event registration, membership term). Handlers run in
 * the unlock job, which retries: they must be idempotent (keyed by the line id).
 */
export function onOrderPaid(kind: OrderLineKind, handler: OrderPaidHandler) {
  const list = unlockHandlers.get(kind) ?? [];
  if (!list.includes(handler)) list.push(handler);
  unlockHandlers.set(kind, list);
}

function orderUrl(orderId: string) {
  return `${env().BASE_URL}/orders/${orderId}`;
}

defineJob<{ orderId: string }>(ORDER_JOBS.invoiceMail, async ({ orderId }) => {
  const detail = await getOrderForSystem(orderId);
  if (!detail) return;
  const document = invoiceDocument(detail);
  const pdf = await renderInvoicePdf(document);
  const mpesa = detail.instructions.find((i) => i.method === "mpesa");
  const due = formatMinor(detail.dueMinor, detail.order.currency);
  const text = [
    `Dear ${detail.order.buyerName},`,
    "",
    `Thank you for your order. Invoice ${detail.invoice.number} for ${formatMinor(detail.order.totalMinor, detail.order.currency)} is attached.`,
    "",
    ...(mpesa
      ? [
          `Pay ${due} by M-Pesa: ${mpesa.lines.map((l) => `${l.label} ${l.value}`).join(", ")}.`,
          "Bank transfer details are on the invoice.",
        ]
      : []),
    `Please pay by ${formatDate(detail.order.expiresAt)}; unpaid orders expire then.`,
    "",
    `Your order: ${orderUrl(orderId)}`,
  ].join("\n");
  await sendMailOnce(`order:${orderId}:invoice`, {
    to: detail.order.billingEmail,
    subject: `Invoice ${detail.invoice.number} from Kongamano`,
    text,
    attachments: [
      { filename: `${detail.invoice.number}.pdf`, content: pdf, contentType: "application/pdf" },
    ],
  });
});

defineJob<ReceiptMailPayload>(ORDER_JOBS.receiptMail, async (payload) => {
  const { paymentId, orderStateBefore } = payload;
  const [row] = await getDb()
    .select({ orderId: payments.orderId, receiptId: receipts.id })
    .from(payments)
    .innerJoin(receipts, eq(receipts.paymentId, payments.id))
    .where(eq(payments.id, paymentId));
  if (!row?.orderId) return;
  const detail = await getOrderForSystem(row.orderId);
  const document = detail && receiptDocument(detail, row.receiptId);
  if (!detail || !document) return;
  const pdf = await renderReceiptPdf(document);
  const mail = receiptMail({
    buyerName: detail.order.buyerName,
    invoiceNumber: detail.invoice.number,
    receiptNumber: document.receiptNumber,
    currency: document.currency,
    amountMinor: document.amountMinor,
    method: document.method,
    reference: document.reference,
    // Jobs queued before issue 26 carry no state: the order as it is now.
    stateBefore: orderStateBefore ?? detail.order.state,
    dueMinor: payload.dueMinor ?? detail.dueMinor,
    creditMinor: payload.creditMinor ?? detail.creditMinor,
    orderUrl: orderUrl(detail.order.id),
  });
  await sendMailOnce(`payment:${paymentId}:receipt`, {
    to: detail.order.billingEmail,
    ...mail,
    attachments: [
      { filename: `${document.receiptNumber}.pdf`, content: pdf, contentType: "application/pdf" },
    ],
  });
});

defineJob<{ refundId: string }>(ORDER_JOBS.refundMail, async ({ refundId }) => {
  const [row] = await getDb()
    .select({ orderId: refunds.orderId })
    .from(refunds)
    .where(eq(refunds.id, refundId));
  if (!row) return;
  const detail = await getOrderForSystem(row.orderId);
  const document = detail && creditNoteDocument(detail, refundId);
  if (!detail || !document) return;
  const pdf = await renderCreditNotePdf(document);
  await sendMailOnce(`refund:${refundId}:credit-note`, {
    to: detail.order.billingEmail,
    ...refundMail({
      buyerName: detail.order.buyerName,
      invoiceNumber: detail.invoice.number,
      creditNoteNumber: document.creditNoteNumber,
      currency: document.currency,
      amountMinor: document.amountMinor,
      method: document.method,
      reference: document.reference,
      orderUrl: orderUrl(detail.order.id),
    }),
    attachments: [
      {
        filename: `${document.creditNoteNumber}.pdf`,
        content: pdf,
        contentType: "application/pdf",
      },
    ],
  });
});

defineJob<{ orderId: string }>(ORDER_JOBS.expire, async ({ orderId }) => {
  await expireOrder(orderId);
});

defineJob<{ orderId: string }>(ORDER_JOBS.unlock, async ({ orderId }) => {
  const detail = await getOrderForSystem(orderId);
  if (detail?.order.state !== "paid") return;
  for (const line of detail.lines) {
    for (const handler of unlockHandlers.get(line.kind) ?? []) {
      await handler({ id: detail.order.id, buyerId: detail.order.buyerId }, line);
    }
  }
});
