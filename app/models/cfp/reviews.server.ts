// Reviewer assignments and reviews: every way they change, one exported function per transition,
// each in one transaction with its audit row (style.md rule 11, decision 0106). An assignment is
// the per-call reviewer capability: a person (or an address invited to make an account) on one
// submission, who declares conflicts before the paper opens. A review is one per assignment and
// round, a draft until submitted, then locked.
import { createHash, randomBytes } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import {
  type AssignmentState,
  calls,
  type ReviewAssignmentRow,
  type ReviewRecommendation,
  type ReviewRow,
  reviewAssignments,
  reviewRecommendation,
  reviews,
  submissionAuthors,
  submissions,
  user,
} from "~/db/schema";
import { env } from "~/lib/env.server";
import {
  type Actor,
  auditIn,
  defineMachine,
  type PersonActor,
  type Tx,
} from "~/lib/lifecycle.server";
import { enqueueJob, enqueueMail } from "~/models/jobs.server";
import { assertEditor } from "./calls.server";
import { CfpError } from "./cfp-error";
import { reviewerUnavailableMail, reviewRequestMail } from "./cfp-mails";
import { CFP_JOBS } from "./job-kinds";
import { IN_REVIEW, submissionMachine } from "./submissions.server";
import { editorSubmissionPath, reviewPath } from "./urls";

export const ASSIGNMENT_TRANSITIONS: Record<AssignmentState, readonly AssignmentState[]> = {
  invited: ["active", "conflicted", "declined", "cancelled"],
  active: ["conflicted", "cancelled"],
  conflicted: [],
  declined: [],
  cancelled: [],
};

export const assignmentMachine = defineMachine<AssignmentState, ReviewAssignmentRow>({
  entity: "review_assignment",
  noun: "review assignment",
  table: reviewAssignments,
  transitions: ASSIGNMENT_TRANSITIONS,
  error: (message, status) => new CfpError(message, status),
});

export const REVIEW_TRANSITIONS: Record<ReviewRow["state"], readonly ReviewRow["state"][]> = {
  draft: ["submitted"],
  submitted: [],
};

export const reviewMachine = defineMachine<ReviewRow["state"], ReviewRow>({
  entity: "review",
  noun: "review",
  table: reviews,
  transitions: REVIEW_TRANSITIONS,
  error: (message, status) => new CfpError(message, status),
});

/** An invitation link to an address with no account works this long. */
export const REVIEWER_INVITATION_DAYS = 21;
export const SCORE_MIN = 1;
export const SCORE_MAX = 5;
export const REVIEW_TEXT_MAX = 20_000;
export const REVIEW_LOCKED = "This review has been submitted and can no longer be changed.";
export const AUTHOR_CANNOT_REVIEW = "An author of this submission cannot review it.";
export const RECOMMENDATIONS = reviewRecommendation.enumValues;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DAY = 86_400_000;

export function hashInvitationToken(token: string) {
  return createHash("sha256").update(token).digest("hex");
}

function link(path: string) {
  return `${env().BASE_URL}${path}`;
}

async function callTitle(tx: Tx, callId: string) {
  const [call] = await tx.select({ title: calls.title }).from(calls).where(eq(calls.id, callId));
  return call?.title ?? "the call";
}

/** Whether the address or account belongs to an author of the submission. */
async function isAuthorAddress(tx: Tx, submissionId: string, email: string, userId: string | null) {
  const [submission] = await tx
    .select({ submitterId: submissions.submitterId })
    .from(submissions)
    .where(eq(submissions.id, submissionId));
  if (userId && submission?.submitterId === userId) return true;
  const [submitter] = submission
    ? await tx.select({ email: user.email }).from(user).where(eq(user.id, submission.submitterId))
    : [];
  if (submitter && submitter.email.toLowerCase() === email) return true;
  const [author] = await tx
    .select({ id: submissionAuthors.id })
    .from(submissionAuthors)
    .where(
      and(
        eq(submissionAuthors.submissionId, submissionId),
        sql`lower(${submissionAuthors.email}) = ${email}`,
      ),
    )
    .limit(1);
  return Boolean(author);
}

/**
 * An editor asks a reviewer, by e-mail address: an account with that address is asked at once;
 * another address is sent an invitation to make one (a job makes the link). Never an author of
 * the submission. The first assignment takes a submitted paper under review.
 */
