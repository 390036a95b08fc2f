/** The job kinds the orders model enqueues (their handlers: ./order-jobs.server.ts). */
export const ORDER_JOBS = {
  invoiceMail: "order.invoice-mail",
  receiptMail: "payment.receipt-mail",
  refundMail: "refund.credit-note-mail",
  expire: "order.expire",
  holdReminder: "order.hold-reminder",
  unlock: "order.unlock",
} as const;
