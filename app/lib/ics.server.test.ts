import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import {
  buildCalendar,
  calendarHeaders,
  eventUid,
  FEED_REFRESH_INTERVAL,
  foldLine,
  type IcsEvent,
} from "./ics.server";

const base: IcsEvent = {
  id: "6f1c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f",
  slug: "data-governance-summit",
  title: "Data Governance Summit, Nairobi; 2027",
  description: "Two days of talks.\nBring your laptop & questions <all welcome>.",
  theme: "Trust in data",
  location: "KICC, Nairobi, Kenya",
  startDate: new Date("2027-03-01T06:00:00Z"),
  endDate: new Date("2027-03-02T15:00:00Z"),
  eventType: "conference",
  category: "Data Governance",
  sequence: 4,
  cancelledAt: null,
  createdAt: new Date("2026-01-01T00:00:00Z"),
  updatedAt: new Date("2026-02-01T00:00:00Z"),
};

// ical.js predates RFC 7986: its NAME is TEXT (escaped like SUMMARY), REFRESH-INTERVAL a duration.
ICAL.design.icalendar.property.name = { defaultType: "text" };
ICAL.design.icalendar.property["refresh-interval"] = { defaultType: "duration" };

function parse(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  return { calendar, vevents: calendar.getAllSubcomponents("vevent") };
}

