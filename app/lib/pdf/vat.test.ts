import { describe, expect, it } from "vitest";
import { vatSplit } from "./vat";

describe("VAT inside VAT-inclusive prices", () => {
  it("takes Kenya's 16% out of a gross amount, to the cent", () => {
    expect(vatSplit(10_000_00, "16")).toEqual({
      netMinor: 8_620_69,
      vatMinor: 1_379_31,
      grossMinor: 10_000_00,
    });
    expect(vatSplit(0, "16")).toEqual({ netMinor: 0, vatMinor: 0, grossMinor: 0 });
  });

  it("reads rates with decimals exactly and rounds an exact half up", () => {
    expect(vatSplit(1_000_00, "12.5").vatMinor).toBe(111_11); // 11111.11…
    expect(vatSplit(3, "20").vatMinor).toBe(1); // exactly 0.5
    expect(vatSplit(-3, "20").vatMinor).toBe(-1); // a credit mirrors its invoice
    expect(vatSplit(9_999_999_999_99, "16").vatMinor).toBe(1_379_310_344_83); // …482.62: the product passes 2^53
  });

  it("always adds up: net + VAT = gross", () => {
    for (const rate of ["16", "8", "12.5", "7.25"]) {
      for (let gross = 0; gross < 5000; gross += 37) {
        const { netMinor, vatMinor } = vatSplit(gross, rate);
        expect(netMinor + vatMinor).toBe(gross);
        expect(vatMinor).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it("refuses what is not a rate or not minor units", () => {
    expect(() => vatSplit(100, "16%")).toThrow(/Not a VAT rate/);
    expect(() => vatSplit(1.5, "16")).toThrow(/minor units/);
  });
});
