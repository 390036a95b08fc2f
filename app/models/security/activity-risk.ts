/**
 * What counts as a security event, and how risky an audit-log entry looks (Security Center).
 * The accounts code writes 'auth.sign_in' / 'auth.sign_in_failed'; role changes are
 * 'user.role_change'; invitations 'invitation.*'. 2FA, password and account-deletion actions are
 * recognised by name so new variants (enable/disable, reset/change) count without a code change.
 */
export type RiskLevel = "low" | "medium" | "high";

export const SIGN_IN_ACTION = "auth.sign_in";
export const SIGN_IN_FAILED_ACTION = "auth.sign_in_failed";
export const ROLE_CHANGE_ACTION = "user.role_change";
export const FORGED_CALLBACK_ACTION = "mpesa.callback_forged";
/** A card or PayPal webhook with a bad signature, or one the provider's own API contradicts (issue 31). */
export const FORGED_WEBHOOK_ACTIONS = ["paystack.webhook_forged", "paypal.webhook_forged"] as const;

/** This many failed sign-ins for one e-mail or one address within the window is high risk. */
export const REPEATED_FAILURE_THRESHOLD = 5;

/** Regular expression (PostgreSQL `~*`, case-insensitive) over `action` selecting security events. */
export const SECURITY_EVENT_PATTERN =
  "^(auth\\.sign_in_failed|user\\.role_change|invitation\\..+|mpesa\\.callback_forged|paystack\\.webhook_forged|paypal\\.webhook_forged)$|two_factor|2fa|mfa|password|^(user|account|auth)\\.[a-z_]*delet";

export type RiskInput = {
  action: string;
  details?: Record<string, unknown> | null;
  /** Failed sign-ins in the window for this entry's e-mail, and for its address. */
  failuresForEmail?: number;
  failuresForIp?: number;
};

export function riskLevel(entry: RiskInput): RiskLevel {
  const action = entry.action.toLowerCase();
  const details = entry.details ?? {};
  if (action === SIGN_IN_FAILED_ACTION) {
    const repeated = Math.max(entry.failuresForEmail ?? 0, entry.failuresForIp ?? 0);
    return repeated >= REPEATED_FAILURE_THRESHOLD ? "high" : "medium";
  }
  if (action === ROLE_CHANGE_ACTION) return details.to === "admin" ? "high" : "medium";
  // A payment callback Daraja does not confirm (issue 34): someone tried to make money appear.
  if (action === FORGED_CALLBACK_ACTION) return "high";
  if ((FORGED_WEBHOOK_ACTIONS as readonly string[]).includes(action)) return "high";
  if (/two_factor|2fa|mfa/.test(action)) return /disable|remove/.test(action) ? "high" : "low";
  if (action.startsWith("invitation.")) {
    return action === "invitation.create" && details.role === "admin" ? "high" : "low";
  }
  if (/password/.test(action)) return "medium";
  if (/delet/.test(action)) return "medium";
  return "low";
}

export const RISK_LABELS: Record<RiskLevel, string> = {
  low: "Low",
  medium: "Medium",
  high: "High",
};