export async function assignReviewer(
  actor: Actor,
  submissionId: string,
  input: { email: string; dueAt: Date },
  now: Date = new Date(),
) {
  assertEditor(actor);
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new CfpError("Invalid email address", 400, "email");
  if (Number.isNaN(input.dueAt.getTime()) || input.dueAt.getTime() <= now.getTime()) {
    throw new CfpError("The due date must be in the future", 400, "dueAt");
  }
  return getDb().transaction(async (tx) => {
    const submission = await submissionMachine.lock(tx, submissionId);
    if (!["submitted", ...IN_REVIEW].includes(submission.state)) {
      throw new CfpError(
        `Reviewers cannot be assigned to a submission that is ${submission.state.replace(/_/g, " ")}.`,
        409,
      );
    }
    const [account] = await tx
      .select({ id: user.id })
      .from(user)
      .where(sql`lower(${user.email}) = ${email}`);
    if (await isAuthorAddress(tx, submission.id, email, account?.id ?? null)) {
      throw new CfpError(AUTHOR_CANNOT_REVIEW, 400, "email");
    }
    const [assignment] = await tx
      .insert(reviewAssignments)
      .values({
        callId: submission.callId,
        submissionId: submission.id,
        reviewerId: account?.id ?? null,
        invitedEmail: email,
        dueAt: input.dueAt,
        assignedBy: actor.id,
      })
      .onConflictDoNothing()
      .returning();
    if (!assignment) {
      throw new CfpError("This reviewer is already assigned to the submission.", 409, "email");
    }
    await auditIn(tx, actor, "review_assignment.create", assignment.id, {
      submissionId: submission.id,
      byInvitation: !account,
    });
    if (submission.state !== "under_review") {
      await submissionMachine.move(tx, submission, "under_review", actor, {
        set: { stateChangedAt: now },
      });
    }
    const title = await callTitle(tx, submission.callId);
    if (account) {
      await enqueueMail(tx, `cfp:review-request:${assignment.id}`, {
        to: email,
        ...reviewRequestMail({
          title: submission.title,
          callTitle: title,
          dueAt: input.dueAt,
          url: link(reviewPath(assignment.id)),
        }),
      });
    } else {
      await enqueueJob(tx, {
        kind: CFP_JOBS.reviewerInvite,
        payload: { assignmentId: assignment.id },
        uniqueKey: `cfp:reviewer-invite:${assignment.id}`,
      });
    }
    return assignment;
  });
}

/**
 * Makes a fresh invitation link for an assignment still waiting for its reviewer's account (the
 * job that mails it calls this: the token goes into the mail only, its hash into the row).
 */
export async function issueReviewerInvitation(assignmentId: string) {
  const token = randomBytes(24).toString("base64url");
  const [row] = await getDb()
    .update(reviewAssignments)
    .set({ invitationTokenHash: hashInvitationToken(token) })
    .where(
      and(
        eq(reviewAssignments.id, assignmentId),
        eq(reviewAssignments.state, "invited"),
        sql`${reviewAssignments.reviewerId} IS NULL`,
      ),
    )
    .returning();
  if (!row) return null;
  return {
    token,
    assignment: row,
    expiresAt: new Date(row.createdAt.getTime() + REVIEWER_INVITATION_DAYS * DAY),
  };
}

/**
 * The invited person, signed in with the invited address, takes the assignment (then declares
 * conflicts as any reviewer). A link for another address, used or expired, is refused.
 */
export async function acceptReviewerInvitation(
  actor: PersonActor,
  token: string,
  now: Date = new Date(),
) {
  return getDb().transaction(async (tx) => {
    const [found] = await tx
      .select({ id: reviewAssignments.id })
      .from(reviewAssignments)
      .where(eq(reviewAssignments.invitationTokenHash, hashInvitationToken(token)));
    if (!found) throw new CfpError("This invitation link is not valid (or was already used).", 404);
    const row = await assignmentMachine.lock(tx, found.id);
    if (row.state !== "invited" || row.reviewerId) {
      throw new CfpError("This invitation link is not valid (or was already used).", 404);
    }
    if (now.getTime() > row.createdAt.getTime() + REVIEWER_INVITATION_DAYS * DAY) {
      throw new CfpError("This invitation has expired; ask the editor for a new one.", 410);
    }
    const [account] = await tx
      .select({ email: user.email })
      .from(user)
      .where(eq(user.id, actor.id));
    if (!account || account.email.toLowerCase() !== row.invitedEmail) {
      throw new CfpError(
        "This invitation is for another e-mail address: sign in with the address it was sent to.",
        403,
      );
    }
    if (await isAuthorAddress(tx, row.submissionId, row.invitedEmail, actor.id)) {
      throw new CfpError(AUTHOR_CANNOT_REVIEW, 403);
    }
    const [updated] = await tx
      .update(reviewAssignments)
      .set({ reviewerId: actor.id, invitationTokenHash: null })
      .where(eq(reviewAssignments.id, row.id))
      .returning();
    await auditIn(tx, actor, "review_assignment.accept_invitation", row.id, {});
    return updated;
  });
}

