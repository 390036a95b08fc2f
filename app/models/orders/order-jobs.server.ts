// The jobs orders enqueue (in the transaction of the change that caused them, decision 0025):
// the invoice, receipt and credit note e-mails (each sent once by its key), the expiry at the end of a hold,
// and "what the order unlocks" once it is paid. Registered by the wiring module (wiring.server.ts).

import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { type OrderLineKind, payments, receipts, refunds, user } from "~/db/schema";
import { env } from "~/lib/env.server";
import { sendMailOnce } from "~/lib/mail.server";
import {
  renderCreditNotePdf,
  renderInvoicePdf,
  renderReceiptPdf,
} from "~/lib/pdf/order-documents.server";
import { defineJob } from "~/models/jobs.server";
import { ORDER_JOBS } from "./job-kinds";
import { holdReminderMail, invoiceMail, receiptMail, refundMail } from "./order-mails";
import { expireOrder, type ReceiptMailPayload } from "./orders.server";
import {
  creditNoteDocument,
  getOrderForSystem,
  invoiceDocument,
  receiptDocument,
} from "./queries.server";
import { reactionsFor } from "./reactions.server";

function orderUrl(orderId: string) {
  return `${env().BASE_URL}/orders/${orderId}`;
}

/**
 * The name to greet the billing address with: the buyer's, only when the mail goes to the
 * buyer's own account address; a billing contact someone typed is greeted without a name.
 */
async function greetedName(order: {
  buyerId: string | null;
  buyerName: string;
  billingEmail: string;
}) {
  if (!order.buyerId) return null;
  const [account] = await getDb()
    .select({ email: user.email })
    .from(user)
    .where(eq(user.id, order.buyerId));
  const own = account?.email.trim().toLowerCase() === order.billingEmail.trim().toLowerCase();
  return own ? order.buyerName : null;
}

/** Whom the order's mails greet and where their button goes (a line kind may say; see payer). */
async function addressOf(detail: {
  order: { id: string; buyerId: string | null; buyerName: string; billingEmail: string };
  lines: readonly { kind: OrderLineKind }[];
}) {
  for (const kind of new Set(detail.lines.map((line) => line.kind))) {
    const payer = await reactionsFor(kind).payer?.(detail.order);
    if (payer) return { greetName: payer.greetName, url: payer.url ?? orderUrl(detail.order.id) };
  }
  return { greetName: await greetedName(detail.order), url: orderUrl(detail.order.id) };
}

async function sendInvoiceMail({ orderId }: { orderId: string }) {
  const detail = await getOrderForSystem(orderId);
  if (!detail) return;
  const document = invoiceDocument(detail);
  const pdf = await renderInvoicePdf(document);
  const mpesa = detail.instructions.find((i) => i.method === "mpesa");
  const payer = await addressOf(detail);
  await sendMailOnce(`order:${orderId}:invoice`, {
    to: detail.order.billingEmail,
    ...invoiceMail({
      greetName: payer.greetName,
      invoiceNumber: detail.invoice.number,
      currency: detail.order.currency,
      totalMinor: detail.order.totalMinor,
      dueMinor: detail.dueMinor,
      mpesa: mpesa?.lines.map((l) => `${l.label} ${l.value}`).join(", ") ?? null,
      expiresAt: detail.order.expiresAt,
      orderUrl: payer.url,
    }),
    attachments: [
      { filename: `${detail.invoice.number}.pdf`, content: pdf, contentType: "application/pdf" },
    ],
  });
}

async function sendReceiptMail(payload: ReceiptMailPayload) {
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
  const payer = await addressOf(detail);
  const mail = receiptMail({
    greetName: payer.greetName,
    invoiceNumber: detail.invoice.number,
    receiptNumber: document.receiptNumber,
    currency: document.currency,
    amountMinor: document.amountMinor,
    received: document.received,
    method: document.method,
    reference: document.reference,
    // Jobs queued before issue 26 carry no state: the order as it is now.
    stateBefore: orderStateBefore ?? detail.order.state,
    dueMinor: payload.dueMinor ?? detail.dueMinor,
    creditMinor: payload.creditMinor ?? detail.creditMinor,
    orderUrl: payer.url,
  });
  await sendMailOnce(`payment:${paymentId}:receipt`, {
    to: detail.order.billingEmail,
    ...mail,
    attachments: [
      { filename: `${document.receiptNumber}.pdf`, content: pdf, contentType: "application/pdf" },
    ],
  });
}

async function sendCreditNoteMail({ refundId }: { refundId: string }) {
  const [row] = await getDb()
    .select({ orderId: refunds.orderId })
    .from(refunds)
    .where(eq(refunds.id, refundId));
  if (!row) return;
  const detail = await getOrderForSystem(row.orderId);
  const document = detail && creditNoteDocument(detail, refundId);
  if (!detail || !document) return;
  const pdf = await renderCreditNotePdf(document);
  const payer = await addressOf(detail);
  await sendMailOnce(`refund:${refundId}:credit-note`, {
    to: detail.order.billingEmail,
    ...refundMail({
      greetName: payer.greetName,
      invoiceNumber: detail.invoice.number,
      creditNoteNumber: document.creditNoteNumber,
      currency: document.currency,
      amountMinor: document.amountMinor,
      method: document.method,
      reference: document.reference,
      orderUrl: payer.url,
    }),
    attachments: [
      {
        filename: `${document.creditNoteNumber}.pdf`,
        content: pdf,
        contentType: "application/pdf",
      },
    ],
  });
}

/** The day-before reminder of an unpaid order's hold; nothing once it is paid, closed or covered. */
async function sendHoldReminder({ orderId }: { orderId: string }) {
  const detail = await getOrderForSystem(orderId);
  if (detail?.order.state !== "awaiting_payment" || detail.dueMinor <= 0) return;
  const payer = await addressOf(detail);
  await sendMailOnce(`order:${orderId}:hold-reminder`, {
    to: detail.order.billingEmail,
    ...holdReminderMail({
      greetName: payer.greetName,
      invoiceNumber: detail.invoice.number,
      currency: detail.order.currency,
      dueMinor: detail.dueMinor,
      expiresAt: detail.order.expiresAt,
      orderUrl: payer.url,
    }),
  });
}

/** Runs what each line of a paid order unlocks; a line kind nobody defined fails the job. */
async function unlockPaidOrder({ orderId }: { orderId: string }) {
  const detail = await getOrderForSystem(orderId);
  if (detail?.order.state !== "paid") return;
  for (const line of detail.lines) {
    await reactionsFor(line.kind).paid(
      { id: detail.order.id, buyerId: detail.order.buyerId },
      line,
    );
  }
}

export function registerOrderJobs() {
  defineJob(ORDER_JOBS.invoiceMail, sendInvoiceMail);
  defineJob(ORDER_JOBS.receiptMail, sendReceiptMail);
  defineJob(ORDER_JOBS.refundMail, sendCreditNoteMail);
  defineJob<{ orderId: string }>(ORDER_JOBS.expire, ({ orderId }) =>
    expireOrder(orderId).then(() => {}),
  );
  defineJob(ORDER_JOBS.unlock, unlockPaidOrder);
  defineJob(ORDER_JOBS.holdReminder, sendHoldReminder);
}
