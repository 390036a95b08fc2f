// A registration's states as organisers read them (shared by the server queries and the screens).
import type { RegistrationState } from "~/db/schema";

export const REGISTRATION_STATES = [
  "confirmed",
  "awaiting_payment",
  "cancelled",
  "expired",
] as const satisfies readonly RegistrationState[];

export const REGISTRATION_STATE_LABELS: Record<RegistrationState, string> = {
  confirmed: "Confirmed",
  awaiting_payment: "Awaiting payment",
  cancelled: "Cancelled",
  expired: "Expired",
};

export const REGISTRATION_STATE_BADGES: Record<
  RegistrationState,
  "success" | "warning" | "destructive" | "neutral"
> = {
  confirmed: "success",
  awaiting_payment: "warning",
  cancelled: "destructive",
  expired: "neutral",
};
