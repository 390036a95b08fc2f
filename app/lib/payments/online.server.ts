// Which online providers this installation has configured (issue 31, decision 0099). Each is on
// only with its credentials: Paystack with PAYSTACK_SECRET_KEY, PayPal with its client id, secret
// and webhook id (env.server.ts insists on all three or none).
import { env } from "~/lib/env.server";
import { type OnlineProvider, paymentMethodsAnswer, providersFor } from "./methods";

export function configuredProviders(): OnlineProvider[] {
  const e = env();
  return [
    ...(e.PAYSTACK_SECRET_KEY ? (["paystack"] as const) : []),
    ...(e.PAYPAL_CLIENT_ID && e.PAYPAL_CLIENT_SECRET && e.PAYPAL_WEBHOOK_ID
      ? (["paypal"] as const)
      : []),
  ];
}

/** The online providers that may pay an order in this currency here and now. */
export function onlineProvidersFor(currency: string): OnlineProvider[] {
  return providersFor(currency, configuredProviders());
}

/** The membership FAQ's payment answer for this installation. */
export function membershipPaymentAnswer() {
  return paymentMethodsAnswer(configuredProviders());
}
