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
  /** Set when the event was called off: the calendar entry reads STATUS:CANCELLED. */
  cancelledAt: Date | null;
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
    // SEQUENCE grows with every update of the event (events.sequence), so changes propagate;
    // cancelling bumps it too, so calendars take the CANCELLED status over the copy they hold.
    sequence: event.sequence,
    status: event.cancelledAt ? "CANCELLED" : "CONFIRMED",
    categories: [event.eventType, ...(event.category ? [event.category] : [])],
    created: event.createdAt.getTime(),
    lastModified: event.updatedAt.getTime(),
    // No ORGANIZER: with one, calendar apps offer to e-mail the organiser on every change.
  };
}

/** How often subscribed calendars should fetch a feed again (RFC 7986 REFRESH-INTERVAL). */
export const FEED_REFRESH_INTERVAL = "PT12H";

/** RFC 5545 §3.3.11 TEXT escaping. */
function escapeText(text: string) {
  return text.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, "\\n");
}

/** RFC 5545 §3.1: lines longer than 75 octets are folded (never inside a UTF-8 sequence). */
export function foldLine(line: string) {
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    // The first line holds 75 octets; continuation lines 74 after their leading space.
    if (octets + size > (parts.length ? 74 : 75)) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/**
 * An iCalendar (RFC 5545) document with METHOD:PUBLISH for the given events, named (RFC 7986
 * NAME, and X-WR-CALNAME for clients that predate it). A subscribable `feed` also says how
 * often to refresh it (REFRESH-INTERVAL, and X-PUBLISHED-TTL for Outlook alike).
 * Throws when the `ics` package rejects an event (it validates every field).
 */
export function buildCalendar(
  list: IcsEvent[],
  {
    origin,
    name = `${ORGANISATION_NAME} Events`,
    feed = false,
  }: { origin: string; name?: string; feed?: boolean },
): string {
  const { error, value } = createEvents(
    list.map((event) => toAttributes(event, origin)),
    { productId: `-//${ORGANISATION_NAME}//Events//EN`, method: "PUBLISH", calName: name },
  );
  if (error || !value) throw error ?? new Error("calendar could not be generated");
  // The `ics` package writes a fixed X-PUBLISHED-TTL:PT1H in the header: replaced by NAME and,
  // for feeds, the refresh interval (a one-event download has nothing to refresh).
  const header = [
    foldLine(`NAME:${escapeText(name)}`),
    ...(feed
      ? [
          `REFRESH-INTERVAL;VALUE=DURATION:${FEED_REFRESH_INTERVAL}`,
          `X-PUBLISHED-TTL:${FEED_REFRESH_INTERVAL}`,
        ]
      : []),
    "",
  ].join("\r\n");
  if (!value.includes("X-PUBLISHED-TTL:PT1H\r\n")) throw new Error("unexpected calendar header");
  const calendar = value.replace("X-PUBLISHED-TTL:PT1H\r\n", header);
  // RFC 5545 §3.6: a calendar holds at least one component. An empty feed gets the network's
  // time zone (a component every client accepts and ignores).
  return list.length
    ? calendar
    : calendar.replace("END:VCALENDAR", `${EMPTY_FEED_TIMEZONE}END:VCALENDAR`);
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
