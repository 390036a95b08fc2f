// Membership plans and the lifecycle's calendar (spec §9, issue 16). Shared by server and UI.
import type { MembershipNoticeKind, MembershipPlanId, MembershipState } from "~/db/schema";

export const MEMBERSHIP_CURRENCY = "USD" as const;

/** Yearly prices in minor units (spec §9: Individual 99, Professional 299, Corporate 999). */
export const PLAN_PRICE_MINOR: Record<MembershipPlanId, number> = {
  individual: 99_00,
  professional: 299_00,
  corporate: 999_00,
};

export const PLAN_NAMES: Record<MembershipPlanId, string> = {
  individual: "Individual",
  professional: "Professional",
  corporate: "Corporate",
};

export const PLAN_IDS = ["individual", "professional", "corporate"] as const;

/** Corporate: up to 10 team members (spec §9). */
export const CORPORATE_SEATS = 10;
/** A seat invitation not accepted within this many days is void (the contact can invite again). */
export const SEAT_INVITATION_DAYS = 30;
/** FAQ: 50% student discount. */
export const STUDENT_DISCOUNT_PERCENT = 50;

const DAY = 86_400_000;
/** Renewal opens this long before the end of a term… */
export const RENEWAL_OPENS_DAYS = 30;
/** …and benefits continue this long after it (grace), then the membership lapses. */
export const GRACE_DAYS = 30;
/** How long a new member's invoice is held before the unpaid order expires. */
export const JOIN_HOLD_DAYS = 14;

/** When each renewal notice is due, relative to the end of the term. */
export const NOTICE_OFFSET_DAYS: Record<MembershipNoticeKind, number> = {
  renewal_30d: -30,
  renewal_7d: -7,
  ends_today: 0,
  grace: 14,
};
export const NOTICE_KINDS = Object.keys(NOTICE_OFFSET_DAYS) as MembershipNoticeKind[];
export const NOTICE_LABELS: Record<MembershipNoticeKind, string> = {
  renewal_30d: "30 days before the end",
  renewal_7d: "7 days before the end",
  ends_today: "On the end day",
  grace: "In grace",
};

export const MEMBERSHIP_STATE_LABELS: Record<MembershipState, string> = {
  applied: "Applied",
  awaiting_payment: "Awaiting payment",
  active: "Active",
  renewal_open: "Renewal open",
  grace: "Grace period",
  lapsed: "Lapsed",
  rejected: "Rejected",
  cancelled: "Cancelled",
};

/** The states in which a person has member benefits. */
export const BENEFIT_STATES: readonly MembershipState[] = ["active", "renewal_open", "grace"];

export function addDays(date: Date, days: number) {
  return new Date(date.getTime() + days * DAY);
}

/** One year later, same calendar day (29 Feb → 28 Feb). */
export function addOneYear(date: Date) {
  const next = new Date(date);
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  if (next.getUTCDate() !== date.getUTCDate()) next.setUTCDate(0);
  return next;
}

export function noticeDueAt(termEnd: Date, kind: MembershipNoticeKind) {
  return addDays(termEnd, NOTICE_OFFSET_DAYS[kind]);
}

export function planPriceMinor(plan: MembershipPlanId, student: boolean) {
  const price = PLAN_PRICE_MINOR[plan];
  return student ? Math.round((price * (100 - STUDENT_DISCOUNT_PERCENT)) / 100) : price;
}

/**
 * FAQ: "upgrades pay the prorated difference": the price difference times the share of the
 * current term still to run, in whole minor units (rounded up, never below 1).
 */
export function upgradeAmountMinor(
  from: MembershipPlanId,
  to: MembershipPlanId,
  student: boolean,
  term: { startsAt: Date; endsAt: Date },
  now: Date,
) {
  const difference = planPriceMinor(to, student) - planPriceMinor(from, student);
  const total = term.endsAt.getTime() - term.startsAt.getTime();
  const left = Math.max(0, term.endsAt.getTime() - now.getTime());
  if (difference <= 0 || left === 0) return 0;
  return Math.max(1, Math.ceil((difference * left) / total));
}
