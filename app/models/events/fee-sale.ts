// When a ticket (an event fee) is on sale, in words the event page, the registration page and the
// registration action share (decision 0084). Pure: no database, safe in any layer above lib.
import { TZDate } from "@date-fns/tz";
import { formatDate, formatTime } from "~/lib/format";

/** "On sale from March 1, 2027, 9:00 AM (Africa/Nairobi)": the sale start in the event's zone. */
export function onSaleFromLabel(saleStartsAt: Date | string, timeZone: string) {
  return `On sale from ${formatDate(saleStartsAt, timeZone)}, ${formatTime(saleStartsAt, timeZone)} (${timeZone})`;
}

/** True while the fee's sale has not started (no sale start: on sale from the start). */
export function saleNotStarted(saleStartsAt: Date | string | null | undefined, now: Date) {
  return saleStartsAt != null && new Date(saleStartsAt).getTime() > now.getTime();
}

/** The last instant of an `available until` day (yyyy-MM-dd) in the event's zone. */
export function endOfSaleDay(day: string, timeZone: string) {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(new TZDate(y, m - 1, d, 23, 59, 59, timeZone).getTime());
}

/** A sale start later than the fee's last day (the fees card refuses it at the field). */
export const SALE_START_AFTER_UNTIL =
  "Sale start must be before the end of the Available Until date";
/** A sale start at or after the event's start: registration closes then, so it would never sell. */
export const SALE_START_AFTER_EVENT_START = "Sale start must be before the event starts";
