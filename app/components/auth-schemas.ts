import { z } from "zod";

/*
 * The /auth forms' rules (spec §5), shared by the actions and, loaded after hydration, by the
 * browser (auth-validators.ts). The form components never import this module statically: zod
 * would add 26 KB gzip to the page's first load.
 */

export const emailField = z
  .string({ error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254, "Please enter a valid email address")
  .pipe(z.email("Please enter a valid email address"));

export const fullNameField = z
  .string({ error: "Full name is required" })
  .trim()
  .min(1, "Full name is required")
  .max(100, "Full name must be at most 100 characters");

/** Sign-in (spec §5): e-mail and password required. */
export const SignInSchema = z.object({
  intent: z.literal("sign-in"),
  email: emailField,
  password: z.string({ error: "Password is required" }).min(1, "Password is required"),
  redirectTo: z.string().optional(),
});

export const ResendVerificationSchema = z.object({
  intent: z.literal("resend-verification"),
  email: emailField,
  /** The page the verification link brings them back to. */
  redirectTo: z.string().optional(),
});

/**
 * Sign-up (spec §5): all four fields required. No rule here compares the passwords: when they
 * differ the submission stops silently (no message, no call), see `onSubmit` and the action.
 * The server's minimum length (8) is enforced by better-auth, never by the advisory meter.
 */
export const SignUpSchema = z.object({
  intent: z.literal("sign-up"),
  fullName: fullNameField,
  email: emailField,
  password: z.string({ error: "Password is required" }).min(1, "Password is required"),
  confirmPassword: z
    .string({ error: "Please confirm your password" })
    .min(1, "Please confirm your password"),
  plan: z.string().optional(),
  /** The page the verification link brings them back to (the registration, invitation…). */
  redirectTo: z.string().optional(),
});

export const ForgotPasswordSchema = z.object({
  intent: z.literal("forgot-password"),
  email: emailField,
});
