import { describe, expect, it } from "vitest";
import { formatCompact } from "~/lib/format";
import { compact } from "./count-up";

describe("compact", () => {
  it("formats exactly like formatCompact: k format from 1000 (spec §9)", () => {
    for (const n of [0, 7, 78, 999, 1000, 1234, 4999, 5000, 12_500, 250_000]) {
      expect(compact(n), String(n)).toBe(formatCompact(n));
    }
    expect(compact(5000)).toBe("5k");
    expect(compact(999)).toBe("999");
  });
});
