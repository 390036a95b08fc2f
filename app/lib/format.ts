import { TZDate } from "@date-fns/tz";
import { differenceInCalendarDays, format } from "date-fns";
import { EVENT_TIME_ZONE } from "./constants";

type DateInput = Date | string | number;

const inNairobi = (d: DateInput) => new TZDate(new Date(d).getTime(), EVENT_TIME_ZONE);

/** 'MMM d, yyyy' in Nairobi time (spec §2.15, §2.5). */
export function formatDate(d: DateInput) {
  return format(inNairobi(d), "MMM d, yyyy");
}

/** A date range, or a single date when both fall on the same day (spec §2.4). */
export function formatDateRange(start: DateInput, end: DateInput) {
  const a = formatDate(start);
  const b = formatDate(end);
  return a === b ? a : `${a} - ${b}`;
}

/** 'h:mm a' in Nairobi time. */
export function formatTime(d: DateInput) {
  return format(inNairobi(d), "h:mm a");
}

/** Inclusive number of calendar days an event spans in Nairobi time (Quick Info 'duration'). */
export function durationInDays(start: DateInput, end: DateInput) {
  return differenceInCalendarDays(inNairobi(end), inNairobi(start)) + 1;
}

/** Amount with 2 decimals and its currency code (spec §3): 'USD 1,250.00'. */
export function formatMoney(amount: number | string, currency: string) {
  const value = typeof amount === "string" ? Number.parseFloat(amount) : amount;
  return `${currency} ${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** Compact count for the impact section: 1000 and more in k format (spec §2.3, §9). */
export function formatCompact(n: number) {
  if (n < 1000) return String(n);
  const k = n / 1000;
  return `${Number.isInteger(k) ? k : k.toFixed(1)}k`;
}

/** URL slug from a title: lowercase ASCII words joined by hyphens. */
export function slugify(text: string) {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/&/g, " and ")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "item"
  );
}

/** First and last comma part of a location (spec §3 'city' and 'country'). */
export function splitLocation(location: string) {
  const parts = location
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  return { city: parts[0] ?? "", country: parts[parts.length - 1] ?? "" };
}
