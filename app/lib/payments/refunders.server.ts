// Which provider refunds a payment it took (issue 31, decision 0100): one entry per online
// provider, each returning null when that provider is not configured. A payment with
// payments.provider set is refunded through this; every other one is refunded by staff.
import type { OnlineProvider } from "./methods";
import { paypalRefunder } from "./paypal.server";
import { paystackRefunder } from "./paystack.server";
import type { RefundingProvider } from "./provider";

const REFUNDERS: Partial<Record<OnlineProvider, () => RefundingProvider | null>> = {
  paystack: paystackRefunder,
  paypal: () => paypalRefunder(),
};

export function refunderFor(provider: OnlineProvider): RefundingProvider | null {
  return REFUNDERS[provider]?.() ?? null;
}
