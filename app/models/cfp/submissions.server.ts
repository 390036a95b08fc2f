// Submissions: every way a submission can change, one exported function per transition, each in
// one transaction with its audit row and the mails it makes due (style.md rule 11, decision 0106).
// draft → submitted → under_review → revisions_requested → resubmitted → … → accepted | rejected,
// with withdrawn (by the author, before a decision) and desk_rejected (by an editor, unreviewed).
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import {
  agendaItems,
  type CallRow,
  calls,
  type DecisionOutcome,
  decisions,
  eventSpeakers,
  papers,
  reviewAssignments,
  reviews,
  type SubmissionRow,
  type SubmissionState,
  speakers,
  submissionAuthors,
  submissions,
  submissionVersions,
  user,
} from "~/db/schema";
import { dbErrorCode } from "~/lib/db-errors";
import { env } from "~/lib/env.server";
import { dayInZone } from "~/lib/format";
import {
  type Actor,
  auditIn,
  defineMachine,
  type PersonActor,
  type Tx,
} from "~/lib/lifecycle.server";
import { normaliseOrcid } from "~/lib/orcid";
import { publicUrl } from "~/lib/storage.server";
import { enqueueMail } from "~/models/jobs.server";
import { uniquePaperSlug } from "~/models/papers/papers.server";
import { acceptsSubmissions, assertEditor } from "./calls.server";
import { CfpError } from "./cfp-error";
import {
  decisionMail,
  paperPublishedMail,
  revisedVersionMail,
  revisionReceivedMail,
  submissionReceivedMail,
  submissionWithdrawnMail,
} from "./cfp-mails";
import {
  ABSTRACT_MAX,
  KEYWORDS_MAX,
  KEYWORDS_MIN,
  MAX_AUTHORS,
  RESPONSE_LETTER_MAX,
  TITLE_MAX,
} from "./limits";
import { discardStored, readStored, storeManuscript } from "./manuscripts.server";
import { MY_SUBMISSIONS_PATH, mySubmissionPath, reviewPath } from "./urls";

export const SUBMISSION_TRANSITIONS: Record<SubmissionState, readonly SubmissionState[]> = {
  draft: ["submitted", "withdrawn"],
  submitted: ["under_review", "desk_rejected", "withdrawn"],
  under_review: ["revisions_requested", "accepted", "rejected", "withdrawn"],
  revisions_requested: ["resubmitted", "withdrawn"],
  resubmitted: ["under_review", "revisions_requested", "accepted", "rejected", "withdrawn"],
  accepted: [],
  rejected: [],
  withdrawn: [],
  desk_rejected: [],
};

export const submissionMachine = defineMachine<SubmissionState, SubmissionRow>({
  entity: "submission",
  noun: "submission",
  table: submissions,
  transitions: SUBMISSION_TRANSITIONS,
  error: (message, status) => new CfpError(message, status),
});

/** States in which reviewers work on the paper. */
export const IN_REVIEW: readonly SubmissionState[] = ["under_review", "resubmitted"];
/** States with a final decision (or none to come). */
export const FINAL_STATES: readonly SubmissionState[] = [
  "accepted",
  "rejected",
  "withdrawn",
  "desk_rejected",
];
/** Submitted reviews of the current round an editor needs before deciding (the guidelines: two). */
export const MIN_REVIEWS_FOR_DECISION = 2;
/** Reviewers have this long to review a revised version. */
export const REVISION_REVIEW_DAYS = 14;
export {
  ABSTRACT_MAX,
  KEYWORDS_MAX,
  KEYWORDS_MIN,
  MAX_AUTHORS,
  RESPONSE_LETTER_MAX,
  TITLE_MAX,
} from "./limits";

export const DEADLINE_PASSED =
  "The deadline for this call has passed: it takes no new submissions.";
export const CALL_NOT_OPEN = "This call is not open for submissions.";

