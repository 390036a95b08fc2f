// The jobs of calls for papers (decision 0106): the invitation mail of a reviewer with no account
// yet (its token made in the job, never stored in the job's row), and the hourly review-deadline
// sweep that enqueues, once each (unique mail keys), a reminder to the reviewer before the due
// date and a note to the editor once it has passed. Registered by the wiring module.
import { and, eq, gt, inArray, lte, notExists, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { calls, reviewAssignments, reviews, submissions, user } from "~/db/schema";
import { env } from "~/lib/env.server";
import { sendMail } from "~/lib/mail.server";
import { defineJob, defineSchedule, enqueueMail } from "~/models/jobs.server";
import { reviewerInvitationMail, reviewOverdueMail, reviewReminderMail } from "./cfp-mails";
import { CFP_JOBS } from "./job-kinds";
import { issueReviewerInvitation } from "./reviews.server";
import { IN_REVIEW } from "./submissions.server";
import { editorSubmissionPath, reviewerInvitationPath, reviewPath } from "./urls";

export const REVIEW_SWEEP_EVERY_MS = 60 * 60_000;
/** Reviewers are reminded this long before their due date. */
export const REVIEW_REMINDER_BEFORE_MS = 3 * 86_400_000;
/** Due dates further back than this are not looked at again (their note went long ago). */
const OVERDUE_LOOKBACK_MS = 30 * 86_400_000;

async function sendReviewerInvitation({ assignmentId }: { assignmentId: string }) {
  const invitation = await issueReviewerInvitation(assignmentId);
  if (!invitation) return;
  const [facts] = await getDb()
    .select({ title: submissions.title, callTitle: calls.title })
    .from(submissions)
    .innerJoin(calls, eq(calls.id, submissions.callId))
    .where(eq(submissions.id, invitation.assignment.submissionId));
  if (!facts) return;
  await sendMail({
    to: invitation.assignment.invitedEmail,
    ...reviewerInvitationMail({
      title: facts.title,
      callTitle: facts.callTitle,
      dueAt: invitation.assignment.dueAt,
      expiresAt: invitation.expiresAt,
      url: `${env().BASE_URL}${reviewerInvitationPath(invitation.token)}`,
    }),
  });
}

/**
 * As of `asOf`: reminds each live reviewer whose review of the current round is due within
 * REVIEW_REMINDER_BEFORE_MS and not yet submitted, and tells the assigning editor of each whose
 * due date has passed. Each mail's key names the assignment and round, so it goes once.
 */
export async function sweepReviewDeadlines(asOf: Date) {
  const db = getDb();
  const reviewer = sql<string>`coalesce(${user.email}, ${reviewAssignments.invitedEmail})`;
  const pending = await db
    .select({
      id: reviewAssignments.id,
      dueAt: reviewAssignments.dueAt,
      assignedBy: reviewAssignments.assignedBy,
      reviewerEmail: reviewer,
      reviewerName: sql<string>`coalesce(${user.name}, ${reviewAssignments.invitedEmail})`,
      submissionId: submissions.id,
      round: submissions.round,
      title: submissions.title,
      callTitle: calls.title,
      callCreatedBy: calls.createdBy,
    })
    .from(reviewAssignments)
    .innerJoin(submissions, eq(submissions.id, reviewAssignments.submissionId))
    .innerJoin(calls, eq(calls.id, submissions.callId))
    .leftJoin(user, eq(user.id, reviewAssignments.reviewerId))
    .where(
      and(
        inArray(reviewAssignments.state, ["invited", "active"]),
        inArray(submissions.state, [...IN_REVIEW]),
        lte(reviewAssignments.dueAt, new Date(asOf.getTime() + REVIEW_REMINDER_BEFORE_MS)),
        gt(reviewAssignments.dueAt, new Date(asOf.getTime() - OVERDUE_LOOKBACK_MS)),
        notExists(
          db
            .select({ id: reviews.id })
            .from(reviews)
            .where(
              and(
                eq(reviews.assignmentId, reviewAssignments.id),
                eq(reviews.round, submissions.round),
                eq(reviews.state, "submitted"),
              ),
            ),
        ),
      ),
    );
  for (const row of pending) {
    const facts = { title: row.title, callTitle: row.callTitle, dueAt: row.dueAt };
    if (row.dueAt.getTime() > asOf.getTime()) {
      await enqueueMail(db, `cfp:review-reminder:${row.id}:${row.round}`, {
        to: row.reviewerEmail,
        ...reviewReminderMail({ ...facts, url: `${env().BASE_URL}${reviewPath(row.id)}` }),
      });
      continue;
    }
    const editorId = row.assignedBy ?? row.callCreatedBy;
    if (!editorId) continue;
    const [editor] = await db.select({ email: user.email }).from(user).where(eq(user.id, editorId));
    if (!editor) continue;
    await enqueueMail(db, `cfp:review-overdue:${row.id}:${row.round}`, {
      to: editor.email,
      ...reviewOverdueMail({
        ...facts,
        reviewer: row.reviewerName,
        url: `${env().BASE_URL}${editorSubmissionPath(row.submissionId)}`,
      }),
    });
  }
}

export function registerCfpJobs() {
  defineJob(CFP_JOBS.reviewerInvite, sendReviewerInvitation);
  defineSchedule(CFP_JOBS.reviewSweep, REVIEW_SWEEP_EVERY_MS, async ({ slot }) => {
    await sweepReviewDeadlines(slot);
  });
}