describe("buildCalendar", () => {
  it("writes an RFC 5545 calendar that a calendar parser reads back field for field", () => {
    const ics = buildCalendar([base], { origin: "https://kongamano.example" });
    const { calendar, vevents } = parse(ics);
    expect(calendar.getFirstPropertyValue("method")).toBe("PUBLISH");
    expect(vevents).toHaveLength(1);
    const event = new ICAL.Event(vevents[0]);
    expect(event.uid).toBe(eventUid(base.id));
    expect(event.summary).toBe(base.title);
    expect(event.location).toBe(base.location);
    expect(event.sequence).toBe(4);
    expect(event.startDate.toJSDate().toISOString()).toBe("2027-03-01T06:00:00.000Z");
    expect(event.endDate.toJSDate().toISOString()).toBe("2027-03-02T15:00:00.000Z");
    expect(event.description).toContain("Bring your laptop & questions <all welcome>.");
    expect(event.description).toContain("https://kongamano.example/events/data-governance-summit");
    expect(vevents[0].getFirstPropertyValue("url")).toBe(
      "https://kongamano.example/events/data-governance-summit",
    );
  });

  it("never writes an ORGANIZER (calendar apps would mail the organiser)", () => {
    const ics = buildCalendar([base], { origin: "https://kongamano.example" });
    expect(ics).not.toMatch(/^ORGANIZER/m);
    expect(parse(ics).vevents[0].getFirstProperty("organizer")).toBeNull();
  });

  it("keeps the UID stable across edits and raises SEQUENCE with the event's sequence", () => {
    const first = parse(buildCalendar([base], { origin: "https://a.example" })).vevents[0];
    const edited = parse(
      buildCalendar([{ ...base, title: "Renamed", slug: "renamed", sequence: 5 }], {
        origin: "https://b.example",
      }),
    ).vevents[0];
    expect(edited.getFirstPropertyValue("uid")).toBe(first.getFirstPropertyValue("uid"));
    expect(Number(edited.getFirstPropertyValue("sequence"))).toBeGreaterThan(
      Number(first.getFirstPropertyValue("sequence")),
    );
  });

  it("writes several events, each with its own UID, and a valid calendar with none", () => {
    const second = { ...base, id: "11111111-2222-4333-8444-555555555555", slug: "other" };
    const { vevents } = parse(buildCalendar([base, second], { origin: "https://k.example" }));
    expect(vevents.map((v) => v.getFirstPropertyValue("uid"))).toEqual([
      eventUid(base.id),
      eventUid(second.id),
    ]);
    const empty = parse(buildCalendar([], { origin: "https://k.example", name: "Nothing" }));
    expect(empty.vevents).toHaveLength(0);
    expect(empty.calendar.getFirstPropertyValue("x-wr-calname")).toBe("Nothing");
    // RFC 5545 §3.6: 1*component — an empty feed still carries one (its time zone).
    expect(empty.calendar.getAllSubcomponents().length).toBeGreaterThanOrEqual(1);
    expect(empty.calendar.getFirstSubcomponent("vtimezone")?.getFirstPropertyValue("tzid")).toBe(
      "Africa/Nairobi",
    );
  });

  it("writes a Toronto event's 09:00 EST start as 14:00Z", () => {
    const ics = buildCalendar(
      [
        {
          ...base,
          startDate: new Date("2027-01-12T14:00:00Z"),
          endDate: new Date("2027-01-12T22:00:00Z"),
        },
      ],
      { origin: "https://k.example" },
    );
    expect(ics).toContain("DTSTART:20270112T140000Z");
    expect(ics).toContain("DTEND:20270112T220000Z");
  });

  it("writes a cancelled event as STATUS:CANCELLED with its higher SEQUENCE, the others CONFIRMED", () => {
    const cancelled = {
      ...base,
      id: "11111111-2222-4333-8444-555555555555",
      slug: "called-off",
      sequence: 5,
      cancelledAt: new Date("2026-11-20T09:00:00Z"),
    };
    const { vevents } = parse(
      buildCalendar([base, cancelled], { origin: "https://k.example", feed: true }),
    );
    const byUid = new Map(vevents.map((v) => [v.getFirstPropertyValue("uid"), v]));
    const off = byUid.get(eventUid(cancelled.id));
    expect(off?.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(off?.getFirstPropertyValue("sequence")).toBe(5);
    // Still the same entry (same UID, same times), so calendars update it instead of adding one.
    expect(new ICAL.Event(off).startDate.toJSDate().toISOString()).toBe("2027-03-01T06:00:00.000Z");
    expect(byUid.get(eventUid(base.id))?.getFirstPropertyValue("status")).toBe("CONFIRMED");
  });

  it("names every calendar (RFC 7986 NAME) and tells feed subscribers to refresh every 12 hours", () => {
    const name = "Kongamano Events: Records, Archives; Kenya — Wanjirũ's picks";
    const ics = buildCalendar([base], { origin: "https://k.example", name, feed: true });
    expect(ics).toContain("\r\nREFRESH-INTERVAL;VALUE=DURATION:PT12H\r\n");
    const feed = parse(ics);
    expect(feed.calendar.getFirstPropertyValue("name")).toBe(name);
    expect(feed.calendar.getFirstPropertyValue("x-wr-calname")).toContain("Wanjirũ's picks");
    const refresh = feed.calendar.getFirstProperty("refresh-interval");
    expect(refresh?.type).toBe("duration");
    expect(String(refresh?.getFirstValue())).toBe(FEED_REFRESH_INTERVAL);
    expect(FEED_REFRESH_INTERVAL).toBe("PT12H");
    expect(feed.calendar.getFirstPropertyValue("x-published-ttl")).toBe("PT12H");
    // A one-event download is named too but has nothing to refresh.
    const single = parse(buildCalendar([base], { origin: "https://k.example", name: base.title }));
    expect(single.calendar.getFirstPropertyValue("name")).toBe(base.title);
    expect(single.calendar.getFirstProperty("refresh-interval")).toBeNull();
  });

  it("folds long lines at 75 octets without splitting a character", () => {
    const line = `NAME:${"ũ".repeat(60)}`;
    const folded = foldLine(line);
    for (const part of folded.split("\r\n"))
      expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, "")).toBe(line);
  });

  it("labels downloads and subscriptions", () => {
    expect(calendarHeaders("a.ics", { download: true })["Content-Disposition"]).toBe(
      'attachment; filename="a.ics"',
    );
    expect(calendarHeaders("a.ics", { download: false })["Content-Type"]).toMatch(
      /^text\/calendar/,
    );
  });
});
