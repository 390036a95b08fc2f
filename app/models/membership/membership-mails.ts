// What members, applicants, their billing contacts and invited colleagues are told: one template
// per message, plain data in, subject, text and HTML out (mail-layout). Each person is greeted by
// their own name: the applicant by their account's name, the billing contact by the name given
// for them (decision 0094); a mail meant for both comes in two variants, the billing contact's
// naming whose membership it is and linking where they can go without an account.
import type { MembershipNoticeKind, MembershipPlanId } from "~/db/schema";
import { formatDate } from "~/lib/format";
import { greeting, renderMail } from "~/lib/mail-layout.server";
import { GRACE_DAYS, PLAN_NAMES } from "./plans";

type Recipient = {
  /** The recipient's own name (null: "Hello,"). */
  greetName: string | null;
};

/** The billing contact's variant: whose membership it is, and their signed link (no account). */
export type ForBilling = {
  applicant: string;
  organisationName: string | null;
  /** The invoice behind a signed, expiring link (decision 0094). */
  invoiceUrl?: string;
};

const whose = (billing: ForBilling) =>
  billing.organisationName
    ? `${billing.organisationName} (${billing.applicant})`
    : billing.applicant;

export function applicationApprovedMail(
  facts: Recipient & {
    plan: MembershipPlanId;
    student: boolean;
    invoiceNumber: string;
    profileUrl: string;
    forBilling?: ForBilling;
  },
) {
  const billing = facts.forBilling;
  if (billing) {
    return renderMail({
      subject: `Membership approved for ${billing.organisationName ?? billing.applicant}: invoice ${facts.invoiceNumber}`,
      greeting: greeting(facts.greetName),
      blocks: [
        {
          kind: "paragraph",
          text: `The application of ${whose(billing)} for the ${PLAN_NAMES[facts.plan]} membership is approved. You are its billing contact.`,
        },
        {
          kind: "paragraph",
          text: `Invoice ${facts.invoiceNumber} follows in a separate e-mail; the membership starts when it is paid.`,
        },
        ...(billing.invoiceUrl
          ? [{ kind: "button" as const, label: "Open the invoice", url: billing.invoiceUrl }]
          : []),
        { kind: "note", text: "The link opens the invoice and its receipts without an account." },
      ],
    });
  }
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
    forBilling?: ForBilling;
  },
) {
  const billing = facts.forBilling;
  if (billing) {
    return renderMail({
      subject: `Membership upgrade approved for ${billing.organisationName ?? billing.applicant}: invoice ${facts.invoiceNumber}`,
      greeting: greeting(facts.greetName),
      blocks: [
        {
          kind: "paragraph",
          text: `The upgrade of ${whose(billing)} from the ${PLAN_NAMES[facts.from]} to the ${PLAN_NAMES[facts.to]} membership is approved. You are its billing contact.`,
        },
        {
          kind: "paragraph",
          text: `Invoice ${facts.invoiceNumber} for the prorated difference follows in a separate e-mail.`,
        },
        ...(billing.invoiceUrl
          ? [{ kind: "button" as const, label: "Open the invoice", url: billing.invoiceUrl }]
          : []),
        { kind: "note", text: "The link opens the invoice and its receipts without an account." },
      ],
    });
  }
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
    forBilling?: ForBilling;
  },
) {
  const { kind, endsAt, graceEnd, forBilling } = facts;
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
      forBilling
        ? {
            kind: "paragraph",
            text: `The ${PLAN_NAMES[facts.plan]} membership of ${whose(forBilling)} ${when}. You are its billing contact.`,
          }
        : { kind: "paragraph", text: `Your ${PLAN_NAMES[facts.plan]} membership ${when}.` },
      { kind: "paragraph", text: "Renew in one click (no password needed)." },
      {
        kind: "button",
        label: forBilling ? "Renew the membership" : "Renew your membership",
        url: facts.renewUrl,
      },
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
