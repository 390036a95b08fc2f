import { describe, expect, it } from "vitest";
import { maskEmail } from "./mask-email";

describe("maskEmail", () => {
  it("keeps the first and last character of the local part", () => {
    expect(maskEmail("jane.doe@example.com")).toBe("j******e@example.com");
    expect(maskEmail("admin@kongamano.org")).toBe("a***n@kongamano.org");
  });

  it("keeps the length of the local part and the whole domain", () => {
    const masked = maskEmail("abcdefghij@sub.example.co.ke");
    expect(masked).toBe("a********j@sub.example.co.ke");
  });

  it("handles three-character local parts", () => {
    expect(maskEmail("bob@example.com")).toBe("b*b@example.com");
  });

  it("never reveals a whole one- or two-character local part", () => {
    expect(maskEmail("a@example.com")).toBe("*@example.com");
    expect(maskEmail("jo@example.com")).toBe("j*@example.com");
  });

  it("uses the last @ (quoted local parts may contain one)", () => {
    expect(maskEmail('"a@b"@example.com')).toBe('"***"@example.com');
  });

  it("counts characters, not UTF-16 units", () => {
    expect(maskEmail("émile@example.fr")).toBe("é***e@example.fr");
  });

  it("masks a value without an @ entirely but its ends", () => {
    expect(maskEmail("")).toBe("");
    expect(maskEmail("nobody")).toBe("n****y");
  });
});
