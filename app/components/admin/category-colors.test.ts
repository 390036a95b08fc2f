import { expect, it } from "vitest";
import { contrastRatio, isHexColor, readableTextColor } from "./category-colors";

it("picks black or white text with at least 4.5:1 contrast for any colour", () => {
  for (let r = 0; r < 256; r += 17) {
    for (let g = 0; g < 256; g += 17) {
      for (let b = 0; b < 256; b += 17) {
        const hex = `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
        expect(contrastRatio(hex, readableTextColor(hex))).toBeGreaterThanOrEqual(4.5);
      }
    }
  }
  expect(readableTextColor("#0B5FFF")).toBe("#FFFFFF");
  expect(readableTextColor("#FDE047")).toBe("#000000");
});

it("recognises #RRGGBB colours only", () => {
  expect(isHexColor("#0B5FFF")).toBe(true);
  expect(isHexColor("#0B5FF")).toBe(false);
  expect(isHexColor(null)).toBe(false);
});
