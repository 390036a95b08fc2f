// The jobs of the membership lifecycle: the hourly calendar sweep, the seat invitations and the
// renewal notices (each sent once per term and kind, logged sent/skipped/failed). Registered by
// the wiring module (wiring.server.ts); the wording is in ./membership-mails.ts.
import { and, eq, gt, inArray, isNotNull } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { type MembershipNoticeKind, memberships, membershipTerms, user } from "~/db/schema";
import { env } from "~/lib/env.server";
import { sendMail, sendMailOnce } from "~/lib/mail.server";
import { defineJob, defineSchedule } from "~/models/jobs.server";
import { MEMBERSHIP_JOBS } from "./job-kinds";
import {
  issueSeatInvitationLink,
  recordNoticeOutcome,
  sweepMemberships,
} from "./membership.server";
import { renewalNoticeMail, seatInvitationMail } from "./membership-mails";
import { addDays, GRACE_DAYS } from "./plans";
import { renewalUrl } from "./renewal-link.server";

/** How often the calendar sweep runs (renewal, grace, lapse, notices). */
export const MEMBERSHIP_SWEEP_EVERY_MS = 60 * 60_000;

/**
 * A seat invitation's mail. The payload names the seat only: the token is made here, its hash
 * stored, and it goes straight into the mail, never into this job's row (decision 0076). A retry
 * makes a new token, so the latest mail sent is the one whose link works.
 */
async function sendSeatInvitation({ seatId, invitedAt }: { seatId: string; invitedAt: string }) {
  const link = await issueSeatInvitationLink(seatId, invitedAt);
  if (!link) return;
  await sendMail({
    to: link.email,
    ...seatInvitationMail({
      memberName: link.memberName,
      organisationName: link.organisationName,
      acceptUrl: `${env().BASE_URL}/membership/seat/${link.token}`,
      expiresAt: link.expiresAt,
    }),
  });
}

type NoticePayload = { termId: string; kind: MembershipNoticeKind; asOf?: string };

async function sendRenewalNotice(
  { termId, kind }: NoticePayload,
  { attempt }: { attempt: number },
) {
  const db = getDb();
  const [row] = await db
    .select({
      membershipId: memberships.id,
      state: memberships.state,
      plan: memberships.plan,
      memberName: memberships.memberName,
      cancelRequestedAt: memberships.cancelRequestedAt,
      billingContactEmail: memberships.billingContactEmail,
      billingContactName: memberships.billingContactName,
      organisationName: memberships.organisationName,
      email: user.email,
      name: user.name,
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
  const facts = {
    kind,
    plan: row.plan,
    endsAt: row.endsAt,
    graceEnd,
    renewUrl: renewalUrl(row.membershipId, graceEnd),
  };
  // The member, and the billing contact at another address, each greeted by their own name.
  const billing = row.billingContactEmail?.trim();
  const toBilling = billing && billing.toLowerCase() !== row.email.trim().toLowerCase();
  try {
    await sendMailOnce(`membership-notice:${termId}:${kind}`, {
      to: row.email,
      ...renewalNoticeMail({ ...facts, greetName: row.name }),
    });
    if (toBilling) {
      await sendMailOnce(`membership-notice:${termId}:${kind}:billing`, {
        to: billing,
        ...renewalNoticeMail({
          ...facts,
          greetName: row.billingContactName?.trim() || null,
          forBilling: { applicant: row.name, organisationName: row.organisationName },
        }),
      });
    }
  } catch (error) {
    await recordNoticeOutcome(
      notice,
      "failed",
      `attempt ${attempt}: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500),
    );
    throw error;
  }
  await recordNoticeOutcome(notice, "sent");
}

export function registerMembershipJobs() {
  defineSchedule(MEMBERSHIP_JOBS.sweep, MEMBERSHIP_SWEEP_EVERY_MS, async ({ slot }) => {
    await sweepMemberships(slot);
  });
  defineJob(MEMBERSHIP_JOBS.seatInvite, sendSeatInvitation);
  defineJob(MEMBERSHIP_JOBS.notice, sendRenewalNotice);
}
