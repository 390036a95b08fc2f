// Reads of calls and submissions, each selecting only what its reader may see (design.md §3):
// authors never receive reviewer identities; reviewers of a double-blind call never receive author
// names, e-mails, affiliations or ORCID iDs (getReviewerView does not select them at all).
import { and, asc, desc, eq, gte, ilike, inArray, isNotNull, ne, or, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import {
  auditLog,
  calls,
  decisions,
  events,
  reviewAssignments,
  reviews,
  type SubmissionState,
  submissionAuthors,
  submissions,
  submissionVersions,
  user,
} from "~/db/schema";
import { formatDate } from "~/lib/format";
import { acceptsSubmissions } from "./calls.server";
import { submitToCallPath } from "./urls";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whether a route parameter can be an id (anything else is "not found" without a query). */
export function isId(value: string | null | undefined): value is string {
  return Boolean(value && UUID.test(value));
}

// ---------------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------------
const callColumns = {
  id: calls.id,
  title: calls.title,
  description: calls.description,
  tracks: calls.tracks,
  submissionDeadline: calls.submissionDeadline,
  reviewDeadline: calls.reviewDeadline,
  eventId: calls.eventId,
  blindMode: calls.blindMode,
  criteria: calls.criteria,
  state: calls.state,
  openedAt: calls.openedAt,
  closedAt: calls.closedAt,
  createdAt: calls.createdAt,
};

/** Every call for the back office, newest first, with its count of submitted papers. */
export async function listCallsForAdmin() {
  return getDb()
    .select({
      ...callColumns,
      eventTitle: events.title,
      submissionCount: sql<number>`(
        SELECT count(*)::int FROM ${submissions}
        WHERE ${submissions.callId} = ${calls.id} AND ${submissions.state} <> 'draft'
      )`,
    })
    .from(calls)
    .leftJoin(events, eq(events.id, calls.eventId))
    .orderBy(desc(calls.createdAt));
}

export async function getCall(callId: string) {
  if (!isId(callId)) return null;
  const [row] = await getDb()
    .select({ ...callColumns, eventTitle: events.title, eventSlug: events.slug })
    .from(calls)
    .leftJoin(events, eq(events.id, calls.eventId))
    .where(eq(calls.id, callId));
  return row ?? null;
}

export type OpenCall = Awaited<ReturnType<typeof listOpenCalls>>[number];

/** Events a call can feed (not archived), latest first, for the call form. */
export async function listEventsForCalls() {
  return getDb()
    .select({ id: events.id, title: events.title })
    .from(events)
    .where(ne(events.status, "archived"))
    .orderBy(desc(events.startDate))
    .limit(200);
}

/** Calls taking submissions now (open, deadline not passed), soonest deadline first. */
export async function listOpenCalls(options: { eventId?: string; now?: Date } = {}) {
  const now = options.now ?? new Date();
  return getDb()
    .select({
      id: calls.id,
      title: calls.title,
      description: calls.description,
      tracks: calls.tracks,
      submissionDeadline: calls.submissionDeadline,
      blindMode: calls.blindMode,
      eventTitle: events.title,
      eventSlug: events.slug,
    })
    .from(calls)
    .leftJoin(events, and(eq(events.id, calls.eventId), eq(events.status, "published")))
    .where(
      and(
        eq(calls.state, "open"),
        gte(calls.submissionDeadline, now),
        options.eventId ? eq(calls.eventId, options.eventId) : undefined,
      ),
    )
    .orderBy(asc(calls.submissionDeadline));
}

export type OpenCallItem = {
  id: string;
  title: string;
  description: string;
  tracks: string[];
  /** The deadline's day as the site writes dates. */
  deadline: string;
  blindMode: "double" | "single";
  eventTitle: string | null;
  eventSlug: string | null;
  submitHref: string;
};

/** The open calls as the public pages list them (plain data, dates written out). */
export async function listOpenCallItems(
  options: { eventId?: string } = {},
): Promise<OpenCallItem[]> {
  const rows = await listOpenCalls(options);
  return rows.map((call) => ({
    id: call.id,
    title: call.title,
    description: call.description,
    tracks: call.tracks,
    deadline: formatDate(call.submissionDeadline),
    blindMode: call.blindMode,
    eventTitle: call.eventTitle,
    eventSlug: call.eventSlug,
    submitHref: submitToCallPath(call.id),
  }));
}

/** A call a signed-in person may submit to (open, before its deadline), or null. */
export async function getCallForSubmission(callId: string, now: Date = new Date()) {
  const call = await getCall(callId);
  return call && acceptsSubmissions(call, now) ? call : null;
}

// ---------------------------------------------------------------------------------------------
// The author's side
// ---------------------------------------------------------------------------------------------

/** The person's own submissions, latest change first ("My submissions"). */
export async function listMySubmissions(userId: string) {
  return getDb()
    .select({
      id: submissions.id,
      title: submissions.title,
      state: submissions.state,
      round: submissions.round,
      submittedAt: submissions.submittedAt,
      stateChangedAt: submissions.stateChangedAt,
      updatedAt: submissions.updatedAt,
      callId: calls.id,
      callTitle: calls.title,
      submissionDeadline: calls.submissionDeadline,
      publishedPaperId: submissions.publishedPaperId,
    })
    .from(submissions)
    .innerJoin(calls, eq(calls.id, submissions.callId))
    .where(eq(submissions.submitterId, userId))
    .orderBy(desc(submissions.updatedAt));
}

/** What the history of a submission shows its author (no reviewer is ever named in it). */
export const HISTORY_LABELS: Record<string, string> = {
  "submission.create": "Draft started",
  "submission.submitted": "Submitted",
  "submission.under_review": "Under review",
  "submission.revisions_requested": "Revisions requested",
  "submission.resubmitted": "Revised version submitted",
  "submission.accepted": "Accepted",
  "submission.rejected": "Not accepted",
  "submission.desk_rejected": "Not sent to review",
  "submission.withdrawn": "Withdrawn",
  "submission.publish": "Published in the library",
  "submission.agenda": "Added to the event's agenda",
};

async function submissionHistory(submissionId: string) {
  const rows = await getDb()
    .select({ action: auditLog.action, at: auditLog.createdAt })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, "submission"),
        eq(auditLog.entityId, submissionId),
        inArray(auditLog.action, Object.keys(HISTORY_LABELS)),
      ),
    )
    .orderBy(asc(auditLog.createdAt));
  return rows.map((row) => ({ label: HISTORY_LABELS[row.action], at: row.at }));
}

