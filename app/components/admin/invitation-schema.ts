import { z } from "zod";
import { ROLES } from "~/lib/roles";

/** The invite form (spec §5 'Invite form'; §9: roles user (default), editor, admin). */
export const InviteFormSchema = z.object({
  email: z
    .string({ error: "Please enter an email address" })
    .trim()
    .min(1, "Please enter an email address")
    .max(254, "Email address is too long")
    .pipe(z.email({ error: "Please enter a valid email address" })),
  role: z.enum(ROLES, { error: "Choose a role" }).default("user"),
});

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Accepting an invitation: the e-mail is fixed by the invitation, so only name and password. */
export const AcceptInvitationSchema = z
  .object({
    fullName: z
      .string({ error: "Full name is required" })
      .trim()
      .min(1, "Full name is required")
      .max(100, "Full name must be at most 100 characters"),
    password: z
      .string({ error: "Password is required" })
      .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters long.`)
      .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters long.`),
    confirmPassword: z.string({ error: "Please confirm your password" }),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ["confirmPassword"],
    message: "Passwords do not match.",
  });
