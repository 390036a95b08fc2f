/**
 * ORCID iDs (https://support.orcid.org/hc/en-us/articles/360006897674): sixteen characters in four
 * groups of four, the last one a check digit (0–9 or X for ten) computed with ISO/IEC 7064 MOD 11-2
 * over the first fifteen digits. Authors type them with or without the hyphens, or as the
 * https://orcid.org/ URL; we keep the canonical hyphenated form.
 */

const ORCID_SHAPE = /^(\d{4})-?(\d{4})-?(\d{4})-?(\d{3}[\dX])$/;
const ORCID_URL_PREFIX = /^(?:https?:\/\/)?(?:www\.)?orcid\.org\//i;

/** The ISO 7064 MOD 11-2 check character of a string of digits ('X' stands for ten). */
export function orcidCheckDigit(baseDigits: string): string {
  let total = 0;
  for (const char of baseDigits) {
    total = (total + Number(char)) * 2;
  }
  const result = (12 - (total % 11)) % 11;
  return result === 10 ? "X" : String(result);
}

/**
 * The canonical form `0000-0002-1825-0097` of an ORCID iD as typed (hyphens optional, a lower-case
 * x accepted, an orcid.org URL accepted), or null when it has the wrong shape or check digit.
 */
export function normaliseOrcid(input: string): string | null {
  const trimmed = input.trim().replace(ORCID_URL_PREFIX, "").toUpperCase();
  const match = ORCID_SHAPE.exec(trimmed);
  if (!match) return null;
  const digits = match.slice(1, 5).join("");
  if (orcidCheckDigit(digits.slice(0, 15)) !== digits[15]) return null;
  return match.slice(1, 5).join("-");
}

/** Whether the text is a well-formed ORCID iD whose check digit is right. */
export function isValidOrcid(input: string): boolean {
  return normaliseOrcid(input) !== null;
}
