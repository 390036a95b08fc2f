// IANA time zones for events (decision 0030): validated with the runtime's own zone database.
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";

const known = new Map<string, boolean>();

/** True for a zone the runtime knows ('America/Toronto', 'UTC'); false for anything else. */
export function isTimeZone(value: string): boolean {
  let ok = known.get(value);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: value });
      ok = /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value);
    } catch {
      ok = false;
    }
    if (known.size < 1000) known.set(value, ok);
  }
  return ok;
}

/** Every canonical zone, sorted, for the event form's searchable list (sent by the loader). */
export function listTimeZones(): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  return zones.includes("UTC") ? zones : [...zones, "UTC"].sort();
}

/** The calendar day ('yyyy-MM-dd') an instant falls on in a zone. */
export function dayInZone(instant: Date, timeZone: string): string {
  return format(new TZDate(instant.getTime(), timeZone), "yyyy-MM-dd");
}

/**
 * The instant a wall-clock time on a calendar day ('yyyy-MM-dd') happens in a zone, with the
 * zone's offset on that day from the zone database (never a hard-coded '+03:00').
 */
export function instantInZone(day: string, hour: number, minute: number, timeZone: string): Date {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(new TZDate(year, month - 1, date, hour, minute, timeZone).getTime());
}
