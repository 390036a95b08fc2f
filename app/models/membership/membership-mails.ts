// What members, applicants and invited colleagues are told: one template per message, plain data
// in, subject and text out. A mail to a billing contact (an address the applicant typed) opens
// with a fixed greeting; the member's name greets only the account holder's own address.
import type { MembershipNoticeKind, MembershipPlanId } from "~/db/schema";
import { formatDate } from "~/lib/format";
import { greeting } from "~/models/orders/order-mails";
import { PLAN_NAMES } from "./plans";

type Recipient = {
  /** The member's name when the mail goes to the account holder's own address, else null. */
  greetName: string | null;
};

export function applicationApprovedMail(
  facts: Recipient & {
    plan: MembershipPlanId;
    student: boolean;
    invoiceNumber: string;
    profileUrl: string;
  },
) {
  return {
    subject: "Your Kongamano membership application is approved",
    text: [
      greeting(facts.greetName),
      "",
      `Your application for the ${PLAN_NAMES[facts.plan]} membership is approved${facts.student ? ", with the 50% student discount" : ""}.`,
      `Invoice ${facts.invoiceNumber} follows in a separate e-mail; your membership starts when it is paid.`,
      "",
      `Your profile: ${facts.profileUrl}`,
    ].join("\n"),
  };
}

export function applicationRejectedMail(
  facts: Recipient & { plan: MembershipPlanId; reason: string; applyUrl: string },
) {
  return {
    subject: "Your Kongamano membership application",
    text: [
      greeting(facts.greetName),
      "",
      `We could not approve your application for the ${PLAN_NAMES[facts.plan]} membership.`,
      `Reason: ${facts.reason}`,
      "",
      `You are welcome to apply again: ${facts.applyUrl}`,
    ].join("\n"),
  };
}

export function upgradeApprovedMail(
  facts: Recipient & {
    from: MembershipPlanId;
    to: MembershipPlanId;
    invoiceNumber: string;
    profileUrl: string;
  },
) {
  return {
    subject: "Your Kongamano membership upgrade is approved",
    text: [
      greeting(facts.greetName),
      "",
      `Your upgrade from the ${PLAN_NAMES[facts.from]} to the ${PLAN_NAMES[facts.to]} membership is approved.`,
      `Invoice ${facts.invoiceNumber} for the prorated difference follows in a separate e-mail; your plan changes the day it is paid.`,
      "",
      `Your profile: ${facts.profileUrl}`,
    ].join("\n"),
  };
}

export function upgradeRejectedMail(
  facts: Recipient & {
    plan: MembershipPlanId;
    to: MembershipPlanId;
    reason: string;
    profileUrl: string;
  },
) {
  return {
    subject: "Your Kongamano membership upgrade",
    text: [
      greeting(facts.greetName),
      "",
      `We could not approve your upgrade to the ${PLAN_NAMES[facts.to]} membership.`,
      `Reason: ${facts.reason}`,
      `Your ${PLAN_NAMES[facts.plan]} membership continues unchanged.`,
      "",
      `Your profile: ${facts.profileUrl}`,
    ].join("\n"),
  };
}

/** To the invited colleague (an address the member typed): a fixed greeting. */
export function seatInvitationMail(facts: {
  memberName: string;
  organisationName: string | null;
  acceptUrl: string;
  expiresAt: Date;
}) {
  return {
    subject: `${facts.organisationName ?? "Your organisation"} added you to its Kongamano membership`,
    text: [
      "Hello,",
      "",
      `${facts.memberName} added you to the Corporate membership of ${facts.organisationName ?? "their organisation"}.`,
      `Accept your seat (sign in or create an account with this e-mail address): ${facts.acceptUrl}`,
      `The invitation works until ${formatDate(facts.expiresAt)}.`,
    ].join("\n"),
  };
}

const NOTICE_SUBJECTS: Record<MembershipNoticeKind, string> = {
  renewal_30d: "Your Kongamano membership ends in 30 days",
  renewal_7d: "Your Kongamano membership ends in 7 days",
  ends_today: "Your Kongamano membership ends today",
  grace: "Your Kongamano membership has ended: renew to keep your benefits",
};

/** The renewal notices (30 and 7 days before the end, on the end day, into grace). */
export function renewalNoticeMail(
  facts: Recipient & {
    kind: MembershipNoticeKind;
    plan: MembershipPlanId;
    endsAt: Date;
    graceEnd: Date;
    renewUrl: string;
  },
) {
  const { kind, endsAt, graceEnd } = facts;
  const when =
    kind === "grace"
      ? `ended on ${formatDate(endsAt)}. Your benefits continue until ${formatDate(graceEnd)}`
      : kind === "ends_today"
        ? `ends today, ${formatDate(endsAt)}. Your benefits continue until ${formatDate(graceEnd)}`
        : `ends on ${formatDate(endsAt)}`;
  return {
    subject: NOTICE_SUBJECTS[kind],
    text: [
      greeting(facts.greetName),
      "",
      `Your ${PLAN_NAMES[facts.plan]} membership ${when}.`,
      "",
      `Renew in one click (no password needed): ${facts.renewUrl}`,
      "The link opens your renewal invoice; nothing is charged until you pay it.",
      `The link works until ${formatDate(graceEnd)}.`,
    ].join("\n"),
  };
}