async function authorsOf(submissionId: string) {
  return getDb()
    .select({
      id: submissionAuthors.id,
      position: submissionAuthors.position,
      name: submissionAuthors.name,
      affiliation: submissionAuthors.affiliation,
      email: submissionAuthors.email,
      orcid: submissionAuthors.orcid,
      corresponding: submissionAuthors.corresponding,
    })
    .from(submissionAuthors)
    .where(eq(submissionAuthors.submissionId, submissionId))
    .orderBy(asc(submissionAuthors.position));
}

async function versionsOf(submissionId: string) {
  return getDb()
    .select({
      round: submissionVersions.round,
      hasManuscript: sql<boolean>`${submissionVersions.manuscriptKey} IS NOT NULL`,
      manuscriptBytes: submissionVersions.manuscriptBytes,
      responseLetter: submissionVersions.responseLetter,
      submittedAt: submissionVersions.submittedAt,
    })
    .from(submissionVersions)
    .where(eq(submissionVersions.submissionId, submissionId))
    .orderBy(asc(submissionVersions.round));
}

/**
 * One of the person's own submissions with its call, authors, versions, decisions (letters with
 * the reviewers' comments, reviewers unnamed) and history; null when it is not theirs.
 */
export async function getMySubmission(userId: string, submissionId: string) {
  if (!isId(submissionId)) return null;
  const db = getDb();
  const [row] = await db
    .select({
      id: submissions.id,
      title: submissions.title,
      abstract: submissions.abstract,
      keywords: submissions.keywords,
      track: submissions.track,
      declaredAt: submissions.declaredAt,
      state: submissions.state,
      round: submissions.round,
      deskRejectReason: submissions.deskRejectReason,
      submittedAt: submissions.submittedAt,
      decidedAt: submissions.decidedAt,
      publishedPaperId: submissions.publishedPaperId,
      call: {
        id: calls.id,
        title: calls.title,
        tracks: calls.tracks,
        submissionDeadline: calls.submissionDeadline,
        blindMode: calls.blindMode,
        state: calls.state,
      },
    })
    .from(submissions)
    .innerJoin(calls, eq(calls.id, submissions.callId))
    .where(and(eq(submissions.id, submissionId), eq(submissions.submitterId, userId)));
  if (!row) return null;
  const [authors, versions, decisionRows, history] = await Promise.all([
    authorsOf(row.id),
    versionsOf(row.id),
    db
      .select({
        round: decisions.round,
        outcome: decisions.outcome,
        letter: decisions.letter,
        createdAt: decisions.createdAt,
      })
      .from(decisions)
      .where(eq(decisions.submissionId, row.id))
      .orderBy(asc(decisions.round)),
    submissionHistory(row.id),
  ]);
  return { ...row, authors, versions, decisions: decisionRows, history };
}

