// Payment methods as staff and buyers read them (shared by the server and the Payments screen),
// and which online provider takes which currency (issue 31, decision 0099): the one place the
// order page, the membership FAQ and the providers' own start functions ask.
import type { Currency } from "~/lib/money";

export const PAYMENT_METHODS = [
  "mpesa",
  "bank_transfer",
  "card",
  "paypal",
  "cash",
  "other",
] as const;
export type PaymentMethodName = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethodName, string> = {
  mpesa: "M-Pesa",
  bank_transfer: "Bank transfer",
  card: "Card",
  paypal: "PayPal",
  cash: "Cash",
  other: "Other",
};

/** Online providers that take a payment on their own page and can refund it through their API. */
export const ONLINE_PROVIDERS = ["paystack", "paypal"] as const;
export type OnlineProvider = (typeof ONLINE_PROVIDERS)[number];

/**
 * What each provider takes: Paystack cards for a Kenyan merchant settle in KES and USD; PayPal
 * takes USD, EUR and GBP (not KES). An order in another currency is never offered the provider.
 */
export const PROVIDER_CURRENCIES: Readonly<Record<OnlineProvider, readonly Currency[]>> = {
  paystack: ["KES", "USD"],
  paypal: ["USD", "EUR", "GBP"],
};

/** The payment method a provider's payments are recorded under. */
export const PROVIDER_METHOD: Readonly<Record<OnlineProvider, PaymentMethodName>> = {
  paystack: "card",
  paypal: "paypal",
};

/** The button that starts it, word for word. */
export const PROVIDER_ACTION_LABELS: Readonly<Record<OnlineProvider, string>> = {
  paystack: "Pay by card",
  paypal: "Pay with PayPal",
};

export function isOnlineProvider(value: unknown): value is OnlineProvider {
  return typeof value === "string" && (ONLINE_PROVIDERS as readonly string[]).includes(value);
}

/** Whether a provider takes a currency (configuration aside). */
export function providerTakes(provider: OnlineProvider, currency: string) {
  return (PROVIDER_CURRENCIES[provider] as readonly string[]).includes(currency);
}

/**
 * The online providers an order may be paid with: configured (the server says which, see
 * `configuredProviders()` in online.server.ts) and taking the order's currency, in a fixed order.
 */
export function providersFor(
  currency: string,
  configured: readonly OnlineProvider[],
): OnlineProvider[] {
  return ONLINE_PROVIDERS.filter((p) => configured.includes(p) && providerTakes(p, currency));
}

/**
 * The membership FAQ's answer about payment methods, in words that match what is on (spec §9's
 * "cards, PayPal, bank transfer" when both providers are configured).
 */
export function paymentMethodsAnswer(configured: readonly OnlineProvider[]) {
  const ways = [
    ...(configured.includes("paystack") ? ["all major credit and debit cards"] : []),
    ...(configured.includes("paypal") ? ["PayPal"] : []),
  ];
  if (ways.length === 0) {
    return "We accept bank transfer and M-Pesa. Card and PayPal payments are not available yet.";
  }
  return `We accept ${ways.join(", ")} and bank transfer.`;
}
