import { describe, expect, it } from "vitest";
import {
  durationInDays,
  formatCompact,
  formatDate,
  formatDateRange,
  formatMoney,
  slugify,
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
  it("shows money with two decimals and k-format counts", () => {
    expect(formatMoney(1250, "USD")).toBe("USD 1,250.00");
    expect(formatMoney("0", "KES")).toBe("KES 0.00");
    expect(formatCompact(999)).toBe("999");
    expect(formatCompact(5000)).toBe("5k");
    expect(formatCompact(1500)).toBe("1.5k");
  });
  it("makes readable slugs", () => {
    expect(slugify("Africa Data & AI Summit 2027!")).toBe("africa-data-and-ai-summit-2027");
  });
});
