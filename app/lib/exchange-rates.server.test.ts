import { afterEach, describe, expect, it } from "vitest";
import { env, parseEnv, setEnv } from "./env.server";
import {
  formatKesRate,
  fromKesMinor,
  kesRate,
  parseKesRates,
  toKesMinor,
} from "./exchange-rates.server";

describe("reading KES_RATES", () => {
  it("keeps each rate's decimal text exactly as the operator wrote it", () => {
    const rates = parseKesRates(" USD=129.50, EUR = 141,gbp=163.2500,UGX=0.0347 ");
    expect([...rates]).toEqual([
      ["USD", "129.50"],
      ["EUR", "141"],
      ["GBP", "163.2500"],
      ["UGX", "0.0347"],
    ]);
    expect(parseKesRates(undefined).size).toBe(0);
    expect(parseKesRates("  ").size).toBe(0);
  });

  it("refuses malformed entries with a message that names the entry and the reason", () => {
    expect(() => parseKesRates("USD=129,50")).toThrow(/entry "50" is not CODE=rate/);
    expect(() => parseKesRates("USD:129.50")).toThrow(/entry "USD:129.50" is not CODE=rate/);
    expect(() => parseKesRates("USD=abc")).toThrow(/entry "USD=abc"/);
    expect(() => parseKesRates("USD=129.50,")).toThrow(/entry "" is not CODE=rate/);
    expect(() => parseKesRates("USD=-1")).toThrow(/entry "USD=-1"/);
    expect(() => parseKesRates("KES=1")).toThrow(/lists KES, which needs no rate/);
    expect(() => parseKesRates("JPY=0.9")).toThrow(/lists JPY, which is not a currency/);
    expect(() => parseKesRates("USD=129.5,USD=130")).toThrow(/lists USD twice/);
    expect(() => parseKesRates("USD=0.000")).toThrow(/rate for USD must be more than 0/);
    expect(() => parseKesRates("USD=1.1234567")).toThrow(/more than 6 decimals/);
  });

  it("stops the start with one line naming KES_RATES and the bad value", () => {
    expect(() => parseEnv({ KES_RATES: "USD=abc", DATA_DIR: "/tmp/x" })).toThrowError(
      /^Invalid configuration: KES_RATES entry "USD=abc" is not CODE=rate .*\(got "USD=abc"\)$/,
    );
    const parsed = parseEnv({ KES_RATES: "USD=129.50", DATA_DIR: "/tmp/kongamano-env-test" });
    expect(parsed.KES_RATES.get("USD")).toBe("129.50");
  });
});

describe("the rate of a currency", () => {
  const original = env();
  afterEach(() => setEnv(original));

  it("comes from the environment; none for an unlisted currency or for KES itself", () => {
    setEnv({ ...original, KES_RATES: parseKesRates("USD=129.50,EUR=141") });
    expect(kesRate("USD")).toBe("129.50");
    expect(kesRate("EUR")).toBe("141");
    expect(kesRate("GBP")).toBeNull();
    expect(kesRate("KES")).toBeNull();
    expect(formatKesRate("129.50", "USD")).toBe("129.50 KES/USD");
  });
});

describe("converting to shillings", () => {
  it("rounds half up to the cent where a float would lose it", () => {
    expect(toKesMinor(29, "USD", "129.50")).toBe(3756); // 37.555 KES
    expect(toKesMinor(47, "USD", "129.50")).toBe(6087); // 60.865 KES; floats give 6086
    expect(toKesMinor(2900, "USD", "129.50")).toBe(375550);
    expect(toKesMinor(0, "USD", "129.50")).toBe(0);
  });

  it("stays exact at the largest amounts an order can hold", () => {
    expect(toKesMinor(9999999999, "USD", "129.50")).toBe(1294999999871);
    expect(toKesMinor(9999999999, "EUR", "141")).toBe(1409999999859);
    expect(() => toKesMinor(Number.MAX_SAFE_INTEGER, "USD", "129.50")).toThrow(/out of range/);
  });

  it("takes rates with no to four decimals", () => {
    expect(toKesMinor(100, "EUR", "141")).toBe(14100);
    expect(toKesMinor(5, "RWF", "0.1")).toBe(50);
    expect(toKesMinor(1, "USD", "129.505")).toBe(130); // 129.505 cents
    expect(toKesMinor(1500, "UGX", "0.0347")).toBe(5205); // UGX has no decimals
    expect(toKesMinor(1, "UGX", "0.0345")).toBe(3);
    expect(toKesMinor(1, "UGX", "0.0350")).toBe(4); // exactly half a cent rounds up
  });

  it("mirrors the rounding for negative amounts (credit notes)", () => {
    expect(toKesMinor(-29, "USD", "129.50")).toBe(-3756);
    expect(toKesMinor(-1, "UGX", "0.0350")).toBe(-4);
  });
});

describe("crediting shillings received against a foreign-currency order", () => {
  it("rounds down so a payer is never credited more than the shillings paid", () => {
    expect(fromKesMinor(375550, "USD", "129.50")).toBe(2900);
    expect(fromKesMinor(100000, "USD", "129.50")).toBe(772); // 7.7220… USD
    expect(fromKesMinor(12949, "USD", "129.50")).toBe(99); // one cent short of a dollar
    expect(fromKesMinor(1, "USD", "129.50")).toBe(0);
    expect(fromKesMinor(100, "UGX", "0.0347")).toBe(28); // 28.81… UGX
    expect(fromKesMinor(1294999999871, "USD", "129.50")).toBe(9999999999);
  });

  it("never credits an amount worth more than what was received, at any rate", () => {
    for (const rate of ["129.50", "141", "163.2501", "0.0347", "1", "0.1"]) {
      for (const currency of ["USD", "UGX"] as const) {
        for (let received = 0; received < 3000; received += 7) {
          const credited = fromKesMinor(received, currency, rate);
          expect(toKesMinor(credited, currency, rate)).toBeLessThanOrEqual(received);
        }
      }
    }
  });

  it("refuses negative or fractional amounts", () => {
    expect(() => fromKesMinor(-1, "USD", "129.50")).toThrow(/cannot be negative/);
    expect(() => fromKesMinor(1.5, "USD", "129.50")).toThrow(/minor units/);
    expect(() => toKesMinor(0.29, "USD", "129.50")).toThrow(/minor units/);
  });
});
