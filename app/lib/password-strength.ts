/** The server's minimum password length (NIST SP 800-63B); the meter itself only advises. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** The special characters the strength meter counts (spec §5), exactly these. */
export const SPECIAL_CHARACTERS = '!@#$%^&*(),.?":{}|<>';

export type StrengthLabel = "Weak" | "Medium" | "Strong";

export type PasswordStrength = {
  /** Percent of the five criteria met: 0, 20, 40, 60, 80 or 100. */
  score: number;
  label: StrengthLabel;
  checks: { id: string; label: string; met: boolean }[];
};

const CRITERIA: { id: string; label: string; test: (password: string) => boolean }[] = [
  { id: "length", label: "At least 8 characters", test: (p) => p.length >= 8 },
  { id: "uppercase", label: "An uppercase letter", test: (p) => /[A-Z]/.test(p) },
  { id: "lowercase", label: "A lowercase letter", test: (p) => /[a-z]/.test(p) },
  { id: "number", label: "A number", test: (p) => /[0-9]/.test(p) },
  {
    id: "special",
    label: `A special character (${SPECIAL_CHARACTERS})`,
    test: (p) => [...p].some((c) => SPECIAL_CHARACTERS.includes(c)),
  },
];

/** Band of a score (spec §5): below 40 Weak, 40 to under 70 Medium, 70 or more Strong. */
export function strengthLabel(score: number): StrengthLabel {
  if (score < 40) return "Weak";
  if (score < 70) return "Medium";
  return "Strong";
}

/** Advisory strength of a password (spec §5); it never blocks anything. */
export function passwordStrength(password: string): PasswordStrength {
  const checks = CRITERIA.map((c) => ({ id: c.id, label: c.label, met: c.test(password) }));
  const score = (checks.filter((c) => c.met).length / CRITERIA.length) * 100;
  return { score, label: strengthLabel(score), checks };
}
