import { parseWithZod } from "@conform-to/zod/v4";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ForgotPasswordSchema, SignInSchema, SignUpSchema } from "~/components/auth-schemas";
import {
  validateForgotPassword,
  validateSignIn,
  validateSignUp,
} from "~/components/auth-validators";

function formData(fields: Record<string, string | undefined>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) data.set(key, value);
  return data;
}

const errorsOf = (submission: { status?: string; error?: unknown }) =>
  submission.status === "error" ? submission.error : null;

// Values people type, and the edge cases of each rule: empty, blanks, limits, odd addresses.
const value = fc.oneof(
  fc.constantFrom("", " ", "  \n", "a", "x".repeat(100), ` ${"x".repeat(100)} `, "x".repeat(101)),
  fc.constantFrom(
    "amani@example.co.ke",
    " amani@example.co.ke ",
    "a@b",
    "a@@b.com",
    ".a@b.com",
    "a b@c.com",
    "halima-at-example",
    `${"a".repeat(244)}@example.com`,
    `${"a".repeat(245)}@example.com`,
  ),
  fc.string({ maxLength: 12 }),
  fc.emailAddress(),
);
const field = fc.option(value, { nil: undefined });

describe("the /auth rules in the browser", () => {
  it("give the same outcome and messages as the actions' Zod schemas", () => {
    const forms = [
      ["sign-in", SignInSchema, validateSignIn, ["email", "password"]],
      [
        "sign-up",
        SignUpSchema,
        validateSignUp,
        ["fullName", "email", "password", "confirmPassword"],
      ],
      ["forgot-password", ForgotPasswordSchema, validateForgotPassword, ["email"]],
    ] as const;
    for (const [intent, schema, validate, names] of forms) {
      fc.assert(
        fc.property(
          fc.tuple(...names.map(() => field)),
          fc.constantFrom(intent, "other", undefined),
          (values, sentIntent) => {
            const data = formData({
              intent: sentIntent,
              ...Object.fromEntries(names.map((name, i) => [name, values[i]])),
            });
            expect(errorsOf(validate(data))).toEqual(errorsOf(parseWithZod(data, { schema })));
          },
        ),
        { numRuns: 400 },
      );
    }
  });

  it("accept a complete form", () => {
    const signUp = formData({
      intent: "sign-up",
      fullName: "Amani Njoroge",
      email: "amani@example.co.ke",
      password: "a long passphrase",
      confirmPassword: "a long passphrase",
    });
    expect(validateSignUp(signUp).status).toBe("success");
  });
});
