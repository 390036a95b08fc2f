import { parse } from "@conform-to/react";

/*
 * The /auth forms' rules for the browser, loaded after hydration (see useDeferredValidation):
 * the same outcomes and messages as the Zod schemas the actions use (auth-schemas.ts, spec §5),
 * written out so that the page does not load Zod (24 KB brotli). auth-validators.test.ts checks
 * that both agree on every kind of input.
 */

type Payload = Record<string, unknown>;
type Errors = Record<string, string[]>;

/** Zod 4's default e-mail pattern (`z.email()`), so both sides accept the same addresses. */
const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

const text = (payload: Payload, key: string) =>
  typeof payload[key] === "string" ? (payload[key] as string) : "";

function checkIntent(payload: Payload, intent: string, errors: Errors) {
  if (payload.intent !== intent) errors.intent = [`Invalid input: expected "${intent}"`];
}

function checkEmail(payload: Payload, errors: Errors) {
  const email = text(payload, "email").trim();
  if (!email) errors.email = ["Email is required"];
  else if (email.length > 254 || !EMAIL_PATTERN.test(email)) {
    errors.email = ["Please enter a valid email address"];
  }
}

function checkRequired(payload: Payload, key: string, message: string, errors: Errors) {
  if (!text(payload, key)) errors[key] = [message];
}

function validate(formData: FormData, check: (payload: Payload, errors: Errors) => void) {
  return parse<Payload, string[]>(formData, {
    resolve: (payload) => {
      const errors: Errors = {};
      check(payload, errors);
      return Object.keys(errors).length ? { error: errors } : { value: payload };
    },
  });
}

export const validateSignIn = (formData: FormData) =>
  validate(formData, (payload, errors) => {
    checkIntent(payload, "sign-in", errors);
    checkEmail(payload, errors);
    checkRequired(payload, "password", "Password is required", errors);
  });

export const validateSignUp = (formData: FormData) =>
  validate(formData, (payload, errors) => {
    checkIntent(payload, "sign-up", errors);
    const fullName = text(payload, "fullName").trim();
    if (!fullName) errors.fullName = ["Full name is required"];
    else if (fullName.length > 100) {
      errors.fullName = ["Full name must be at most 100 characters"];
    }
    checkEmail(payload, errors);
    checkRequired(payload, "password", "Password is required", errors);
    checkRequired(payload, "confirmPassword", "Please confirm your password", errors);
  });

export const validateForgotPassword = (formData: FormData) =>
  validate(formData, (payload, errors) => {
    checkIntent(payload, "forgot-password", errors);
    checkEmail(payload, errors);
  });