/** The draft's (round 1) manuscript key and its call's blind mode, for the person's own draft. */
export async function getManuscriptKeyOfDraft(userId: string, submissionId: string) {
  if (!isId(submissionId)) return null;
  const [row] = await getDb()
    .select({ key: submissionVersions.manuscriptKey, blindMode: calls.blindMode })
    .from(submissions)
    .innerJoin(calls, eq(calls.id, submissions.callId))
    .leftJoin(
      submissionVersions,
      and(eq(submissionVersions.submissionId, submissions.id), eq(submissionVersions.round, 1)),
    )
    .where(and(eq(submissions.id, submissionId), eq(submissions.submitterId, userId)));
  return row ?? null;
}

/** The stored manuscript of a round of the person's own submission (key), or null. */
export async function manuscriptKeyForAuthor(userId: string, submissionId: string, round: number) {
  if (!isId(submissionId) || !Number.isInteger(round)) return null;
  const [row] = await getDb()
    .select({ key: submissionVersions.manuscriptKey })
    .from(submissionVersions)
    .innerJoin(submissions, eq(submissions.id, submissionVersions.submissionId))
    .where(
      and(
        eq(submissionVersions.submissionId, submissionId),
        eq(submissionVersions.round, round),
        eq(submissions.submitterId, userId),
      ),
    );
  return row?.key ?? null;
}

// ---------------------------------------------------------------------------------------------
// Editors
// ---------------------------------------------------------------------------------------------
export type SubmissionFilters = {
  state?: SubmissionState | "all" | null;
  track?: string | null;
  search?: string | null;
};

/** A call's submissions (drafts are the authors' own, never listed), with review progress. */
export async function listSubmissionsForCall(callId: string, filters: SubmissionFilters = {}) {
  if (!isId(callId)) return [];
  const search = filters.search?.trim();
  return getDb()
    .select({
      id: submissions.id,
      title: submissions.title,
      state: submissions.state,
      track: submissions.track,
      round: submissions.round,
      submittedAt: submissions.submittedAt,
      stateChangedAt: submissions.stateChangedAt,
      reviewers: sql<number>`(
        SELECT count(*)::int FROM ${reviewAssignments}
        WHERE ${reviewAssignments.submissionId} = ${submissions.id}
          AND ${reviewAssignments.state} IN ('invited', 'active')
      )`,
      reviewsSubmitted: sql<number>`(
        SELECT count(*)::int FROM ${reviews}
        WHERE ${reviews.submissionId} = ${submissions.id}
          AND ${reviews.round} = ${submissions.round} AND ${reviews.state} = 'submitted'
      )`,
    })
    .from(submissions)
    .where(
      and(
        eq(submissions.callId, callId),
        ne(submissions.state, "draft"),
        filters.state && filters.state !== "all" ? eq(submissions.state, filters.state) : undefined,
        filters.track ? eq(submissions.track, filters.track) : undefined,
        search
          ? or(
              ilike(submissions.title, `%${search.replace(/[\\%_]/g, "\\$&")}%`),
              sql`${search.toLowerCase()} = ANY (SELECT lower(k) FROM unnest(${submissions.keywords}) k)`,
            )
          : undefined,
      ),
    )
    .orderBy(desc(submissions.submittedAt));
}

