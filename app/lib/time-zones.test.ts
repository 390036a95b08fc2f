import { describe, expect, it } from "vitest";
import { dayInZone, instantInZone } from "./time-zones";

describe("wall-clock times in a zone", () => {
  it("puts noon of a Nairobi day at 09:00 UTC, whatever zone the server runs in", () => {
    expect(instantInZone("2027-03-01", 12, 0, "Africa/Nairobi").toISOString()).toBe(
      "2027-03-01T09:00:00.000Z",
    );
    // The first of January and the last of December stay on their own day.
    expect(instantInZone("2027-01-01", 0, 0, "Africa/Nairobi").toISOString()).toBe(
      "2026-12-31T21:00:00.000Z",
    );
  });

  it("takes the offset the zone has on that day (daylight saving), not a fixed one", () => {
    expect(instantInZone("2027-01-15", 12, 0, "Europe/London").toISOString()).toBe(
      "2027-01-15T12:00:00.000Z",
    );
    expect(instantInZone("2027-07-15", 12, 0, "Europe/London").toISOString()).toBe(
      "2027-07-15T11:00:00.000Z",
    );
  });

  it("names the calendar day an instant falls on in the zone", () => {
    // 22:30 UTC on 31 December is already New Year's Day in Nairobi.
    const lateEvening = new Date("2026-12-31T22:30:00Z");
    expect(dayInZone(lateEvening, "Africa/Nairobi")).toBe("2027-01-01");
    expect(dayInZone(lateEvening, "UTC")).toBe("2026-12-31");
    // A payment dated with today's Nairobi day lands on that day in Nairobi.
    const day = dayInZone(lateEvening, "Africa/Nairobi");
    expect(dayInZone(instantInZone(day, 12, 0, "Africa/Nairobi"), "Africa/Nairobi")).toBe(day);
  });
});
