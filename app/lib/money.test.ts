import { describe, expect, it } from "vitest";
import { formatMinor, MAX_SAFE_MINOR, parseMinorUnits } from "./money";

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

  it("reads the largest amount the form allows exactly, digit for digit", () => {
    // 13 digits and 2 decimals: 15 significant digits, exact as a JS integer.
    expect(parseMinorUnits("9,999,999,999,999.99")).toBe(999_999_999_999_999);
    expect(parseMinorUnits("1234567890123.45")).toBe(123_456_789_012_345);
    expect(parseMinorUnits("0.07")).toBe(7);
    expect(parseMinorUnits("12345678901234")).toBeNull(); // 14 digits: beyond the form's bound
    expect(999_999_999_999_999).toBeLessThan(MAX_SAFE_MINOR);
  });
});
