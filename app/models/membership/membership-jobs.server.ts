// The jobs of the membership lifecycle: the paid order activates its term, the hourly calendar
// sweep, and the renewal notices (each sent once per term and kind, logged sent/skipped/failed).
import { and, eq, gt, inArray, isNotNull } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { type MembershipNoticeKind, memberships, membershipTerms, user } from "~/db/schema";
import { env } from "~/lib/env.server";
import { formatDate } from "~/lib/format";
import { sendMail, sendMailOnce } from "~/lib/mail.server";
import { defineJob, defineSchedule } from "~/models/jobs.server";
import { onOrderPaid } from "~/models/orders/order-jobs.server";
import { MEMBERSHIP_JOBS } from "./job-kinds";
import {
  activateTerm,
  issueSeatInvitationLink,
  recordNoticeOutcome,
  sweepMemberships,
} from "./membership.server";
import { addDays, GRACE_DAYS, PLAN_NAMES } from "./plans";
import { renewalUrl } from "./renewal-link.server";

/** How often the calendar sweep runs (renewal, grace, lapse, notices). */
export const MEMBERSHIP_SWEEP_EVERY_MS = 60 * 60_000;

onOrderPaid("membership_term", async (_order, line) => {
  await activateTerm(line.referenceId);
});

defineSchedule(MEMBERSHIP_JOBS.sweep, MEMBERSHIP_SWEEP_EVERY_MS, async ({ slot }) => {
  await sweepMemberships(slot);
});

/**
 * A seat invitation's mail. The payload names the seat only: the token is made here, its hash
 * stored, and it goes straight into the mail, never into this job's row (decision 0076). A retry
 * makes a new token, so the latest mail sent is the one whose link works.
 */
defineJob<{ seatId: string; invitedAt: string }>(
  MEMBERSHIP_JOBS.seatInvite,
  async ({ seatId, invitedAt }) => {
    const link = await issueSeatInvitationLink(seatId, invitedAt);
    if (!link) return;
    await sendMail({
      to: link.email,
      subject: `${link.organisationName ?? "Your organisation"} added you to its Kongamano membership`,
      text: [
        "Hello,",
        "",
        `${link.memberName} added you to the Corporate membership of ${link.organisationName ?? "their organisation"}.`,
        `Accept your seat (sign in or create an account with this e-mail address): ${env().BASE_URL}/membership/seat/${link.token}`,
        `The invitation works until ${formatDate(link.expiresAt)}.`,
      ].join("\n"),
    });
  },
);

type NoticePayload = { termId: string; kind: MembershipNoticeKind; asOf?: string };

const SUBJECTS: Record<MembershipNoticeKind, string> = {
  renewal_30d: "Your Kongamano membership ends in 30 days",
  renewal_7d: "Your Kongamano membership ends in 7 days",
  ends_today: "Your Kongamano membership ends today",
  grace: "Your Kongamano membership has ended: renew to keep your benefits",
};

defineJob<NoticePayload>(MEMBERSHIP_JOBS.notice, async ({ termId, kind }, { attempt }) => {
  const db = getDb();
  const [row] = await db
    .select({
      membershipId: memberships.id,
      state: memberships.state,
      plan: memberships.plan,
      memberName: memberships.memberName,
      cancelRequestedAt: memberships.cancelRequestedAt,
      billingContactEmail: memberships.billingContactEmail,
      email: user.email,
      endsAt: membershipTerms.endsAt,
    })
    .from(membershipTerms)
    .innerJoin(memberships, eq(memberships.id, membershipTerms.membershipId))
    .innerJoin(user, eq(user.id, memberships.userId))
    .where(eq(membershipTerms.id, termId));
  if (!row?.endsAt) return;
  const notice = { membershipId: row.membershipId, termId, kind };
  const skip = (reason: string) => recordNoticeOutcome(notice, "skipped", reason);
  const [renewed] = await db
    .select({ id: membershipTerms.id })
    .from(membershipTerms)
    .where(
      and(
        eq(membershipTerms.membershipId, row.membershipId),
        isNotNull(membershipTerms.activatedAt),
        inArray(membershipTerms.kind, ["join", "renewal"]),
        gt(membershipTerms.endsAt, row.endsAt),
      ),
    )
    .limit(1);
  if (renewed) return skip("already renewed");
  if (row.cancelRequestedAt) return skip("member cancelled");
  if (row.state !== "renewal_open" && row.state !== "grace") {
    return skip(`membership is ${row.state.replace("_", " ")}`);
  }
  const graceEnd = addDays(row.endsAt, GRACE_DAYS);
  const link = renewalUrl(row.membershipId, graceEnd);
  const when =
    kind === "grace"
      ? `ended on ${formatDate(row.endsAt)}. Your benefits continue until ${formatDate(graceEnd)}`
      : kind === "ends_today"
        ? `ends today, ${formatDate(row.endsAt)}. Your benefits continue until ${formatDate(graceEnd)}`
        : `ends on ${formatDate(row.endsAt)}`;
  try {
    await sendMailOnce(`membership-notice:${termId}:${kind}`, {
      to: row.billingContactEmail || row.email,
      subject: SUBJECTS[kind],
      text: [
        `Dear ${row.memberName},`,
        "",
        `Your ${PLAN_NAMES[row.plan]} membership ${when}.`,
        "",
        `Renew in one click (no password needed): ${link}`,
        "The link opens your renewal invoice; nothing is charged until you pay it.",
        `The link works until ${formatDate(graceEnd)}.`,
      ].join("\n"),
    });
  } catch (error) {
    await recordNoticeOutcome(
      notice,
      "failed",
      `attempt ${attempt}: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500),
    );
    throw error;
  }
  await recordNoticeOutcome(notice, "sent");
});
