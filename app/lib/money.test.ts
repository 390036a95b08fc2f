import { describe, expect, it } from "vitest";
import { balanceOf, formatMinor, parseMinorUnits } from "./money";

describe("money in minor units", () => {
  it("parses decimal text exactly, without floats", () => {
    expect(parseMinorUnits("1234.5")).toBe(123450);
    expect(parseMinorUnits("0.29")).toBe(29); // 0.29 * 100 is 28.999… as a float
    expect(parseMinorUnits("19,500")).toBe(1950000);
    expect(parseMinorUnits("10")).toBe(1000);
  });

  it("refuses negative, over-precise and non-numeric amounts", () => {
    for (const bad of ["-1", "1.234", "abc", "", "1e3", "NaN"]) {
      expect(parseMinorUnits(bad), bad).toBeNull();
    }
  });

  it("formats with thousands separators and two decimals", () => {
    expect(formatMinor(123450, "KES")).toBe("KES 1,234.50");
    expect(formatMinor(5, "USD")).toBe("USD 0.05");
    expect(formatMinor(-2500, "EUR")).toBe("EUR -25.00");
  });

  it("shows part payments as balance due and over-payments as credit", () => {
    expect(balanceOf(10000, 4000)).toEqual({ balance: 6000, dueMinor: 6000, creditMinor: 0 });
    expect(balanceOf(10000, 12500)).toEqual({ balance: -2500, dueMinor: 0, creditMinor: 2500 });
  });
});
