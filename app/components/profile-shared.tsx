import type { SubmissionResult } from "@conform-to/react";
import type { AuthToast } from "~/components/auth-shared";

/** What the /profile action answers with. */
export type ProfileActionData = {
  intent: string;
  result?: SubmissionResult<string[]>;
  toast?: AuthToast;
  /** Step two of two-factor enrolment: scan, then confirm with a code. */
  twoFactorSetup?: { qrDataUrl: string; secret: string; uri: string };
  /** Shown once, right after enrolment or regeneration. */
  recoveryCodes?: string[];
  /** The address a verification link was sent to after an e-mail change. */
  emailChangePendingFor?: string;
};

export type ProfileUser = {
  name: string;
  email: string;
  role: "user" | "editor" | "admin";
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  createdAt: string;
  updatedAt: string;
};

export function resultFor(actionData: ProfileActionData | undefined, intent: string) {
  return actionData?.intent === intent ? actionData.result : undefined;
}
