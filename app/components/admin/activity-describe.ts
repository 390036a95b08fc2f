import { ROLE_LABELS } from "~/lib/roles";

type Describable = {
  action: string;
  entity: string | null;
  details: Record<string, unknown> | null;
};

const roleLabel = (value: unknown) =>
  typeof value === "string" && Object.hasOwn(ROLE_LABELS, value)
    ? ROLE_LABELS[value as keyof typeof ROLE_LABELS]
    : String(value ?? "?");

const FIXED: Record<string, string> = {
  "auth.sign_in": "Signed in",
  "auth.sign_in_failed": "Failed sign-in",
  "auth.sign_out": "Signed out",
  "auth.two_factor_challenge": "Password accepted, waiting for the second factor",
  "auth.password_reset": "Password reset",
  "invitation.revoke": "Invitation revoked",
  "invitation.accepted": "Invitation accepted",
  "system.seed": "Demo content loaded",
};

/** 'contact_message' → 'Contact message'. */
export function entityLabel(entity: string) {
  const words = entity.replace(/[_-]/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const PAST: Record<string, string> = {
  create: "created",
  update: "updated",
  delete: "deleted",
  fees_replace: "fees saved",
  fee_delete: "fee removed",
};

/** One line for a person reading the log: 'Role changed from User to Editor'. */
export function describeActivity({ action, entity, details }: Describable): string {
  const d = details ?? {};
  if (action === "user.role_change") {
    return `Role changed from ${roleLabel(d.from)} to ${roleLabel(d.to)}`;
  }
  if (action === "invitation.create") return `Invitation sent (${roleLabel(d.role)})`;
  if (action === "auth.sign_in_failed" && d.reason === "rate_limited") {
    return "Failed sign-in (too many attempts)";
  }
  if (FIXED[action]) return FIXED[action];
  if (/two_factor/.test(action)) {
    return /disable/.test(action)
      ? "Two-factor authentication turned off"
      : "Two-factor authentication changed";
  }
  const [subject = entity ?? "item", verb = ""] = action.split(".");
  const done = PAST[verb] ?? verb.replace(/_/g, " ");
  const words = `${subject.replace(/[_-]/g, " ")} ${done}`.trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
