import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isValidOrcid, normaliseOrcid, orcidCheckDigit } from "./orcid";

describe("ORCID iDs", () => {
  it("accepts real iDs, including those ending in the X check digit", () => {
    // ORCID's documented examples (Josiah Carberry and the X example from the checksum article).
    expect(isValidOrcid("0000-0002-1825-0097")).toBe(true);
    expect(isValidOrcid("0000-0001-5109-3700")).toBe(true);
    expect(isValidOrcid("0000-0002-1694-233X")).toBe(true);
    expect(orcidCheckDigit("000000021694233")).toBe("X");
    expect(orcidCheckDigit("000000021825009")).toBe("7");
  });

  it("refuses a wrong check digit and any single mistyped digit", () => {
    expect(isValidOrcid("0000-0002-1825-0098")).toBe(false);
    expect(isValidOrcid("0000-0002-1694-2330")).toBe(false);
    const valid = "0000000218250097";
    for (let i = 0; i < 15; i++) {
      const changed = `${valid.slice(0, i)}${(Number(valid[i]) + 1) % 10}${valid.slice(i + 1)}`;
      expect(isValidOrcid(changed), changed).toBe(false);
    }
  });

  it("refuses the wrong shape", () => {
    for (const bad of [
      "",
      "0000-0002-1825",
      "0000-0002-1825-00977",
      "0000_0002_1825_0097",
      "X000-0002-1825-0097",
      "0000-0002-1825-009Y",
      "abcd-efgh-ijkl-mnop",
      "0000 0002 1825 0097",
    ]) {
      expect(isValidOrcid(bad), bad).toBe(false);
    }
  });

  it("normalises hyphen-less, lower-case x and URL forms to the canonical iD", () => {
    expect(normaliseOrcid("0000000218250097")).toBe("0000-0002-1825-0097");
    expect(normaliseOrcid(" 0000-0002-1694-233x ")).toBe("0000-0002-1694-233X");
    expect(normaliseOrcid("https://orcid.org/0000-0002-1825-0097")).toBe("0000-0002-1825-0097");
    expect(normaliseOrcid("orcid.org/0000-0001-5109-3700")).toBe("0000-0001-5109-3700");
  });

  it("accepts every fifteen digits with their computed check character, and no other", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{15}$/), (base) => {
        const check = orcidCheckDigit(base);
        const id = `${base}${check}`;
        expect(isValidOrcid(id)).toBe(true);
        for (const other of "0123456789X") {
          if (other !== check) expect(isValidOrcid(`${base}${other}`)).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });
});
