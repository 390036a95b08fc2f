import { describe, expect, it } from "vitest";
import { countdownParts } from "./countdown";

describe("countdownParts", () => {
  it("splits the time left into days, hours, minutes and seconds", () => {
    const ms = ((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000 + 999;
    expect(countdownParts(ms)).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5 });
  });
  it("never goes negative", () => {
    expect(countdownParts(-5000)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
  });
});
