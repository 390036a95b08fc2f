// The operator's KES rates (KES_RATES), read once from the validated environment, and the exact
// conversions that use them (decision 0083).

import { env } from "./env.server";
import type { Currency } from "./money";

export { formatKesRate, fromKesMinor, parseKesRates, toKesMinor } from "./exchange-rates";

/** KES per one unit of `currency` as written ("129.50"); null when none is set, and for KES itself. */
export function kesRate(currency: Currency): string | null {
  if (currency === "KES") return null;
  return env().KES_RATES.get(currency) ?? null;
}