/** Everything about a submission, for editors: authors, versions, reviewers, reviews, decisions. */
export async function getSubmissionForEditor(submissionId: string) {
  if (!isId(submissionId)) return null;
  const db = getDb();
  const [row] = await db
    .select({
      submission: submissions,
      call: callColumns,
      submitterName: user.name,
    })
    .from(submissions)
    .innerJoin(calls, eq(calls.id, submissions.callId))
    .innerJoin(user, eq(user.id, submissions.submitterId))
    .where(and(eq(submissions.id, submissionId), ne(submissions.state, "draft")));
  if (!row) return null;
  const [authors, versions, assignments, reviewRows, decisionRows, history] = await Promise.all([
    authorsOf(submissionId),
    versionsOf(submissionId),
    db
      .select({
        id: reviewAssignments.id,
        state: reviewAssignments.state,
        dueAt: reviewAssignments.dueAt,
        invitedEmail: reviewAssignments.invitedEmail,
        reviewerId: reviewAssignments.reviewerId,
        reviewerName: user.name,
        conflictNote: reviewAssignments.conflictNote,
        conflictDeclaredAt: reviewAssignments.conflictDeclaredAt,
        createdAt: reviewAssignments.createdAt,
      })
      .from(reviewAssignments)
      .leftJoin(user, eq(user.id, reviewAssignments.reviewerId))
      .where(eq(reviewAssignments.submissionId, submissionId))
      .orderBy(asc(reviewAssignments.createdAt)),
    db
      .select()
      .from(reviews)
      .where(and(eq(reviews.submissionId, submissionId), eq(reviews.state, "submitted")))
      .orderBy(asc(reviews.round), asc(reviews.submittedAt)),
    db
      .select({
        round: decisions.round,
        outcome: decisions.outcome,
        letter: decisions.letter,
        editorId: decisions.editorId,
        createdAt: decisions.createdAt,
      })
      .from(decisions)
      .where(eq(decisions.submissionId, submissionId))
      .orderBy(asc(decisions.round)),
    submissionHistory(submissionId),
  ]);
  return {
    ...row.submission,
    call: row.call,
    submitterName: row.submitterName,
    authors,
    versions,
    assignments,
    reviews: reviewRows,
    decisions: decisionRows,
    history,
  };
}

/** The stored manuscript of a round, for editors (key), or null. */
export async function manuscriptKeyForEditor(submissionId: string, round: number) {
  if (!isId(submissionId) || !Number.isInteger(round)) return null;
  const [row] = await getDb()
    .select({ key: submissionVersions.manuscriptKey })
    .from(submissionVersions)
    .where(
      and(eq(submissionVersions.submissionId, submissionId), eq(submissionVersions.round, round)),
    );
  return row?.key ?? null;
}

// ---------------------------------------------------------------------------------------------
// Reviewers: the reviewer-safe projection
// ---------------------------------------------------------------------------------------------

/** The person's review assignments (live and past), for their reviews list. */
export async function listMyAssignments(userId: string) {
  return getDb()
    .select({
      id: reviewAssignments.id,
      state: reviewAssignments.state,
      dueAt: reviewAssignments.dueAt,
      title: submissions.title,
      submissionState: submissions.state,
      round: submissions.round,
      callTitle: calls.title,
      reviewState: sql<"draft" | "submitted" | null>`(
        SELECT ${reviews.state} FROM ${reviews}
        WHERE ${reviews.assignmentId} = ${reviewAssignments.id} AND ${reviews.round} = ${submissions.round}
      )`,
    })
    .from(reviewAssignments)
    .innerJoin(submissions, eq(submissions.id, reviewAssignments.submissionId))
    .innerJoin(calls, eq(calls.id, reviewAssignments.callId))
    .where(eq(reviewAssignments.reviewerId, userId))
    .orderBy(asc(reviewAssignments.dueAt));
}

/**
 * What a reviewer sees of their assignment. Author identity is selected only for a single-blind
 * call, and then only names and affiliations (never e-mails); for a double-blind call the query
 * never touches the authors' table. Before the conflict declaration only the title, abstract,
 * keywords and track are given; versions (with response letters) once the assignment is active.
 * Never the submitter, other reviewers or their reviews.
 */
