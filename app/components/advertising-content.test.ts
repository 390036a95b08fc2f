import { describe, expect, it } from "vitest";
import {
  AD_TYPES,
  AUDIENCE_BREAKDOWN,
  adPriceLabel,
  SPONSORSHIP_TIERS,
  tierPriceLabel,
} from "./advertising-content";

describe("advertising figures of spec §9", () => {
  it("prices the sponsorship tiers per event with their conference passes", () => {
    expect(SPONSORSHIP_TIERS.map((t) => [t.name, tierPriceLabel(t)])).toEqual([
      ["Platinum", "$25,000"],
      ["Gold", "$15,000"],
      ["Silver", "$8,000"],
      ["Bronze", "$3,000"],
    ]);
    const passes = SPONSORSHIP_TIERS.map((t) => t.features.find((f) => /conference pass/.test(f)));
    expect(passes).toEqual([
      "4 complimentary conference passes",
      "2 complimentary conference passes",
      "1 complimentary conference pass",
      undefined,
    ]);
  });

  it("labels the advertising types' starting prices through the money module", () => {
    expect(AD_TYPES.map(adPriceLabel)).toEqual([
      "From $500/month",
      "From $800/insertion",
      "From $1,200/event",
      "From $2,000/paper",
    ]);
  });

  it("has an audience breakdown that adds up to 100%", () => {
    expect(AUDIENCE_BREAKDOWN.reduce((sum, a) => sum + a.percent, 0)).toBe(100);
  });
});
