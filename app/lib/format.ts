import { EVENT_TIME_ZONE } from "./constants";

type DateInput = Date | string | number;

// One formatter for every date: building an Intl.DateTimeFormat is the expensive part, and the
// event listing formats two dates per card on every render (decision 0011).
const nairobiParts = new Intl.DateTimeFormat("en-US", {
  timeZone: EVENT_TIME_ZONE,
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  hour12: true,
});

type NairobiParts = Record<"year" | "month" | "day" | "hour" | "minute" | "dayPeriod", string>;

function inNairobi(d: DateInput): NairobiParts {
  const parts = { year: "", month: "", day: "", hour: "", minute: "", dayPeriod: "" };
  for (const part of nairobiParts.formatToParts(new Date(d))) {
    if (part.type in parts) parts[part.type as keyof NairobiParts] = part.value;
  }
  return parts;
}

// Listings show the same few hundred dates over and over: remember them (bounded).
const dateLabels = new Map<number, string>();

/** 'MMM d, yyyy' in Nairobi time (spec §2.15, §2.5). */
export function formatDate(d: DateInput) {
  const time = new Date(d).getTime();
  let label = dateLabels.get(time);
  if (label === undefined) {
    const { month, day, year } = inNairobi(time);
    label = `${month} ${day}, ${year}`;
    if (dateLabels.size >= 10_000) dateLabels.clear();
    dateLabels.set(time, label);
  }
  return label;
}

/** A date range, or a single date when both fall on the same day (spec §2.4). */
export function formatDateRange(start: DateInput, end: DateInput) {
  const a = formatDate(start);
  const b = formatDate(end);
  return a === b ? a : `${a} - ${b}`;
}

/** 'h:mm a' in Nairobi time. */
export function formatTime(d: DateInput) {
  const { hour, minute, dayPeriod } = inNairobi(d);
  return `${hour}:${minute} ${dayPeriod.toUpperCase()}`;
}

const nairobiDay = new Intl.DateTimeFormat("en-US", {
  timeZone: EVENT_TIME_ZONE,
  year: "numeric",
  month: "numeric",
  day: "numeric",
});

/** The Nairobi calendar day of an instant, as days since 1970-01-01. */
function nairobiDayNumber(d: DateInput) {
  const n = { year: 0, month: 0, day: 0 };
  for (const part of nairobiDay.formatToParts(new Date(d))) {
    if (part.type in n) n[part.type as keyof typeof n] = Number(part.value);
  }
  return Date.UTC(n.year, n.month - 1, n.day) / 86_400_000;
}

const nairobiClock = new Intl.DateTimeFormat("en-US", {
  timeZone: EVENT_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** ISO 8601 with Nairobi's UTC offset, e.g. '2027-03-01T09:00:00+03:00' (JSON-LD dates). */
export function nairobiIso(d: DateInput) {
  const instant = new Date(d);
  const p: Record<string, string> = {};
  for (const part of nairobiClock.formatToParts(instant)) p[part.type] = part.value;
  const wall = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  const offset = Math.round((wall - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0");
  const mm = String(Math.abs(offset) % 60).padStart(2, "0");
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${sign}${hh}:${mm}`;
}

/** Inclusive number of calendar days an event spans in Nairobi time (Quick Info 'duration'). */
export function durationInDays(start: DateInput, end: DateInput) {
  return nairobiDayNumber(end) - nairobiDayNumber(start) + 1;
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