export async function getReviewerView(userId: string, assignmentId: string) {
  if (!isId(assignmentId)) return null;
  const db = getDb();
  const [row] = await db
    .select({
      assignment: {
        id: reviewAssignments.id,
        state: reviewAssignments.state,
        dueAt: reviewAssignments.dueAt,
        conflictNote: reviewAssignments.conflictNote,
        conflictDeclaredAt: reviewAssignments.conflictDeclaredAt,
      },
      submission: {
        id: submissions.id,
        title: submissions.title,
        abstract: submissions.abstract,
        keywords: submissions.keywords,
        track: submissions.track,
        state: submissions.state,
        round: submissions.round,
      },
      call: {
        id: calls.id,
        title: calls.title,
        blindMode: calls.blindMode,
        criteria: calls.criteria,
        reviewDeadline: calls.reviewDeadline,
      },
    })
    .from(reviewAssignments)
    .innerJoin(submissions, eq(submissions.id, reviewAssignments.submissionId))
    .innerJoin(calls, eq(calls.id, reviewAssignments.callId))
    .where(and(eq(reviewAssignments.id, assignmentId), eq(reviewAssignments.reviewerId, userId)));
  if (!row) return null;
  const open = row.assignment.state === "active";
  const [authors, versions, myReviews] = await Promise.all([
    row.call.blindMode === "single"
      ? db
          .select({ name: submissionAuthors.name, affiliation: submissionAuthors.affiliation })
          .from(submissionAuthors)
          .where(eq(submissionAuthors.submissionId, row.submission.id))
          .orderBy(asc(submissionAuthors.position))
      : Promise.resolve(null),
    open
      ? db
          .select({
            round: submissionVersions.round,
            responseLetter: submissionVersions.responseLetter,
            submittedAt: submissionVersions.submittedAt,
          })
          .from(submissionVersions)
          .where(
            and(
              eq(submissionVersions.submissionId, row.submission.id),
              isNotNull(submissionVersions.submittedAt),
            ),
          )
          .orderBy(asc(submissionVersions.round))
      : Promise.resolve([]),
    db
      .select({
        id: reviews.id,
        round: reviews.round,
        scores: reviews.scores,
        recommendation: reviews.recommendation,
        commentsToAuthors: reviews.commentsToAuthors,
        confidentialComments: reviews.confidentialComments,
        state: reviews.state,
        submittedAt: reviews.submittedAt,
      })
      .from(reviews)
      .where(eq(reviews.assignmentId, row.assignment.id))
      .orderBy(asc(reviews.round)),
  ]);
  return { ...row, authors, versions, reviews: myReviews };
}

/**
 * The stored manuscript of a round for a reviewer whose assignment is active: the reviewer copy
 * (metadata stripped) when made, with the original's key for making it. Null otherwise.
 */
export async function manuscriptForReviewer(userId: string, assignmentId: string, round: number) {
  if (!isId(assignmentId) || !Number.isInteger(round)) return null;
  const [row] = await getDb()
    .select({
      versionId: submissionVersions.id,
      manuscriptKey: submissionVersions.manuscriptKey,
      reviewerCopyKey: submissionVersions.reviewerCopyKey,
      blindMode: calls.blindMode,
    })
    .from(reviewAssignments)
    .innerJoin(calls, eq(calls.id, reviewAssignments.callId))
    .innerJoin(
      submissionVersions,
      and(
        eq(submissionVersions.submissionId, reviewAssignments.submissionId),
        eq(submissionVersions.round, round),
        isNotNull(submissionVersions.submittedAt),
      ),
    )
    .where(
      and(
        eq(reviewAssignments.id, assignmentId),
        eq(reviewAssignments.reviewerId, userId),
        eq(reviewAssignments.state, "active"),
      ),
    );
  return row ?? null;
}

/** Records the reviewer copy made for a version (once: a copy already there is kept). */
export async function setReviewerCopyKey(versionId: string, key: string) {
  const [row] = await getDb()
    .update(submissionVersions)
    .set({ reviewerCopyKey: key })
    .where(
      and(eq(submissionVersions.id, versionId), sql`${submissionVersions.reviewerCopyKey} IS NULL`),
    )
    .returning({ key: submissionVersions.reviewerCopyKey });
  return row?.key ?? null;
}
