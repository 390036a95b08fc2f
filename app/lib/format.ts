import { EVENT_TIME_ZONE } from "./constants";

type DateInput = Date | string | number;

// One formatter for every date: building an Intl.DateTimeFormat is the expensive part, and the
// event listing formats two dates per card on every render (decision 0011).
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

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

type WallClock = Record<"year" | "month" | "day" | "hour" | "minute" | "second", string>;

/** The Nairobi wall clock of an instant, as zero-padded fields ('2027', '03', '01', '09', …). */
function inNairobi(d: DateInput): WallClock {
  const clock = { year: "", month: "", day: "", hour: "", minute: "", second: "" };
  for (const part of nairobiClock.formatToParts(new Date(d))) {
    if (part.type in clock) clock[part.type as keyof WallClock] = part.value;
  }
  return clock;
}

// Listings show the same few hundred dates over and over: remember them (bounded).
const dateLabels = new Map<number, string>();

/** 'MMM d, yyyy' in Nairobi time (spec §2.15, §2.5). */
export function formatDate(d: DateInput) {
  const time = new Date(d).getTime();
  let label = dateLabels.get(time);
  if (label === undefined) {
    const { month, day, year } = inNairobi(time);
    label = `${MONTHS[Number(month) - 1]} ${Number(day)}, ${year}`;
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
  const { hour, minute } = inNairobi(d);
  const h = Number(hour);
  return `${h % 12 || 12}:${minute} ${h < 12 ? "AM" : "PM"}`;
}

/** ISO 8601 with Nairobi's UTC offset, e.g. '2027-03-01T09:00:00+03:00' (JSON-LD dates). */
export function nairobiIso(d: DateInput) {
  const instant = new Date(d);
  const p = inNairobi(instant);
  const wall = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  const offset = Math.round((wall - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0");
  const mm = String(Math.abs(offset) % 60).padStart(2, "0");
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${sign}${hh}:${mm}`;
}

/** The Nairobi calendar day of an instant, as days since 1970-01-01. */
function nairobiDayNumber(d: DateInput) {
  const { year, month, day } = inNairobi(d);
  return Date.UTC(+year, +month - 1, +day) / 86_400_000;
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
