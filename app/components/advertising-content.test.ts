import { describe, expect, it } from "vitest";
import { AUDIENCE_BREAKDOWN, SPONSORSHIP_TIERS } from "./advertising-content";

describe("advertising figures of spec §9", () => {
  it("prices the sponsorship tiers per event with their conference passes", () => {
    expect(SPONSORSHIP_TIERS.map((t) => [t.name, t.price])).toEqual([
      ["Platinum", 25000],
      ["Gold", 15000],
      ["Silver", 8000],
      ["Bronze", 3000],
    ]);
    const passes = SPONSORSHIP_TIERS.map((t) => t.features.find((f) => /conference pass/.test(f)));
    expect(passes).toEqual([
      "4 complimentary conference passes",
      "2 complimentary conference passes",
      "1 complimentary conference pass",
      undefined,
    ]);
  });

  it("has an audience breakdown that adds up to 100%", () => {
    expect(AUDIENCE_BREAKDOWN.reduce((sum, a) => sum + a.percent, 0)).toBe(100);
  });
});