async function lockOwnAssignment(tx: Tx, actor: PersonActor, assignmentId: string) {
  const row = await assignmentMachine.lock(tx, assignmentId);
  if (row.reviewerId !== actor.id) throw new CfpError("Review assignment not found", 404);
  return row;
}

async function mailEditorUnavailable(
  tx: Tx,
  row: ReviewAssignmentRow,
  reviewerName: string,
  reason: string,
) {
  if (!row.assignedBy) return;
  const [editor] = await tx
    .select({ email: user.email })
    .from(user)
    .where(eq(user.id, row.assignedBy));
  const [submission] = await tx
    .select({ title: submissions.title, callId: submissions.callId })
    .from(submissions)
    .where(eq(submissions.id, row.submissionId));
  if (!editor || !submission) return;
  await enqueueMail(tx, `cfp:reviewer-unavailable:${row.id}`, {
    to: editor.email,
    ...reviewerUnavailableMail({
      title: submission.title,
      callTitle: await callTitle(tx, submission.callId),
      reviewer: reviewerName,
      reason,
      url: link(editorSubmissionPath(row.submissionId)),
    }),
  });
}

/**
 * The reviewer's declaration before the paper opens: no conflict (the assignment becomes active)
 * or a conflict (they do not review; the editor is told). A conflict can also be declared later.
 */
export async function declareConflict(
  actor: PersonActor,
  assignmentId: string,
  input: { conflict: boolean; note?: string | null },
) {
  return getDb().transaction(async (tx) => {
    const row = await lockOwnAssignment(tx, actor, assignmentId);
    const note = input.note?.trim() || null;
    if (input.conflict && !note) {
      throw new CfpError("Describe the conflict for the editor", 400, "note");
    }
    const to: AssignmentState = input.conflict ? "conflicted" : "active";
    const moved = await assignmentMachine.move(tx, row, to, actor, {
      set: { conflictNote: note, conflictDeclaredAt: new Date() },
      action: input.conflict ? "review_assignment.conflict" : "review_assignment.no_conflict",
    });
    if (input.conflict) {
      const [me] = await tx.select({ name: user.name }).from(user).where(eq(user.id, actor.id));
      await mailEditorUnavailable(
        tx,
        row,
        me?.name ?? "A reviewer",
        `conflict of interest (${note})`,
      );
    }
    return moved;
  });
}

/** The reviewer declines before starting; the editor is told. */
export async function declineAssignment(actor: PersonActor, assignmentId: string) {
  return getDb().transaction(async (tx) => {
    const row = await lockOwnAssignment(tx, actor, assignmentId);
    const moved = await assignmentMachine.move(tx, row, "declined", actor);
    const [me] = await tx.select({ name: user.name }).from(user).where(eq(user.id, actor.id));
    await mailEditorUnavailable(tx, row, me?.name ?? "A reviewer", "declined");
    return moved;
  });
}

/** An editor takes a reviewer off a submission (their drafts stay unread by authors). */
export async function cancelAssignment(actor: Actor, assignmentId: string) {
  assertEditor(actor);
  return getDb().transaction(async (tx) => {
    const row = await assignmentMachine.lock(tx, assignmentId);
    return assignmentMachine.move(tx, row, "cancelled", actor, {
      set: { invitationTokenHash: null },
    });
  });
}

export type ReviewInput = {
  /** Criterion key → score 1–5 (criteria of the call; others refused). */
  scores: Record<string, number | null | undefined>;
  recommendation: ReviewRecommendation | null;
  commentsToAuthors: string;
  confidentialComments: string;
};

async function reviewContext(tx: Tx, actor: PersonActor, assignmentId: string) {
  const assignment = await lockOwnAssignment(tx, actor, assignmentId);
  if (assignment.state !== "active") {
    throw new CfpError(
      assignment.state === "invited"
        ? "Declare any conflict of interest before reviewing."
        : "This review assignment is closed.",
      409,
    );
  }
  const [submission] = await tx
    .select()
    .from(submissions)
    .where(eq(submissions.id, assignment.submissionId));
  if (!IN_REVIEW.includes(submission.state)) {
    throw new CfpError("This submission is not open for review.", 409);
  }
  const [call] = await tx.select().from(calls).where(eq(calls.id, submission.callId));
  return { assignment, submission, call };
}