export type AuthorInput = {
  name: string;
  affiliation?: string | null;
  email?: string | null;
  orcid?: string | null;
  corresponding?: boolean;
};

export type DraftInput = {
  title: string;
  abstract: string;
  keywords: string[];
  track: string | null;
  authors: AuthorInput[];
  declaration: boolean;
  /** A new manuscript (replaces the draft's one); absent keeps the one saved. */
  manuscript?: Uint8Array | null;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function human(state: string) {
  return state.replace(/_/g, " ");
}

function link(path: string) {
  return `${env().BASE_URL}${path}`;
}

/** Moves a submission (with the time of the change), audited by the kit. */
function moveSubmission(
  tx: Tx,
  row: SubmissionRow,
  to: SubmissionState,
  actor: Actor,
  set: Partial<SubmissionRow> = {},
  details: Record<string, unknown> = {},
) {
  return submissionMachine.move(tx, row, to, actor, {
    set: { ...set, stateChangedAt: new Date() },
    details,
  });
}

// ---------------------------------------------------------------------------------------------
// Author input
// ---------------------------------------------------------------------------------------------
function cleanKeywords(values: string[]) {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const value of values.flatMap((v) => v.split(/[,;]/))) {
    const text = value.trim().replace(/\s+/g, " ");
    if (text && !seen.has(text.toLowerCase())) {
      seen.add(text.toLowerCase());
      out.push(text.slice(0, 60));
    }
  }
  return out;
}

/** The authors as stored (blank rows dropped, ORCID canonical), or the refusal of a wrong one. */
export function cleanAuthors(authors: AuthorInput[]) {
  const rows = authors
    .map((author) => ({
      name: author.name.trim(),
      affiliation: author.affiliation?.trim() || null,
      email: author.email?.trim().toLowerCase() || null,
      orcidTyped: author.orcid?.trim() || "",
      corresponding: Boolean(author.corresponding),
    }))
    .filter((a) => a.name || a.affiliation || a.email || a.orcidTyped);
  if (rows.length > MAX_AUTHORS) {
    throw new CfpError(`At most ${MAX_AUTHORS} authors.`, 400, "authors");
  }
  return rows.map((a, index) => {
    if (!a.name) throw new CfpError("Name is required", 400, `authors[${index}].name`);
    if (a.email && !EMAIL.test(a.email)) {
      throw new CfpError("Invalid email address", 400, `authors[${index}].email`);
    }
    const orcid = a.orcidTyped ? normaliseOrcid(a.orcidTyped) : null;
    if (a.orcidTyped && !orcid) {
      throw new CfpError(
        "This is not a valid ORCID iD (check its 16 characters)",
        400,
        `authors[${index}].orcid`,
      );
    }
    return {
      position: index,
      name: a.name,
      affiliation: a.affiliation,
      email: a.email,
      orcid,
      corresponding: a.corresponding,
    };
  });
}

function cleanDraft(input: DraftInput, call: CallRow) {
  const title = input.title.trim().replace(/\s+/g, " ");
  if (title.length > TITLE_MAX) {
    throw new CfpError(`At most ${TITLE_MAX} characters.`, 400, "title");
  }
  const abstract = input.abstract.trim();
  if (abstract.length > ABSTRACT_MAX) {
    throw new CfpError(`At most ${ABSTRACT_MAX} characters.`, 400, "abstract");
  }
  const track = input.track?.trim() || null;
  if (track && !call.tracks.includes(track)) {
    throw new CfpError("Choose a track of this call", 400, "track");
  }
  const keywords = cleanKeywords(input.keywords);
  if (keywords.length > KEYWORDS_MAX) {
    throw new CfpError(`Give ${KEYWORDS_MIN} to ${KEYWORDS_MAX} keywords`, 400, "keywords");
  }
  return { title, abstract, track, keywords, authors: cleanAuthors(input.authors) };
}

