// Call deadlines are days: a deadline ends at 23:59 Nairobi time on its day (the network's head
// office), shown with that zone's label.
import { dayInZone, instantInZone } from "~/lib/time-zones";

export const DEADLINE_ZONE = "Africa/Nairobi";

/** The instant a deadline day ('yyyy-mm-dd') ends. */
export function deadlineFromDay(day: string) {
  return instantInZone(day, 23, 59, DEADLINE_ZONE);
}

/** The day ('yyyy-mm-dd') a deadline instant falls on, for the form. */
export function dayOfDeadline(instant: Date) {
  return dayInZone(instant, DEADLINE_ZONE);
}
