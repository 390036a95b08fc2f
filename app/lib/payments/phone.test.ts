import { describe, expect, it } from "vitest";
import { maskPhone, normaliseKenyanPhone } from "./phone";

describe("normaliseKenyanPhone", () => {
  it.each([
    ["0712345678", "254712345678"],
    ["0712 345 678", "254712345678"],
    ["0112345678", "254112345678"],
    ["+254712345678", "254712345678"],
    ["+254 712 345 678", "254712345678"],
    ["254712345678", "254712345678"],
    ["254112345678", "254112345678"],
    ["712345678", "254712345678"],
    [" 0712-345-678 ", "254712345678"],
  ])("%s → %s", (input, expected) => {
    expect(normaliseKenyanPhone(input)).toBe(expected);
  });

  it.each([
    "",
    "0812345678",
    "071234567",
    "07123456789",
    "+255712345678",
    "2540712345678",
    "07123abc78",
    "+1 415 555 0100",
  ])("refuses %j", (input) => {
    expect(normaliseKenyanPhone(input)).toBeNull();
  });
});

describe("maskPhone", () => {
  it("keeps the country prefix and the last three digits", () => {
    expect(maskPhone("254712345678")).toBe("2547•••••678");
    expect(maskPhone(null)).toBe("");
  });
});