async function lockCall(tx: Tx, callId: string) {
  const [call] = await tx.select().from(calls).where(eq(calls.id, callId)).for("share");
  if (!call) throw new CfpError("Call not found", 404);
  return call;
}

async function lockOwnSubmission(tx: Tx, actor: PersonActor, submissionId: string) {
  const row = await submissionMachine.lock(tx, submissionId);
  // Someone else's submission is "not found" to them (no hint it exists).
  if (row.submitterId !== actor.id) throw new CfpError("Submission not found", 404);
  return row;
}

async function versionOf(tx: Tx, submissionId: string, round: number) {
  const [version] = await tx
    .select()
    .from(submissionVersions)
    .where(
      and(eq(submissionVersions.submissionId, submissionId), eq(submissionVersions.round, round)),
    );
  return version ?? null;
}

async function accountOf(tx: Tx, userId: string) {
  const [row] = await tx
    .select({ name: user.name, email: user.email })
    .from(user)
    .where(eq(user.id, userId));
  return row ?? null;
}

/** Mails the submitter (their account's address: greeted by their own name). */
async function mailSubmitter(
  tx: Tx,
  submission: SubmissionRow,
  key: string,
  render: (facts: { greetName: string | null; title: string; callTitle: string; url: string }) => {
    subject: string;
    text: string;
    html: string;
  },
  path = mySubmissionPath(submission.id),
) {
  const account = await accountOf(tx, submission.submitterId);
  if (!account) return;
  const [call] = await tx
    .select({ title: calls.title })
    .from(calls)
    .where(eq(calls.id, submission.callId));
  await enqueueMail(tx, key, {
    to: account.email,
    ...render({
      greetName: account.name,
      title: submission.title,
      callTitle: call?.title ?? "the call",
      url: link(path),
    }),
  });
}

// ---------------------------------------------------------------------------------------------
// Author: draft, submit, withdraw, revise
// ---------------------------------------------------------------------------------------------

/**
 * Creates (`{ callId }`) or updates (`{ submissionId }`) the signed-in person's draft. A draft may
 * be incomplete; what it has must be right (a track of the call, valid ORCID iDs and e-mails).
 * New drafts only while the call takes submissions. A new manuscript replaces the saved one.
 */
export async function saveDraft(
  actor: PersonActor,
  target: { callId: string } | { submissionId: string },
  input: DraftInput,
  now: Date = new Date(),
) {
  const newKey = input.manuscript ? await storeManuscript(input.manuscript) : null;
  let replacedKey: string | null = null;
  try {
    const saved = await getDb().transaction(async (tx) => {
      let row: SubmissionRow;
      let call: CallRow;
      if ("callId" in target) {
        call = await lockCall(tx, target.callId);
        if (call.state !== "open") throw new CfpError(CALL_NOT_OPEN, 409, undefined, "closed");
        if (!acceptsSubmissions(call, now)) {
          throw new CfpError(DEADLINE_PASSED, 409, undefined, "deadline");
        }
        const clean = cleanDraft(input, call);
        [row] = await tx
          .insert(submissions)
          .values({
            callId: call.id,
            submitterId: actor.id,
            title: clean.title,
            abstract: clean.abstract,
            keywords: clean.keywords,
            track: clean.track,
            declaredAt: input.declaration ? now : null,
          })
          .returning();
        await auditIn(tx, actor, "submission.create", row.id, { callId: call.id });
        await writeAuthors(tx, row.id, clean.authors);
      } else {
        row = await lockOwnSubmission(tx, actor, target.submissionId);
        if (row.state !== "draft") {
          throw new CfpError(`A submission that is ${human(row.state)} is no longer a draft.`, 409);
        }
        call = await lockCall(tx, row.callId);
        const clean = cleanDraft(input, call);
        [row] = await tx
          .update(submissions)
          .set({
            title: clean.title,
            abstract: clean.abstract,
            keywords: clean.keywords,
            track: clean.track,
            declaredAt: input.declaration ? (row.declaredAt ?? now) : null,
          })
          .where(eq(submissions.id, row.id))
          .returning();
        await writeAuthors(tx, row.id, clean.authors);
        await auditIn(tx, actor, "submission.save", row.id, {});
      }
      if (newKey) {
        const version = await versionOf(tx, row.id, 1);
        replacedKey = version?.manuscriptKey ?? null;
        await tx
          .insert(submissionVersions)
          .values({
            submissionId: row.id,
            round: 1,
            manuscriptKey: newKey,
            manuscriptBytes: input.manuscript?.byteLength ?? null,
          })
          .onConflictDoUpdate({
            target: [submissionVersions.submissionId, submissionVersions.round],
            set: {
              manuscriptKey: newKey,
              manuscriptBytes: input.manuscript?.byteLength ?? null,
              reviewerCopyKey: null,
            },
          });
      }
      return row;
    });
    await discardStored(replacedKey);
    return saved;
  } catch (error) {
    await discardStored(newKey);
    throw error;
  }
}

