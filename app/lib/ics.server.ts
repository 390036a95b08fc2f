import { createEvents, type EventAttributes } from "ics";
import { ORGANISATION_NAME } from "./constants";

export type IcsEvent = {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  theme: string | null;
  location: string;
  startDate: Date;
  endDate: Date;
  eventType: string;
  category: string | null;
  sequence: number;
  createdAt: Date;
  updatedAt: Date;
};

/** Stable across renames, slugs and hosts, so calendars update the event instead of duplicating it. */
export function eventUid(id: string) {
  return `event-${id}@kongamano.org`;
}

function toAttributes(event: IcsEvent, origin: string): EventAttributes {
  const url = `${origin}/events/${encodeURIComponent(event.slug)}`;
  const description = [event.theme, event.description, `Details: ${url}`]
    .filter(Boolean)
    .join("\n\n");
  return {
    uid: eventUid(event.id),
    // Times are instants: written in UTC, calendars show them in each reader's zone.
    start: event.startDate.getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    end: event.endDate.getTime(),
    endInputType: "utc",
    endOutputType: "utc",
    title: event.title,
    description,
    location: event.location,
    url,
    // SEQUENCE grows with every update of the event (events.sequence), so changes propagate.
    sequence: event.sequence,
    status: "CONFIRMED",
    categories: [event.eventType, ...(event.category ? [event.category] : [])],
    created: event.createdAt.getTime(),
    lastModified: event.updatedAt.getTime(),
    // No ORGANIZER: with one, calendar apps offer to e-mail the organiser on every change.
  };
}

/**
 * An iCalendar (RFC 5545) document with METHOD:PUBLISH for the given events.
 * Throws when the `ics` package rejects an event (it validates every field).
 */
export function buildCalendar(
  list: IcsEvent[],
  { origin, name = `${ORGANISATION_NAME} Events` }: { origin: string; name?: string },
): string {
  const { error, value } = createEvents(
    list.map((event) => toAttributes(event, origin)),
    { productId: `-//${ORGANISATION_NAME}//Events//EN`, method: "PUBLISH", calName: name },
  );
  if (error || !value) throw error ?? new Error("calendar could not be generated");
  // RFC 5545 §3.6: a calendar holds at least one component. An empty feed gets the network's
  // time zone (a component every client accepts and ignores).
  return list.length
    ? value
    : value.replace("END:VCALENDAR", `${EMPTY_FEED_TIMEZONE}END:VCALENDAR`);
}

const EMPTY_FEED_TIMEZONE = [
  "BEGIN:VTIMEZONE",
  "TZID:Africa/Nairobi",
  "BEGIN:STANDARD",
  "DTSTART:19700101T000000",
  "TZOFFSETFROM:+0300",
  "TZOFFSETTO:+0300",
  "TZNAME:EAT",
  "END:STANDARD",
  "END:VTIMEZONE",
  "",
].join("\r\n");

/** Response headers for a calendar: inline for subscriptions, or as a download. */
export function calendarHeaders(filename: string, { download }: { download: boolean }) {
  return {
    "Content-Type": "text/calendar; charset=utf-8; method=PUBLISH",
    "Content-Disposition": `${download ? "attachment" : "inline"}; filename="${filename}"`,
  };
}
