import { describe, expect, it } from "vitest";
import {
  dayInZone,
  durationInDays,
  eventCountLabel,
  formatCompact,
  formatDate,
  formatDateRange,
  formatTime,
  isoInZone,
  slugify,
  zoneLabel,
} from "./format";

describe("format", () => {
  it("formats dates as 'MMM d, yyyy' in Nairobi time", () => {
    // 22:30 UTC on 31 Dec is already 1 Jan in Nairobi (GMT+3).
    expect(formatDate("2026-12-31T22:30:00Z")).toBe("Jan 1, 2027");
  });
  it("shows one date when an event starts and ends on the same day", () => {
    expect(formatDateRange("2027-03-01T06:00:00Z", "2027-03-01T14:00:00Z")).toBe("Mar 1, 2027");
    expect(formatDateRange("2027-03-01T06:00:00Z", "2027-03-03T14:00:00Z")).toBe(
      "Mar 1, 2027 - Mar 3, 2027",
    );
    expect(durationInDays("2027-03-01T06:00:00Z", "2027-03-03T14:00:00Z")).toBe(3);
  });
  it("gives the calendar day in a zone as yyyy-mm-dd", () => {
    expect(dayInZone("2026-12-31T22:30:00Z")).toBe("2027-01-01");
    expect(dayInZone("2026-12-31T22:30:00Z", "America/Toronto")).toBe("2026-12-31");
    expect(dayInZone("2027-03-05T01:00:00Z", "Pacific/Kiritimati")).toBe("2027-03-05");
    expect(dayInZone("2027-03-05T11:00:00Z", "Pacific/Kiritimati")).toBe("2027-03-06");
  });
  it("shows k-format counts", () => {
    expect(formatCompact(999)).toBe("999");
    expect(formatCompact(5000)).toBe("5k");
    expect(formatCompact(1500)).toBe("1.5k");
  });
  it("makes readable slugs", () => {
    expect(slugify("Africa Data & AI Summit 2027!")).toBe("africa-data-and-ai-summit-2027");
  });
});

describe("Nairobi times", () => {
  it("formats times as 'h:mm a' with a plain space", () => {
    expect(formatTime("2027-03-01T06:05:00Z")).toBe("9:05 AM");
    expect(formatTime("2027-03-01T21:00:00Z")).toBe("12:00 AM");
    expect(formatTime("2027-03-01T09:30:00Z")).toBe("12:30 PM");
    expect(formatTime("2027-03-01T14:15:00Z")).toBe("5:15 PM");
  });
  it("counts calendar days across a month and a year end in Nairobi time", () => {
    expect(durationInDays("2026-12-31T20:59:00Z", "2026-12-31T21:00:00Z")).toBe(2);
    expect(durationInDays("2027-02-27T06:00:00Z", "2027-03-02T06:00:00Z")).toBe(4);
    expect(formatDate("2027-09-10T06:00:00Z")).toBe("Sep 10, 2027");
  });
});

describe("isoInZone", () => {
  it("writes the Nairobi wall clock with its +03:00 offset", () => {
    expect(isoInZone("2026-12-31T22:30:00Z")).toBe("2027-01-01T01:30:00+03:00");
    expect(isoInZone("2027-06-15T20:59:59.900Z")).toBe("2027-06-15T23:59:59+03:00");
    expect(isoInZone(new Date("2027-03-01T00:00:00Z"))).toBe("2027-03-01T03:00:00+03:00");
  });
});

describe("event time zones", () => {
  const toronto = "America/Toronto";
  it("formats an instant in the event's zone with its offset and label", () => {
    // 14:00Z on 12 Jan 2027 is 09:00 EST in Toronto.
    expect(formatTime("2027-01-12T14:00:00Z", toronto)).toBe("9:00 AM");
    expect(formatDate("2027-01-13T03:00:00Z", toronto)).toBe("Jan 12, 2027");
    expect(isoInZone("2027-01-12T14:00:00Z", toronto)).toBe("2027-01-12T09:00:00-05:00");
    expect(isoInZone("2027-07-12T13:00:00Z", toronto)).toBe("2027-07-12T09:00:00-04:00");
    expect(zoneLabel("2027-01-12T14:00:00Z", toronto)).toBe("EST (GMT-5, Toronto time)");
    expect(zoneLabel("2027-01-12T14:00:00Z")).toBe("GMT+3 (Nairobi time)");
    expect(zoneLabel("2027-01-12T14:00:00Z", "America/Sao_Paulo")).toBe("GMT-3 (Sao Paulo time)");
    expect(zoneLabel("2027-01-12T14:00:00Z", "Asia/Kolkata")).toBe("GMT+5:30 (Kolkata time)");
    expect(durationInDays("2027-01-12T14:00:00Z", "2027-01-13T03:00:00Z", toronto)).toBe(1);
    expect(durationInDays("2027-01-12T14:00:00Z", "2027-01-13T03:00:00Z")).toBe(2);
  });
});

describe("eventCountLabel", () => {
  it("says '1 event' and 'n events', never '1 events'", () => {
    expect(eventCountLabel(0)).toBe("0 events");
    expect(eventCountLabel(1)).toBe("1 event");
    expect(eventCountLabel(2)).toBe("2 events");
  });
});
