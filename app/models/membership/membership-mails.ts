// What members, applicants and invited colleagues are told: one template per message, plain data
// in, subject, text and HTML out (mail-layout). A mail to a billing contact (an address the
// applicant typed) opens with a fixed greeting; the member's name greets only the account
// holder's own address.
import type { MembershipNoticeKind, MembershipPlanId } from "~/db/schema";
import { formatDate } from "~/lib/format";
import { greeting, renderMail } from "~/lib/mail-layout.server";
import { GRACE_DAYS, PLAN_NAMES } from "./plans";

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
  return renderMail({
    subject: "Your Kongamano membership application is approved",
    greeting: greeting(facts.greetName),
    blocks: [
      {
        kind: "paragraph",
        text: `Your application for the ${PLAN_NAMES[facts.plan]} membership is approved${facts.student ? ", with the 50% student discount" : ""}.`,
      },
      {
        kind: "paragraph",
        text: `Invoice ${facts.invoiceNumber} follows in a separate e-mail; your membership starts when it is paid.`,
      },
      { kind: "button", label: "Open your profile", url: facts.profileUrl },
    ],
  });
}

export function applicationRejectedMail(
  facts: Recipient & { plan: MembershipPlanId; reason: string; applyUrl: string },
) {
  return renderMail({
    subject: "Your Kongamano membership application",
    greeting: greeting(facts.greetName),
    blocks: [
      {
        kind: "paragraph",
        text: `We could not approve your application for the ${PLAN_NAMES[facts.plan]} membership.\nReason: ${facts.reason}`,
      },
      { kind: "paragraph", text: "You are welcome to apply again." },
      { kind: "button", label: "Apply again", url: facts.applyUrl },
    ],
  });
}

export function upgradeApprovedMail(
  facts: Recipient & {
    from: MembershipPlanId;
    to: MembershipPlanId;
    invoiceNumber: string;
    profileUrl: string;
  },
) {
  return renderMail({
    subject: "Your Kongamano membership upgrade is approved",
    greeting: greeting(facts.greetName),
    blocks: [
      {
        kind: "paragraph",
        text: `Your upgrade from the ${PLAN_NAMES[facts.from]} to the ${PLAN_NAMES[facts.to]} membership is approved.`,
      },
      {
        kind: "paragraph",
        text: `Invoice ${facts.invoiceNumber} for the prorated difference follows in a separate e-mail; your plan changes the day it is paid.`,
      },
      { kind: "button", label: "Open your profile", url: facts.profileUrl },
    ],
  });
}

export function upgradeRejectedMail(
  facts: Recipient & {
    plan: MembershipPlanId;
    to: MembershipPlanId;
    reason: string;
    profileUrl: string;
  },
) {
  return renderMail({
    subject: "Your Kongamano membership upgrade",
    greeting: greeting(facts.greetName),
    blocks: [
      {
        kind: "paragraph",
        text: `We could not approve your upgrade to the ${PLAN_NAMES[facts.to]} membership.\nReason: ${facts.reason}`,
      },
      {
        kind: "paragraph",
        text: `Your ${PLAN_NAMES[facts.plan]} membership continues unchanged.`,
      },
      { kind: "button", label: "Open your profile", url: facts.profileUrl },
    ],
  });
}

/** To the invited colleague (an address the member typed): a fixed greeting. */
export function seatInvitationMail(facts: {
  memberName: string;
  organisationName: string | null;
  acceptUrl: string;
  expiresAt: Date;
}) {
  return renderMail({
    subject: `${facts.organisationName ?? "Your organisation"} added you to its Kongamano membership`,
    greeting: greeting(null),
    blocks: [
      {
        kind: "paragraph",
        text: `${facts.memberName} added you to the Corporate membership of ${facts.organisationName ?? "their organisation"}.`,
      },
      {
        kind: "paragraph",
        text: "Accept your seat (sign in or create an account with this e-mail address).",
      },
      { kind: "button", label: "Accept your seat", url: facts.acceptUrl },
      { kind: "note", text: `The invitation works until ${formatDate(facts.expiresAt)}.` },
    ],
  });
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
  return renderMail({
    subject: NOTICE_SUBJECTS[kind],
    greeting: greeting(facts.greetName),
    blocks: [
      { kind: "paragraph", text: `Your ${PLAN_NAMES[facts.plan]} membership ${when}.` },
      { kind: "paragraph", text: "Renew in one click (no password needed)." },
      { kind: "button", label: "Renew your membership", url: facts.renewUrl },
      {
        kind: "note",
        text: `The link opens your renewal invoice; nothing is charged until you pay it.\nThe link works until ${formatDate(graceEnd)}.`,
      },
    ],
  });
}

/** The membership lapsed at the end of grace: what ended, and how to join again. */
export function membershipLapsedMail(
  facts: Recipient & { plan: MembershipPlanId; endedAt: Date; rejoinUrl: string },
) {
  return renderMail({
    subject: "Your Kongamano membership has lapsed",
    greeting: greeting(facts.greetName),
    blocks: [
      {
        kind: "paragraph",
        text: `Your ${PLAN_NAMES[facts.plan]} membership ended on ${formatDate(facts.endedAt)} and was not renewed during the ${GRACE_DAYS}-day grace period, so it has lapsed: member prices and your membership card stop today.`,
      },
      { kind: "button", label: "Join again", url: facts.rejoinUrl },
      {
        kind: "note",
        text: "Joining again starts a new membership with a new invoice; your account and history are kept.",
      },
    ],
  });
}
