// Money is integer minor units (cents) everywhere: parsed from decimal text, added as integers,
// formatted here. No float ever holds an amount (decision 0072).

/**
 * The largest amount in minor units: JavaScript's largest exact integer. The schema's CHECK
 * constraints keep every money column at or below it, so a `bigint` column read as a number is
 * exact (decision 0072).
 */
export const MAX_SAFE_MINOR = Number.MAX_SAFE_INTEGER;

const DECIMAL = /^\s*(\d{1,13})(?:\.(\d{1,2}))?\s*$/;

/**
 * '1234.5' → 123450; null for anything that is not a non-negative amount with ≤ 2 decimals.
 * The digits are joined as text and read once as an integer of at most 15 digits (always exact).
 */
export function parseMinorUnits(text: string): number | null {
  const match = DECIMAL.exec(text.replace(/,/g, ""));
  if (!match) return null;
  const minor = Number.parseInt(`${match[1]}${(match[2] ?? "").padEnd(2, "0")}`, 10);
  return Number.isSafeInteger(minor) ? minor : null;
}

/** 123450 → '1,234.50' */
export function formatMinorAmount(minor: number) {
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  const whole = Math.floor(abs / 100).toLocaleString("en-US");
  return `${sign}${whole}.${String(abs % 100).padStart(2, "0")}`;
}

/** 123450, 'KES' → 'KES 1,234.50' (the same shape as the event pages' fee labels). */
export function formatMinor(minor: number, currency: string) {
  return `${currency} ${formatMinorAmount(minor)}`;
}
