// Shillings for foreign-currency orders (decision 0083). The operator states how many KES one unit
// of a currency is worth (KES_RATES, e.g. "USD=129.50,EUR=141"); amounts are converted exactly with
// integer arithmetic on the decimal text, never through a float. Pure: the environment's parser
// (env.server.ts) and the server helpers (exchange-rates.server.ts) both build on it.
import { CURRENCIES } from "./constants";
import { type Currency, currencyExponent, isCurrency } from "./money";

/** At most this many decimals in a rate ("129.5025"); more is a typo rather than a real quote. */
const MAX_RATE_DECIMALS = 6;
const ENTRY = /^([A-Za-z]{3})\s*=\s*(\d{1,9}(?:\.\d+)?)$/;
const EXAMPLE = "for example KES_RATES=USD=129.50,EUR=141";

/**
 * "USD=129.50, EUR=141" → Map { USD → "129.50", EUR → "141" } (KES per one unit; the decimal text is
 * kept exactly as written). Throws an Error whose message says which entry is wrong and why.
 */
export function parseKesRates(text: string | undefined): ReadonlyMap<Currency, string> {
  const rates = new Map<Currency, string>();
  if (text === undefined || text.trim() === "") return rates;
  for (const raw of text.split(",")) {
    const entry = raw.trim();
    const match = ENTRY.exec(entry);
    if (!match) {
      throw new Error(
        `entry "${entry}" is not CODE=rate with the rate in KES per unit (${EXAMPLE})`,
      );
    }
    const code = match[1].toUpperCase();
    const rate = match[2];
    if (code === "KES") {
      throw new Error("lists KES, which needs no rate (KES amounts are already shillings)");
    }
    if (!isCurrency(code)) {
      const known = CURRENCIES.filter((c) => c !== "KES").join(", ");
      throw new Error(`lists ${code}, which is not a currency the site sells in (${known})`);
    }
    if (rates.has(code)) throw new Error(`lists ${code} twice`);
    const decimals = rate.split(".")[1] ?? "";
    if (decimals.length > MAX_RATE_DECIMALS) {
      throw new Error(`rate for ${code} has more than ${MAX_RATE_DECIMALS} decimals ("${rate}")`);
    }
    if (/^[0.]+$/.test(rate)) throw new Error(`rate for ${code} must be more than 0`);
    rates.set(code, rate);
  }
  return rates;
}

/** "129.50" → 12950n over 10^2: the rate as an exact fraction. */
function rateFraction(rate: string) {
  if (!/^\d+(?:\.\d+)?$/.test(rate)) throw new Error(`Not a rate: ${JSON.stringify(rate)}`);
  const [whole, decimals = ""] = rate.split(".");
  const numerator = BigInt(`${whole}${decimals}`);
  if (numerator === 0n) throw new Error("A rate must be more than 0");
  return { numerator, denominator: 10n ** BigInt(decimals.length) };
}

function toSafeNumber(value: bigint) {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new Error(`Amount out of range: ${value}`);
  return number;
}

function requireMinor(amount: number) {
  if (!Number.isSafeInteger(amount)) throw new Error(`Not an amount in minor units: ${amount}`);
  return BigInt(amount);
}

const KES_SCALE = 10n ** BigInt(currencyExponent("KES"));

/**
 * An amount in the currency's minor units → KES cents at `rate` KES per unit, rounded half up to
 * the cent (half away from zero for negative amounts). 2900 USD cents at "129.50" → 375550.
 */
export function toKesMinor(amountMinor: number, currency: Currency, rate: string): number {
  const { numerator, denominator } = rateFraction(rate);
  const top = requireMinor(amountMinor) * numerator * KES_SCALE;
  const bottom = denominator * 10n ** BigInt(currencyExponent(currency));
  const magnitude = ((top < 0n ? -top : top) * 2n + bottom) / (2n * bottom);
  return toSafeNumber(top < 0n ? -magnitude : magnitude);
}

/**
 * KES cents received → how much of an order in `currency` they cover, in that currency's minor
 * units, rounded DOWN: a payer is never credited more than the shillings paid.
 * 375550 KES cents at "129.50" KES/USD → 2900 USD cents.
 */
export function fromKesMinor(kesMinor: number, currency: Currency, rate: string): number {
  const received = requireMinor(kesMinor);
  if (received < 0n) throw new Error(`A received amount cannot be negative: ${kesMinor}`);
  const { numerator, denominator } = rateFraction(rate);
  const top = received * denominator * 10n ** BigInt(currencyExponent(currency));
  return toSafeNumber(top / (numerator * KES_SCALE));
}

/** How a rate is printed beside a converted amount: "129.50 KES/USD". */
export function formatKesRate(rate: string, currency: Currency) {
  return `${rate} KES/${currency}`;
}
