import { getZodConstraint } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { FORGOT_PASSWORD_CONSTRAINT } from "~/components/auth-forgot-password-form";
import { ForgotPasswordSchema, SignInSchema, SignUpSchema } from "~/components/auth-schemas";
import { SIGN_IN_CONSTRAINT } from "~/components/auth-sign-in-form";
import { SIGN_UP_CONSTRAINT } from "~/components/auth-sign-up-form";
import { validateSignIn, validateSignUp } from "~/components/auth-validators";

describe("the /auth forms without zod in their first load", () => {
  it("render the same HTML constraints the schemas imply", () => {
    expect(SIGN_IN_CONSTRAINT).toEqual(getZodConstraint(SignInSchema));
    expect(SIGN_UP_CONSTRAINT).toEqual(getZodConstraint(SignUpSchema));
    expect(FORGOT_PASSWORD_CONSTRAINT).toEqual(getZodConstraint(ForgotPasswordSchema));
  });

  it("validate in the browser with the spec's messages once the rules are loaded", () => {
    const empty = new FormData();
    empty.set("intent", "sign-in");
    expect(validateSignIn(empty).reply().error).toMatchObject({
      email: ["Email is required"],
      password: ["Password is required"],
    });
    const signUp = new FormData();
    signUp.set("intent", "sign-up");
    signUp.set("email", "not-an-address");
    expect(validateSignUp(signUp).reply().error).toMatchObject({
      fullName: ["Full name is required"],
      email: ["Please enter a valid email address"],
    });
  });
});