function cleanReview(input: ReviewInput, criteria: readonly { key: string }[]) {
  const keys = new Set(criteria.map((c) => c.key));
  const scores: Record<string, number> = {};
  for (const [key, value] of Object.entries(input.scores)) {
    if (value === null || value === undefined) continue;
    if (!keys.has(key)) throw new CfpError("Unknown criterion", 400, `scores.${key}`);
    if (!Number.isInteger(value) || value < SCORE_MIN || value > SCORE_MAX) {
      throw new CfpError(`A score from ${SCORE_MIN} to ${SCORE_MAX}`, 400, `scores.${key}`);
    }
    scores[key] = value;
  }
  if (input.recommendation && !RECOMMENDATIONS.includes(input.recommendation)) {
    throw new CfpError("Choose a recommendation", 400, "recommendation");
  }
  const commentsToAuthors = input.commentsToAuthors.trim();
  const confidentialComments = input.confidentialComments.trim();
  if (commentsToAuthors.length > REVIEW_TEXT_MAX) {
    throw new CfpError(`At most ${REVIEW_TEXT_MAX} characters.`, 400, "commentsToAuthors");
  }
  if (confidentialComments.length > REVIEW_TEXT_MAX) {
    throw new CfpError(`At most ${REVIEW_TEXT_MAX} characters.`, 400, "confidentialComments");
  }
  return {
    scores,
    recommendation: input.recommendation ?? null,
    commentsToAuthors,
    confidentialComments,
  };
}

async function upsertDraft(tx: Tx, actor: PersonActor, assignmentId: string, input: ReviewInput) {
  const { assignment, submission, call } = await reviewContext(tx, actor, assignmentId);
  const clean = cleanReview(input, call.criteria);
  const [existing] = await tx
    .select()
    .from(reviews)
    .where(and(eq(reviews.assignmentId, assignment.id), eq(reviews.round, submission.round)))
    .for("update");
  if (existing?.state === "submitted") throw new CfpError(REVIEW_LOCKED, 409);
  const [row] = existing
    ? await tx.update(reviews).set(clean).where(eq(reviews.id, existing.id)).returning()
    : await tx
        .insert(reviews)
        .values({
          ...clean,
          assignmentId: assignment.id,
          submissionId: submission.id,
          round: submission.round,
        })
        .returning();
  return { review: row, call };
}

/** Saves the reviewer's draft of the current round (any part may still be missing). */
export async function saveReview(actor: PersonActor, assignmentId: string, input: ReviewInput) {
  return getDb().transaction(async (tx) => {
    const { review } = await upsertDraft(tx, actor, assignmentId, input);
    await auditIn(tx, actor, "review.save", review.id, { round: review.round });
    return review;
  });
}

/**
 * Saves and submits the review of the current round: every criterion scored, a recommendation
 * and comments to the authors. Locked afterwards.
 */
export async function submitReview(actor: PersonActor, assignmentId: string, input: ReviewInput) {
  return getDb().transaction(async (tx) => {
    const { review, call } = await upsertDraft(tx, actor, assignmentId, input);
    const unscored = call.criteria.find((c) => review.scores[c.key] === undefined);
    if (unscored) throw new CfpError("Score every criterion", 400, `scores.${unscored.key}`);
    if (!review.recommendation) {
      throw new CfpError("Choose a recommendation", 400, "recommendation");
    }
    if (!review.commentsToAuthors) {
      throw new CfpError("Write your comments to the authors", 400, "commentsToAuthors");
    }
    return reviewMachine.move(tx, review, "submitted", actor, {
      set: { submittedAt: new Date() },
      details: { round: review.round, recommendation: review.recommendation },
    });
  });
}

/** Assignments whose reviewer may open the submission (the per-call reviewer capability). */
export const LIVE_ASSIGNMENT: readonly AssignmentState[] = ["invited", "active"];

/** Whether the person holds a live reviewer assignment in the call (the capability, per call). */
export async function isReviewerInCall(userId: string, callId: string) {
  const [row] = await getDb()
    .select({ id: reviewAssignments.id })
    .from(reviewAssignments)
    .where(
      and(
        eq(reviewAssignments.reviewerId, userId),
        eq(reviewAssignments.callId, callId),
        inArray(reviewAssignments.state, [...LIVE_ASSIGNMENT]),
      ),
    )
    .limit(1);
  return Boolean(row);
}
