/** The job kinds the orders model enqueues (their handlers: ./order-jobs.server.ts). */
export const ORDER_JOBS = {
  invoiceMail: "order.invoice-mail",
  receiptMail: "payment.receipt-mail",
  refundMail: "refund.credit-note-mail",
  expire: "order.expire",
  holdReminder: "order.hold-reminder",
  unlock: "order.unlock",
  /** Asks Daraja about an STK push (after a callback, and with backoff while none came). */
  mpesaPushQuery: "mpesa.push-query",
  /** Asks the Transaction Status API about a Paybill confirmation. */
  mpesaStatusQuery: "mpesa.paybill-status",
  /** Registers the Paybill's confirmation and validation URLs with Daraja. */
  mpesaRegisterUrls: "mpesa.register-urls",
  /** Asks Paystack or PayPal again about a refund still on its way (issue 31). */
  providerRefundQuery: "provider-refund.query",
  /** Asks Paystack to verify a card payment whose webhook or return arrived (issue 31). */
  paystackVerify: "paystack.verify",
} as const;
