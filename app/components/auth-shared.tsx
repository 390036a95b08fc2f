import type { SubmissionResult } from "@conform-to/react";
import { useEffect } from "react";
import { Button, type ButtonProps } from "~/components/ui/button";
import { notify } from "~/lib/notify";

/** Spec §5: what a successful sign-up says (toast and confirmation). */
export const SIGN_UP_SUCCESS = {
  title: "Account created!",
  description: "Please check your email to verify your account.",
} as const;

export type AuthToast = { type: "success" | "error"; title: string; description?: string };

/** What the /auth, /auth/two-factor and /auth/reset-password actions answer with. */
export type AuthActionData = {
  intent: string;
  result: SubmissionResult<string[]>;
  toast?: AuthToast;
  /** A sign-in was refused with wrong credentials: the address to resend a verification link to. */
  unverifiedEmail?: string;
  /** A mail went out (sign-up, reset, verification): show the confirmation instead of the form. */
  done?: boolean;
};

/** Shows the action's toast once per answer (spec §8 titles and messages). */
export function useAuthToast(actionData: { toast?: AuthToast } | undefined) {
  useEffect(() => {
    const t = actionData?.toast;
    if (!t) return;
    notify(t.type, t.title, { description: t.description });
  }, [actionData]);
}

/** A submit button that reads `pendingLabel` while its form is submitting. */
export function SubmitButton({
  pending,
  label,
  pendingLabel,
  ...props
}: ButtonProps & { pending: boolean; label: string; pendingLabel: string }) {
  return (
    <Button type="submit" aria-disabled={pending || undefined} {...props}>
      {pending ? pendingLabel : label}
    </Button>
  );
}
