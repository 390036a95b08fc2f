// Payment methods as staff and buyers read them (shared by the server and the Payments screen).
export const PAYMENT_METHODS = ["mpesa", "bank_transfer", "card", "cash", "other"] as const;
export type PaymentMethodName = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethodName, string> = {
  mpesa: "M-Pesa",
  bank_transfer: "Bank transfer",
  card: "Card",
  cash: "Cash",
  other: "Other",
};
