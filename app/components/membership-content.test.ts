import { describe, expect, it } from "vitest";
import { formatPriceTag } from "~/lib/money";
import { MEMBERSHIP_CURRENCY, PLAN_PRICE_MINOR } from "~/models/membership/plans";
import { MEMBERSHIP_FAQ, MEMBERSHIP_PLANS } from "./membership-content";

describe("membership figures of spec §9", () => {
  it("prices the membership plans per year", () => {
    // The page shows what the application charges (one price list).
    const label = (id: keyof typeof PLAN_PRICE_MINOR) =>
      formatPriceTag(PLAN_PRICE_MINOR[id], MEMBERSHIP_CURRENCY);
    expect(MEMBERSHIP_PLANS.map((p) => [p.name, label(p.id)])).toEqual([
      ["Individual", "$99"],
      ["Professional", "$299"],
      ["Corporate", "$999"],
    ]);
    expect(MEMBERSHIP_PLANS.find((p) => p.id === "professional")?.highlight).toBe("Most Popular");
    expect(MEMBERSHIP_PLANS.find((p) => p.id === "corporate")?.note).toBe("Up to 10 team members");
    expect(MEMBERSHIP_FAQ).toHaveLength(4);
  });
});
