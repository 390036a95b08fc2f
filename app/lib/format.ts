import { EVENT_TIME_ZONE } from "./constants";

type DateInput = Date | string | number;

// One formatter per zone: building an Intl.DateTimeFormat is the expensive part, and the event
// listing formats two dates per card on every render (decision 0011). Events carry their own IANA
// zone (decision 0030); Nairobi is the default.
const clocks = new Map<string, Intl.DateTimeFormat>();
function clockFor(timeZone: string) {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    clocks.set(timeZone, clock);
  }
  return clock;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

type WallClock = Record<"year" | "month" | "day" | "hour" | "minute" | "second", string>;

/** The wall clock of an instant in a zone, as zero-padded fields ('2027', '03', '01', '09', …). */
function wallClock(d: DateInput, timeZone: string): WallClock {
  const clock = { year: "", month: "", day: "", hour: "", minute: "", second: "" };
  for (const part of clockFor(timeZone).formatToParts(new Date(d))) {
    if (part.type in clock) clock[part.type as keyof WallClock] = part.value;
  }
  return clock;
}

// Listings show the same few hundred dates over and over: remember them (bounded).
const dateLabels = new Map<string, string>();

/** 'MMM d, yyyy' in the given zone, Nairobi by default (spec §2.15, §2.5). */
/** The calendar day in a zone as yyyy-mm-dd (a date input's value, a fee's last day on sale). */
export function dayInZone(d: DateInput, timeZone: string = EVENT_TIME_ZONE) {
  const p = wallClock(d, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

export function formatDate(d: DateInput, timeZone: string = EVENT_TIME_ZONE) {
  const time = new Date(d).getTime();
  const key = `${timeZone} ${time}`;
  let label = dateLabels.get(key);
  if (label === undefined) {
    const { month, day, year } = wallClock(time, timeZone);
    label = `${MONTHS[Number(month) - 1]} ${Number(day)}, ${year}`;
    if (dateLabels.size >= 10_000) dateLabels.clear();
    dateLabels.set(key, label);
  }
  return label;
}

/** A date range, or a single date when both fall on the same day (spec §2.4). */
export function formatDateRange(start: DateInput, end: DateInput, timeZone?: string) {
  const a = formatDate(start, timeZone);
  const b = formatDate(end, timeZone);
  return a === b ? a : `${a} - ${b}`;
}

/** 'h:mm a' in the given zone, Nairobi by default. */
export function formatTime(d: DateInput, timeZone: string = EVENT_TIME_ZONE) {
  const { hour, minute } = wallClock(d, timeZone);
  const h = Number(hour);
  return `${h % 12 || 12}:${minute} ${h < 12 ? "AM" : "PM"}`;
}

/** A zone's UTC offset at an instant, in minutes (e.g. -300 for Toronto in winter). */
export function zoneOffsetMinutes(d: DateInput, timeZone: string = EVENT_TIME_ZONE) {
  const instant = new Date(d);
  const p = wallClock(instant, timeZone);
  const wall = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  return Math.round((wall - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** An offset in minutes as '+03:00' / '-05:00'. */
function offsetText(minutes: number) {
  const sign = minutes < 0 ? "-" : "+";
  const hh = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, "0");
  const mm = String(Math.abs(minutes) % 60).padStart(2, "0");
  return `${sign}${hh}:${mm}`;
}

/** ISO 8601 with the zone's UTC offset, e.g. '2027-03-01T09:00:00+03:00' (JSON-LD dates). */
export function isoInZone(d: DateInput, timeZone: string = EVENT_TIME_ZONE) {
  const p = wallClock(d, timeZone);
  const offset = offsetText(zoneOffsetMinutes(d, timeZone));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${offset}`;
}

// The zones' short names ('EST'), one formatter per zone like the clocks above: building one per
// call was the event page's largest formatting cost (issue 27).
const zoneNames = new Map<string, Intl.DateTimeFormat>();
function zoneNamesFor(timeZone: string) {
  let names = zoneNames.get(timeZone);
  if (!names) {
    names = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" });
    zoneNames.set(timeZone, names);
  }
  return names;
}

/**
 * A zone's label at an instant: its common abbreviation with the offset when it has one
 * and city ('EST (GMT-5, Toronto time)'), else the offset and city ('GMT+3 (Nairobi time)').
 */
export function zoneLabel(d: DateInput, timeZone: string = EVENT_TIME_ZONE) {
  const minutes = zoneOffsetMinutes(d, timeZone);
  const hours = Math.trunc(Math.abs(minutes) / 60);
  const rest = Math.abs(minutes) % 60;
  const gmt =
    minutes === 0
      ? "GMT"
      : `GMT${minutes < 0 ? "-" : "+"}${hours}${rest ? `:${String(rest).padStart(2, "0")}` : ""}`;
  const short = zoneNamesFor(timeZone)
    .formatToParts(new Date(d))
    .find((part) => part.type === "timeZoneName")?.value;
  const city = `${zoneCity(timeZone)} time`;
  return short && !short.startsWith("GMT") && short !== "UTC"
    ? `${short} (${gmt}, ${city})`
    : `${gmt} (${city})`;
}

/** 'America/Sao_Paulo' → 'Sao Paulo'; 'UTC' stays. */
export function zoneCity(timeZone: string) {
  return (timeZone.split("/").pop() ?? timeZone).replace(/_/g, " ");
}

/** The calendar day of an instant in a zone, as days since 1970-01-01. */
function dayNumber(d: DateInput, timeZone: string) {
  const { year, month, day } = wallClock(d, timeZone);
  return Date.UTC(+year, +month - 1, +day) / 86_400_000;
}

/** Inclusive number of calendar days an event spans in its zone (Quick Info 'duration'). */
export function durationInDays(
  start: DateInput,
  end: DateInput,
  timeZone: string = EVENT_TIME_ZONE,
) {
  return dayNumber(end, timeZone) - dayNumber(start, timeZone) + 1;
}

/** '1 event', '12 events'. */
export function eventCountLabel(count: number) {
  return `${count} ${count === 1 ? "event" : "events"}`;
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
