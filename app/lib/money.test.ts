import { describe, expect, it } from "vitest";
import { CURRENCIES } from "./constants";
import {
  CURRENCY_EXPONENTS,
  currencyExponent,
  decimalsRule,
  formatMinor,
  formatMinorAmount,
  formatPriceTag,
  MAX_SAFE_MINOR,
  minorToDecimal,
  parseMinorUnits,
} from "./money";

describe("currency exponents", () => {
  it("gives every currency of the database enum its ISO 4217 decimals", () => {
    expect(Object.keys(CURRENCY_EXPONENTS).sort()).toEqual([...CURRENCIES].sort());
    expect(["KES", "USD", "EUR", "GBP"].map(currencyExponent)).toEqual([2, 2, 2, 2]);
    expect(["UGX", "RWF"].map(currencyExponent)).toEqual([0, 0]);
  });

  it("refuses a currency it does not know instead of guessing two decimals", () => {
    expect(() => parseMinorUnits("10", "JPY")).toThrow(/Unknown currency/);
    expect(() => formatMinor(100, "toString")).toThrow(/Unknown currency/);
  });
});

describe("parsing decimal text into minor units", () => {
  it("reads two-decimal currencies exactly, without floats", () => {
    for (const currency of ["KES", "USD", "EUR", "GBP"]) {
      expect(parseMinorUnits("1234.5", currency)).toBe(123450);
      expect(parseMinorUnits("0.29", currency)).toBe(29); // 0.29 * 100 is 28.999… as a float
      expect(parseMinorUnits("19,500", currency)).toBe(1950000);
      expect(parseMinorUnits("10", currency)).toBe(1000);
      expect(parseMinorUnits("1234.56", currency)).toBe(123456);
    }
  });

  it("reads zero-decimal currencies as whole units", () => {
    for (const currency of ["UGX", "RWF"]) {
      expect(parseMinorUnits("1500", currency)).toBe(1500);
      expect(parseMinorUnits("1,500,000", currency)).toBe(1_500_000);
      expect(parseMinorUnits("0", currency)).toBe(0);
    }
  });

  it("refuses more decimals than the currency has", () => {
    expect(parseMinorUnits("1.234", "KES")).toBeNull();
    expect(parseMinorUnits("0.001", "USD")).toBeNull();
    expect(parseMinorUnits("1500.5", "UGX")).toBeNull();
    expect(parseMinorUnits("1500.00", "RWF")).toBeNull();
    expect(decimalsRule("UGX")).toBe("UGX amounts have no decimals");
    expect(decimalsRule("EUR")).toBe("EUR amounts have at most 2 decimal places");
  });

  it("refuses negative and non-numeric amounts", () => {
    for (const bad of ["-1", "abc", "", "1e3", "NaN", "1.", ".5", "1 000"]) {
      expect(parseMinorUnits(bad, "KES"), bad).toBeNull();
      expect(parseMinorUnits(bad, "UGX"), bad).toBeNull();
    }
  });

  it("reads the largest amount the form allows exactly, digit for digit", () => {
    // 13 digits and 2 decimals: 15 significant digits, exact as a JS integer.
    expect(parseMinorUnits("9,999,999,999,999.99", "KES")).toBe(999_999_999_999_999);
    expect(parseMinorUnits("1234567890123.45", "USD")).toBe(123_456_789_012_345);
    expect(parseMinorUnits("0.07", "GBP")).toBe(7);
    expect(parseMinorUnits("9999999999999", "UGX")).toBe(9_999_999_999_999);
    expect(parseMinorUnits("12345678901234", "KES")).toBeNull(); // 14 digits: beyond the bound
    expect(999_999_999_999_999).toBeLessThan(MAX_SAFE_MINOR);
  });
});

describe("formatting minor units", () => {
  it("labels two-decimal currencies with the code, separators and two decimals", () => {
    expect(formatMinor(123450, "KES")).toBe("KES 1,234.50");
    expect(formatMinor(15000, "USD")).toBe("USD 150.00");
    expect(formatMinor(150000, "KES")).toBe("KES 1,500.00");
    expect(formatMinor(5, "USD")).toBe("USD 0.05");
    expect(formatMinor(0, "GBP")).toBe("GBP 0.00");
    expect(formatMinor(-2500, "EUR")).toBe("EUR -25.00");
    expect(formatMinor(999_999_999_999_999, "KES")).toBe("KES 9,999,999,999,999.99");
  });

  it("labels zero-decimal currencies without a decimal point", () => {
    expect(formatMinor(1500, "UGX")).toBe("UGX 1,500");
    expect(formatMinor(0, "RWF")).toBe("RWF 0");
    expect(formatMinor(-25, "RWF")).toBe("RWF -25");
    expect(formatMinorAmount(1_500_000, "UGX")).toBe("1,500,000");
  });

  it("writes plain decimal text that parses back to the same minor units", () => {
    expect(minorToDecimal(123456, "USD")).toBe("1234.56");
    expect(minorToDecimal(5, "KES")).toBe("0.05");
    expect(minorToDecimal(0, "EUR")).toBe("0.00");
    expect(minorToDecimal(9_999_999_999, "KES")).toBe("99999999.99");
    expect(minorToDecimal(1500, "UGX")).toBe("1500");
    for (const [minor, currency] of [
      [123456, "USD"],
      [7, "GBP"],
      [1500, "RWF"],
      [999_999_999_999_999, "KES"],
    ] as const) {
      expect(parseMinorUnits(minorToDecimal(minor, currency), currency)).toBe(minor);
    }
  });

  it("refuses a non-integer instead of printing a float", () => {
    expect(() => formatMinor(12.5, "KES")).toThrow(/minor units/);
  });

  it("prints marketing price tags with a symbol and no decimals for whole amounts", () => {
    expect(formatPriceTag(2_500_000, "USD")).toBe("$25,000");
    expect(formatPriceTag(9900, "USD")).toBe("$99");
    expect(formatPriceTag(50050, "USD")).toBe("$500.50");
    expect(formatPriceTag(150000, "KES")).toBe("KES 1,500");
    expect(formatPriceTag(1500, "UGX")).toBe("UGX 1,500");
  });
});