async function writeAuthors(
  tx: Tx,
  submissionId: string,
  authors: ReturnType<typeof cleanAuthors>,
) {
  await tx.delete(submissionAuthors).where(eq(submissionAuthors.submissionId, submissionId));
  if (authors.length > 0) {
    await tx.insert(submissionAuthors).values(authors.map((a) => ({ ...a, submissionId })));
  }
}

/** What a draft still lacks before it can be submitted: field → message (empty: complete). */
export async function missingForSubmission(tx: Tx, row: SubmissionRow, call: CallRow) {
  const missing: Record<string, string> = {};
  if (!row.title.trim()) missing.title = "Title is required";
  if (!row.abstract.trim()) missing.abstract = "Abstract is required";
  if (row.keywords.length < KEYWORDS_MIN || row.keywords.length > KEYWORDS_MAX) {
    missing.keywords = `Give ${KEYWORDS_MIN} to ${KEYWORDS_MAX} keywords`;
  }
  if (call.tracks.length > 0 && !row.track) missing.track = "Choose a track";
  const authors = await tx
    .select()
    .from(submissionAuthors)
    .where(eq(submissionAuthors.submissionId, row.id));
  if (authors.length === 0) missing.authors = "At least one author is required";
  else if (!authors.some((a) => a.corresponding && a.email)) {
    missing.authors = "Name one corresponding author with an e-mail address";
  }
  const version = await versionOf(tx, row.id, 1);
  if (!version?.manuscriptKey) missing.manuscript = "Upload the manuscript (one PDF)";
  if (!row.declaredAt) missing.declaration = "Confirm the declaration to submit";
  return missing;
}

/**
 * Sends a complete draft to the editors (before the call's deadline); the first version is
 * frozen. Refused with the first missing field (CfpError 400 with its field).
 */
export async function submit(actor: PersonActor, submissionId: string, now: Date = new Date()) {
  return getDb().transaction(async (tx) => {
    const row = await lockOwnSubmission(tx, actor, submissionId);
    submissionMachine.assertCanMove(row.state, "submitted");
    const call = await lockCall(tx, row.callId);
    if (call.state !== "open") throw new CfpError(CALL_NOT_OPEN, 409, undefined, "closed");
    if (!acceptsSubmissions(call, now)) {
      throw new CfpError(DEADLINE_PASSED, 409, undefined, "deadline");
    }
    const missing = Object.entries(await missingForSubmission(tx, row, call));
    if (missing.length > 0) {
      const [field, message] = missing[0];
      throw new CfpError(message, 400, field);
    }
    await tx
      .update(submissionVersions)
      .set({ submittedAt: now })
      .where(and(eq(submissionVersions.submissionId, row.id), eq(submissionVersions.round, 1)));
    const moved = await moveSubmission(tx, row, "submitted", actor, { submittedAt: now });
    await mailSubmitter(tx, moved, `cfp:submitted:${row.id}`, submissionReceivedMail);
    return moved;
  });
}

