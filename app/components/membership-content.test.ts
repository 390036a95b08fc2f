import { describe, expect, it } from "vitest";
import { MEMBERSHIP_FAQ, MEMBERSHIP_PLANS } from "./membership-content";

describe("membership figures of spec §9", () => {
  it("prices the membership plans per year", () => {
    expect(MEMBERSHIP_PLANS.map((p) => [p.name, p.price])).toEqual([
      ["Individual", 99],
      ["Professional", 299],
      ["Corporate", 999],
    ]);
    expect(MEMBERSHIP_PLANS.find((p) => p.id === "professional")?.highlight).toBe("Most Popular");
    expect(MEMBERSHIP_PLANS.find((p) => p.id === "corporate")?.note).toBe("Up to 10 team members");
    expect(MEMBERSHIP_FAQ).toHaveLength(4);
  });
});
