// Money is integer minor units everywhere: parsed from decimal text, added as integers, formatted
// here. No float ever holds an amount (decision 0072). How many decimals a currency has comes from
// one table (ISO 4217 exponents; decision 0081): every parse and every label goes through it.
import type { CURRENCIES } from "./constants";

export type Currency = (typeof CURRENCIES)[number];

/** Digits after the decimal point per currency (ISO 4217); minor units = amount × 10^exponent. */
export const CURRENCY_EXPONENTS: Readonly<Record<Currency, number>> = {
  KES: 2,
  USD: 2,
  EUR: 2,
  GBP: 2,
  UGX: 0,
  RWF: 0,
};

/** Symbols for the marketing pages' price tags ('$25,000'); others show their code. */
const SYMBOLS: Partial<Record<Currency, string>> = { USD: "$", EUR: "€", GBP: "£" };

/**
 * The largest amount in minor units: JavaScript's largest exact integer. The schema's CHECK
 * constraints keep every money column at or below it, so a `bigint` column read as a number is
 * exact (decision 0072).
 */
export const MAX_SAFE_MINOR = Number.MAX_SAFE_INTEGER;

export function isCurrency(value: string): value is Currency {
  return Object.hasOwn(CURRENCY_EXPONENTS, value);
}

/** The currency's exponent; an unknown code is a programming error (the database enum has them all). */
export function currencyExponent(currency: string): number {
  if (!isCurrency(currency)) throw new Error(`Unknown currency ${JSON.stringify(currency)}`);
  return CURRENCY_EXPONENTS[currency];
}

const DECIMAL = /^\s*(\d{1,13})(?:\.(\d+))?\s*$/;

/**
 * Decimal text → minor units in the currency: '1234.5' KES → 123450, '1500' UGX → 1500.
 * null for anything that is not a non-negative amount with at most the currency's decimals
 * ('1.234' KES, '1500.5' UGX). The digits are joined as text and read once as an integer of at
 * most 15 digits (always exact); thousands separators (',') are ignored.
 */
export function parseMinorUnits(text: string, currency: string): number | null {
  const exponent = currencyExponent(currency);
  const match = DECIMAL.exec(text.replace(/,/g, ""));
  if (!match) return null;
  const fraction = match[2] ?? "";
  if (fraction.length > exponent) return null;
  const minor = Number.parseInt(`${match[1]}${fraction.padEnd(exponent, "0")}`, 10);
  return Number.isSafeInteger(minor) ? minor : null;
}

/** What a refused amount's message says about decimals: 'at most 2 decimal places' / 'no decimals'. */
export function decimalsRule(currency: string) {
  const exponent = currencyExponent(currency);
  return exponent === 0
    ? `${currency} amounts have no decimals`
    : `${currency} amounts have at most ${exponent} decimal places`;
}

function split(minor: number, currency: string) {
  if (!Number.isSafeInteger(minor)) throw new Error(`Not an amount in minor units: ${minor}`);
  const exponent = currencyExponent(currency);
  const digits = String(Math.abs(minor)).padStart(exponent + 1, "0");
  const cut = digits.length - exponent;
  return { sign: minor < 0 ? "-" : "", whole: digits.slice(0, cut), fraction: digits.slice(cut) };
}

/** 123450 KES → '1234.50'; 1500 UGX → '1500' (form values, CSV, JSON-LD `price`). Exact. */
export function minorToDecimal(minor: number, currency: string) {
  const { sign, whole, fraction } = split(minor, currency);
  return fraction ? `${sign}${whole}.${fraction}` : `${sign}${whole}`;
}

const THOUSANDS = /\B(?=(\d{3})+(?!\d))/g;

/** 123450 KES → '1,234.50'; 1500000 UGX → '1,500,000'. */
export function formatMinorAmount(minor: number, currency: string) {
  const { sign, whole, fraction } = split(minor, currency);
  const grouped = whole.replace(THOUSANDS, ",");
  return fraction ? `${sign}${grouped}.${fraction}` : `${sign}${grouped}`;
}

/**
 * The one money label of the site (spec §3: the currency code and the currency's decimals):
 * 123450 'KES' → 'KES 1,234.50', 1500 'UGX' → 'UGX 1,500'. Pages, mails, PDFs and CSVs use it.
 */
export function formatMinor(minor: number, currency: string) {
  return `${currency} ${formatMinorAmount(minor, currency)}`;
}

/**
 * A marketing price tag (advertising and membership pages): the symbol where the currency has a
 * common one and no decimals when the amount is whole: 2500000 'USD' → '$25,000'.
 */
export function formatPriceTag(minor: number, currency: Currency) {
  const { sign, whole, fraction } = split(minor, currency);
  const grouped = whole.replace(THOUSANDS, ",");
  const amount = /^0*$/.test(fraction) ? grouped : `${grouped}.${fraction}`;
  const symbol = SYMBOLS[currency];
  return symbol ? `${sign}${symbol}${amount}` : `${sign}${currency} ${amount}`;
}
