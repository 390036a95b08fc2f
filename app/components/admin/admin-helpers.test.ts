import { describe, expect, it } from "vitest";
import { fitInside, formatBytes } from "./image-uploader";
import { addTag } from "./tags-input";

describe("fitInside (spec §9: bounds 1200x630, proportional, never enlarged)", () => {
  it("scales a wide and a tall image down proportionally", () => {
    expect(fitInside(2400, 1400, 1200, 630)).toEqual({ width: 1080, height: 630 });
    expect(fitInside(4000, 1000, 1200, 630)).toEqual({ width: 1200, height: 300 });
    expect(fitInside(1000, 3000, 1200, 630)).toEqual({ width: 210, height: 630 });
  });

  it("leaves an image inside the bounds alone", () => {
    expect(fitInside(800, 600, 1200, 630)).toEqual({ width: 800, height: 600 });
  });
});

describe("addTag (spec §5)", () => {
  it("adds the trimmed tag, ignores empties and duplicates", () => {
    expect(addTag(["ai"], "  data ")).toEqual(["ai", "data"]);
    expect(addTag(["ai"], "ai")).toEqual(["ai"]);
    expect(addTag(["ai"], "   ")).toEqual(["ai"]);
  });
});

describe("formatBytes", () => {
  it("reports sizes the way the 'Image Resized' toast shows them", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(310 * 1024)).toBe("310 KB");
    expect(formatBytes(2.4 * 1024 * 1024)).toBe("2.4 MB");
  });
});
