import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { passwordStrength, SPECIAL_CHARACTERS, strengthLabel } from "./password-strength";

describe("passwordStrength (spec §5)", () => {
  it.each([
    ["", 0, "Weak"],
    ["abc", 20, "Weak"], // lowercase
    ["abcdefgh", 40, "Medium"], // length + lowercase
    ["Abcdefgh", 60, "Medium"], // + uppercase
    ["Abcdefg1", 80, "Strong"], // + number
    ["Abcdef1!", 100, "Strong"], // + special
    ["ABC123", 40, "Medium"], // uppercase + number
  ])("%j scores %i (%s)", (password, score, label) => {
    const result = passwordStrength(password);
    expect(result.score).toBe(score);
    expect(result.label).toBe(label);
  });

  it("counts exactly the listed special characters", () => {
    for (const c of SPECIAL_CHARACTERS) {
      expect(passwordStrength(c).checks.find((x) => x.id === "special")?.met).toBe(true);
    }
    for (const c of ["-", "_", "+", "=", "[", "]", "~", "`", "'", "/", "\\", ";", " "]) {
      expect(passwordStrength(c).checks.find((x) => x.id === "special")?.met).toBe(false);
    }
    expect(SPECIAL_CHARACTERS).toBe('!@#$%^&*(),.?":{}|<>');
  });

  it("needs 8 characters for the length criterion", () => {
    expect(passwordStrength("1234567").checks[0].met).toBe(false);
    expect(passwordStrength("12345678").checks[0].met).toBe(true);
  });

  it("bands scores at 40 and 70", () => {
    expect(strengthLabel(39.9)).toBe("Weak");
    expect(strengthLabel(40)).toBe("Medium");
    expect(strengthLabel(69.9)).toBe("Medium");
    expect(strengthLabel(70)).toBe("Strong");
  });

  it("always scores a multiple of 20 between 0 and 100 with the matching band", () => {
    fc.assert(
      fc.property(fc.string(), (password) => {
        const { score, label, checks } = passwordStrength(password);
        expect(score % 20).toBe(0);
        expect(score).toBe(checks.filter((c) => c.met).length * 20);
        expect(label).toBe(strengthLabel(score));
      }),
    );
  });
});