/** The author withdraws before a decision: reviewers stop (their assignments are cancelled). */
export async function withdraw(actor: PersonActor, submissionId: string) {
  return getDb().transaction(async (tx) => {
    const row = await lockOwnSubmission(tx, actor, submissionId);
    if (FINAL_STATES.includes(row.state)) {
      throw new CfpError(
        `A submission that is ${human(row.state)} can no longer be withdrawn.`,
        409,
      );
    }
    const moved = await moveSubmission(tx, row, "withdrawn", actor, { withdrawnAt: new Date() });
    await cancelLiveAssignments(tx, row.id, actor, "submission withdrawn");
    if (row.state !== "draft") {
      await mailSubmitter(
        tx,
        moved,
        `cfp:withdrawn:${row.id}`,
        submissionWithdrawnMail,
        MY_SUBMISSIONS_PATH,
      );
    }
    return moved;
  });
}

async function cancelLiveAssignments(tx: Tx, submissionId: string, actor: Actor, reason: string) {
  const live = await tx
    .update(reviewAssignments)
    .set({ state: "cancelled" })
    .where(
      and(
        eq(reviewAssignments.submissionId, submissionId),
        inArray(reviewAssignments.state, ["invited", "active"]),
      ),
    )
    .returning({ id: reviewAssignments.id });
  for (const assignment of live) {
    await auditIn(tx, actor, "review_assignment.cancelled", assignment.id, { reason });
  }
}

/**
 * The author's revised version for a "revisions requested" decision: a new round with the new
 * manuscript and the response letter; the reviewers still on the paper are asked to review it.
 */
export async function submitRevision(
  actor: PersonActor,
  submissionId: string,
  input: { manuscript: Uint8Array; responseLetter: string },
  now: Date = new Date(),
) {
  const responseLetter = input.responseLetter.trim();
  if (!responseLetter) {
    throw new CfpError("Write a response letter to the reviewers", 400, "responseLetter");
  }
  if (responseLetter.length > RESPONSE_LETTER_MAX) {
    throw new CfpError(`At most ${RESPONSE_LETTER_MAX} characters.`, 400, "responseLetter");
  }
  const key = await storeManuscript(input.manuscript);
  try {
    return await getDb().transaction(async (tx) => {
      const row = await lockOwnSubmission(tx, actor, submissionId);
      submissionMachine.assertCanMove(row.state, "resubmitted");
      const round = row.round + 1;
      await tx.insert(submissionVersions).values({
        submissionId: row.id,
        round,
        manuscriptKey: key,
        manuscriptBytes: input.manuscript.byteLength,
        responseLetter,
        submittedAt: now,
      });
      const moved = await moveSubmission(tx, row, "resubmitted", actor, { round }, { round });
      const dueAt = new Date(now.getTime() + REVISION_REVIEW_DAYS * 86_400_000);
      const active = await tx
        .update(reviewAssignments)
        .set({ dueAt })
        .where(
          and(eq(reviewAssignments.submissionId, row.id), eq(reviewAssignments.state, "active")),
        )
        .returning();
      const [call] = await tx.select().from(calls).where(eq(calls.id, row.callId));
      for (const assignment of active) {
        const [account] = assignment.reviewerId
          ? await tx
              .select({ email: user.email })
              .from(user)
              .where(eq(user.id, assignment.reviewerId))
          : [];
        await enqueueMail(tx, `cfp:revised:${assignment.id}:${round}`, {
          to: account?.email ?? assignment.invitedEmail,
          ...revisedVersionMail({
            title: row.title,
            callTitle: call.title,
            dueAt,
            round,
            url: link(reviewPath(assignment.id)),
          }),
        });
      }
      await mailSubmitter(tx, moved, `cfp:revision:${row.id}:${round}`, (facts) =>
        revisionReceivedMail({ ...facts, round }),
      );
      return moved;
    });
  } catch (error) {
    await discardStored(key);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Editors: screening and decisions
// ---------------------------------------------------------------------------------------------

/** Whether a person is an author of a submission (its submitter, or an author with their address). */
export async function isAuthorOf(tx: Tx, submission: SubmissionRow, personId: string) {
  if (submission.submitterId === personId) return true;
  const [hit] = await tx
    .select({ id: submissionAuthors.id })
    .from(submissionAuthors)
    .innerJoin(user, sql`lower(${user.email}) = lower(${submissionAuthors.email})`)
    .where(and(eq(submissionAuthors.submissionId, submission.id), eq(user.id, personId)))
    .limit(1);
  return Boolean(hit);
}

async function assertNotAuthor(tx: Tx, submission: SubmissionRow, actor: PersonActor) {
  if (await isAuthorOf(tx, submission, actor.id)) {
    throw new CfpError("Nobody decides on a submission they are an author of.", 403);
  }
}

/**
 * Records the round's one decision under the submission's lock; the unique (submission, round)
 * makes a second editor's decision of the same round fail as "already decided".
 */
async function recordDecision(
  tx: Tx,
  row: SubmissionRow,
  actor: PersonActor,
  outcome: DecisionOutcome,
  letter: string,
) {
  const [decision] = await tx
    .insert(decisions)
    .values({ submissionId: row.id, round: row.round, editorId: actor.id, outcome, letter })
    .onConflictDoNothing()
    .returning();
  if (!decision) throw new CfpError("Another editor has already decided this round.", 409);
  return decision;
}

/** An editor turns a submission down before review, with the reason the author is sent. */
export async function deskReject(actor: Actor, submissionId: string, reason: string) {
  assertEditor(actor);
  const text = reason.trim();
  if (!text) throw new CfpError("Give the reason the author will read", 400, "reason");
  return getDb().transaction(async (tx) => {
    const row = await submissionMachine.lock(tx, submissionId);
    submissionMachine.assertCanMove(row.state, "desk_rejected");
    await assertNotAuthor(tx, row, actor);
    await recordDecision(tx, row, actor, "desk_rejected", text);
    const moved = await moveSubmission(
      tx,
      row,
      "desk_rejected",
      actor,
      { deskRejectReason: text, decidedAt: new Date() },
      { round: row.round },
    );
    await mailSubmitter(tx, moved, `cfp:decision:${row.id}:${row.round}`, (facts) =>
      decisionMail({ ...facts, outcome: "desk_rejected", letter: text }),
    );
    return moved;
  });
}

export type EditorOutcome = "accepted" | "revisions_requested" | "rejected";

/** The letter the authors receive: the editor's words, then each review's comments to authors. */
export function composeDecisionLetter(editorLetter: string, comments: readonly string[]) {
  const parts = [editorLetter.trim()];
  comments.forEach((text, index) => {
    if (text.trim()) parts.push(`Reviewer ${index + 1}:\n${text.trim()}`);
  });
  return parts.join("\n\n");
}

/**
 * The editor's decision on the current round (accept, revisions requested, reject), once: the
 * letter carries the reviewers' comments to authors (reviewers numbered, never named). Needs
 * MIN_REVIEWS_FOR_DECISION submitted reviews of the round.
 */
export async function decide(
  actor: Actor,
  submissionId: string,
  input: { outcome: EditorOutcome; letter: string },
) {
  assertEditor(actor);
  if (!["accepted", "revisions_requested", "rejected"].includes(input.outcome)) {
    throw new CfpError("Choose a decision", 400, "outcome");
  }
  if (!input.letter.trim()) {
    throw new CfpError("Write the letter to the authors", 400, "letter");
  }
  return getDb().transaction(async (tx) => {
    const row = await submissionMachine.lock(tx, submissionId);
    const [already] = await tx
      .select({ id: decisions.id })
      .from(decisions)
      .where(and(eq(decisions.submissionId, row.id), eq(decisions.round, row.round)));
    if (already) throw new CfpError("Another editor has already decided this round.", 409);
    submissionMachine.assertCanMove(row.state, input.outcome);
    await assertNotAuthor(tx, row, actor);
    const submitted = await tx
      .select({ comments: reviews.commentsToAuthors })
      .from(reviews)
      .innerJoin(reviewAssignments, eq(reviewAssignments.id, reviews.assignmentId))
      .where(
        and(
          eq(reviews.submissionId, row.id),
          eq(reviews.round, row.round),
          eq(reviews.state, "submitted"),
        ),
      )
      .orderBy(asc(reviewAssignments.createdAt));
    if (submitted.length < MIN_REVIEWS_FOR_DECISION) {
      throw new CfpError(
        `A decision needs at least ${MIN_REVIEWS_FOR_DECISION} submitted reviews of this round.`,
        409,
      );
    }
    const letter = composeDecisionLetter(
      input.letter,
      submitted.map((r) => r.comments),
    );
    const decision = await recordDecision(tx, row, actor, input.outcome, letter);
    const moved = await moveSubmission(
      tx,
      row,
      input.outcome,
      actor,
      input.outcome === "revisions_requested" ? {} : { decidedAt: new Date() },
      { round: row.round, decisionId: decision.id },
    );
    await mailSubmitter(tx, moved, `cfp:decision:${row.id}:${row.round}`, (facts) =>
      decisionMail({ ...facts, outcome: input.outcome, letter }),
    );
    return { submission: moved, decision };
  });
}

// ---------------------------------------------------------------------------------------------
// Into the library and the programme
// ---------------------------------------------------------------------------------------------

/**
 * Publishes an accepted submission to the paper library in one action: a `papers` row (status
 * published, today's date, the authors in order, abstract, keywords as tags, track as category)
 * with a public copy of the latest manuscript, so its page, citation files and Scholar tags work
 * as for any paper. Once: the submission keeps the paper's id (unique).
 */
export async function publishToLibrary(actor: Actor, submissionId: string) {
  assertEditor(actor);
  const db = getDb();
  const [current] = await db.select().from(submissions).where(eq(submissions.id, submissionId));
  if (!current) throw new CfpError("Submission not found", 404);
  if (current.state !== "accepted") {
    throw new CfpError("Only an accepted submission can be published.", 409);
  }
  if (current.publishedPaperId) throw new CfpError("This paper is already published.", 409);
  const [version] = await db
    .select({ key: submissionVersions.manuscriptKey })
    .from(submissionVersions)
    .where(eq(submissionVersions.submissionId, submissionId))
    .orderBy(sql`${submissionVersions.round} DESC`)
    .limit(1);
  const bytes = version?.key ? await readStored(version.key) : null;
  const pdfKey = bytes ? await storeManuscript(bytes, "pdfs") : null;
  try {
    for (let attempt = 0; ; attempt++) {
      const slug = await uniquePaperSlug(current.title);
      try {
        return await db.transaction(async (tx) => {
          const row = await submissionMachine.lock(tx, submissionId);
          if (row.state !== "accepted") {
            throw new CfpError("Only an accepted submission can be published.", 409);
          }
          if (row.publishedPaperId) throw new CfpError("This paper is already published.", 409);
          const authors = await tx
            .select({ name: submissionAuthors.name })
            .from(submissionAuthors)
            .where(eq(submissionAuthors.submissionId, row.id))
            .orderBy(asc(submissionAuthors.position));
          const [paper] = await tx
            .insert(papers)
            .values({
              title: row.title,
              slug,
              abstract: row.abstract,
              authors: authors.map((a) => a.name),
              category: row.track,
              tags: row.keywords.length ? row.keywords : null,
              pdfUrl: pdfKey ? publicUrl(pdfKey) : null,
              status: "published",
              publishedDate: dayInZone(new Date()),
              createdBy: actor.id,
            })
            .returning({ id: papers.id, slug: papers.slug, title: papers.title });
          await tx
            .update(submissions)
            .set({ publishedPaperId: paper.id })
            .where(eq(submissions.id, row.id));
          await auditIn(tx, actor, "submission.publish", row.id, { paperId: paper.id });
          await auditIn(tx, actor, "paper.create", paper.id, {
            title: paper.title,
            status: "published",
            submissionId: row.id,
          });
          await mailSubmitter(
            tx,
            row,
            `cfp:published:${row.id}`,
            paperPublishedMail,
            `/papers/${paper.slug}`,
          );
          return paper;
        });
      } catch (error) {
        // Two papers with one title published at once race for the slug: take a fresh one.
        if (dbErrorCode(error) !== "23505" || attempt >= 2) throw error;
      }
    }
  } catch (error) {
    await discardStored(pdfKey);
    throw error;
  }
}

/**
 * Adds an accepted paper to the agenda of the event its call feeds, once, with its presenting
 * author as the session's speaker (an existing speaker of that name and organisation is reused).
 */
export async function addToAgenda(
  actor: Actor,
  submissionId: string,
  input: { startTime: Date; endTime: Date | null; presentingAuthorId: string },
) {
  assertEditor(actor);
  if (Number.isNaN(input.startTime.getTime())) {
    throw new CfpError("Start time is required", 400, "startTime");
  }
  if (input.endTime && input.endTime.getTime() <= input.startTime.getTime()) {
    throw new CfpError("The end must be after the start", 400, "endTime");
  }
  return getDb().transaction(async (tx) => {
    const row = await submissionMachine.lock(tx, submissionId);
    if (row.state !== "accepted") {
      throw new CfpError("Only an accepted paper can join the agenda.", 409);
    }
    if (row.agendaItemId) throw new CfpError("This paper is already on the agenda.", 409);
    const [call] = await tx.select().from(calls).where(eq(calls.id, row.callId));
    if (!call?.eventId) throw new CfpError("This call does not feed an event.", 409);
    const [author] = await tx
      .select()
      .from(submissionAuthors)
      .where(
        and(
          eq(submissionAuthors.submissionId, row.id),
          eq(submissionAuthors.id, input.presentingAuthorId),
        ),
      );
    if (!author) throw new CfpError("Choose the presenting author", 400, "presentingAuthorId");
    const [existing] = await tx
      .select({ id: speakers.id })
      .from(speakers)
      .where(
        and(
          eq(speakers.name, author.name),
          author.affiliation
            ? eq(speakers.organization, author.affiliation)
            : sql`${speakers.organization} IS NULL`,
        ),
      )
      .limit(1);
    const speakerId =
      existing?.id ??
      (
        await tx
          .insert(speakers)
          .values({ name: author.name, organization: author.affiliation })
          .returning({ id: speakers.id })
      )[0].id;
    if (!existing) await auditIn(tx, actor, "speaker.create", speakerId, { name: author.name });
    await tx
      .insert(eventSpeakers)
      .values({ eventId: call.eventId, speakerId })
      .onConflictDoNothing();
    const [item] = await tx
      .insert(agendaItems)
      .values({
        eventId: call.eventId,
        startTime: input.startTime,
        endTime: input.endTime,
        title: row.title,
        description: `Paper presented by ${author.name}${author.affiliation ? ` (${author.affiliation})` : ""}.`,
      })
      .returning();
    await tx.update(submissions).set({ agendaItemId: item.id }).where(eq(submissions.id, row.id));
    await auditIn(tx, actor, "submission.agenda", row.id, {
      eventId: call.eventId,
      agendaItemId: item.id,
      speakerId,
    });
    return { agendaItem: item, speakerId };
  });
}
