import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AssignmentState,
  agendaItems,
  auditLog,
  type CallState,
  decisions,
  eventSpeakers,
  events,
  jobs,
  papers,
  reviewAssignments,
  type SubmissionState,
  submissionVersions,
  user,
} from "~/db/schema";
import { setEnv } from "~/lib/env.server";
import type { PersonActor } from "~/lib/lifecycle.server";
import { runDueJobs, runSchedulesAsOf } from "~/models/jobs.server";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { testEnv } from "../../../tests/helpers/env";
import { startTestSmtp } from "../../../tests/helpers/smtp";
import { CALL_TRANSITIONS, closeCall, createCall, openCall, updateCall } from "./calls.server";
import { CfpError } from "./cfp-error";
import { CFP_JOBS } from "./job-kinds";
import { MAX_MANUSCRIPT_BYTES } from "./manuscripts.server";
import {
  getMySubmission,
  getReviewerView,
  listMySubmissions,
  listOpenCalls,
  listSubmissionsForCall,
  manuscriptForReviewer,
} from "./queries.server";
import {
  ASSIGNMENT_TRANSITIONS,
  acceptReviewerInvitation,
  assignReviewer,
  declareConflict,
  REVIEW_LOCKED,
  saveReview,
  submitReview,
} from "./reviews.server";
import {
  addToAgenda,
  DEADLINE_PASSED,
  type DraftInput,
  decide,
  deskReject,
  publishToLibrary,
  SUBMISSION_TRANSITIONS,
  saveDraft,
  submit,
  submitRevision,
  withdraw,
} from "./submissions.server";

wireProcess();

const DAY = 86_400_000;
const PDF = new TextEncoder().encode("%PDF-1.4\n% a manuscript\n%%EOF\n");

describe("calls for papers: lifecycle", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let editor: PersonActor;
  let otherEditor: PersonActor;
  let eventId: string;

  async function person(role: "user" | "editor" = "user", name = "Person") {
    const id = randomUUID();
    const email = `p.${id.slice(0, 8)}@example.test`;
    const fullName = `${name} ${id.slice(0, 4)}`;
    await database.db.insert(user).values({ id, name: fullName, email, role });
    return { actor: { id, role } as PersonActor, email, name: fullName };
  }

  async function drainJobs() {
    while ((await runDueJobs({ limit: 50 })) > 0) {}
  }

  async function newCall(overrides: Partial<Parameters<typeof createCall>[1]> = {}) {
    return createCall(
      editor,
      {
        title: `Call ${randomUUID().slice(0, 6)}`,
        description: "Papers on records and data governance.",
        tracks: ["Records", "Data governance"],
        submissionDeadline: new Date(Date.now() + 30 * DAY),
        reviewDeadline: new Date(Date.now() + 60 * DAY),
        eventId: null,
        blindMode: "double",
        criteria: ["Originality", "Rigour"],
        ...overrides,
      },
      { open: true },
    );
  }

  function draftInput(author: { name: string; email: string }, extra: Partial<DraftInput> = {}) {
    return {
      title: "Records at scale",
      abstract: "What we learnt keeping the records of a national registry.",
      keywords: ["records", "archives", "registries"],
      track: "Records",
      authors: [
        {
          name: author.name,
          affiliation: "Uniquely Named Institute",
          email: author.email,
          orcid: "0000-0002-1825-0097",
          corresponding: true,
        },
        {
          name: "Wanjiru Co-Author",
          affiliation: "Second Affiliation Ltd",
          email: "coauthor@example.test",
        },
      ],
      declaration: true,
      manuscript: PDF,
      ...extra,
    } satisfies DraftInput;
  }

  /** A submitted paper of a new author to `callId`. */
  async function submitted(callId: string) {
    const author = await person("user", "Author");
    const draft = await saveDraft(author.actor, { callId }, draftInput(author));
    await submit(author.actor, draft.id);
    return { author, submissionId: draft.id };
  }

  async function reviewer(submissionId: string) {
    const r = await person("user", "Reviewer");
    const assignment = await assignReviewer(editor, submissionId, {
      email: r.email,
      dueAt: new Date(Date.now() + 14 * DAY),
    });
    await declareConflict(r.actor, assignment.id, { conflict: false });
    return { ...r, assignmentId: assignment.id };
  }

  const fullReview = (recommendation: "accept" | "minor" | "major" | "reject", text: string) => ({
    scores: { originality: 4, rigour: 3 },
    recommendation,
    commentsToAuthors: text,
    confidentialComments: "For the editor only.",
  });

  async function underReviewWithTwoReviews(callId: string) {
    const paper = await submitted(callId);
    const r1 = await reviewer(paper.submissionId);
    const r2 = await reviewer(paper.submissionId);
    await submitReview(r1.actor, r1.assignmentId, fullReview("minor", "Clarify the sample."));
    await submitReview(r2.actor, r2.assignmentId, fullReview("accept", "A fine study."));
    return { ...paper, r1, r2 };
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    setEnv(testEnv({ SMTP_URL: smtp.url }));
    editor = (await person("editor", "Editor")).actor;
    otherEditor = (await person("editor", "Editor")).actor;
    const [event] = await database.db
      .insert(events)
      .values({
        title: "Records Summit",
        slug: `records-summit-${randomUUID().slice(0, 6)}`,
        location: "Nairobi, Kenya",
        startDate: new Date(Date.now() + 90 * DAY),
        endDate: new Date(Date.now() + 92 * DAY),
        status: "published",
      } as typeof events.$inferInsert)
      .returning({ id: events.id });
    eventId = event.id;
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("has exactly the transition tables of decision 0106", () => {
    expect(CALL_TRANSITIONS).toEqual({
      draft: ["open"],
      open: ["closed"],
      closed: ["open"],
    } satisfies Record<CallState, CallState[]>);
    expect(SUBMISSION_TRANSITIONS).toEqual({
      draft: ["submitted", "withdrawn"],
      submitted: ["under_review", "desk_rejected", "withdrawn"],
      under_review: ["revisions_requested", "accepted", "rejected", "withdrawn"],
      revisions_requested: ["resubmitted", "withdrawn"],
      resubmitted: ["under_review", "revisions_requested", "accepted", "rejected", "withdrawn"],
      accepted: [],
      rejected: [],
      withdrawn: [],
      desk_rejected: [],
    } satisfies Record<SubmissionState, SubmissionState[]>);
    expect(ASSIGNMENT_TRANSITIONS).toEqual({
      invited: ["active", "conflicted", "declined", "cancelled"],
      active: ["conflicted", "cancelled"],
      conflicted: [],
      declined: [],
      cancelled: [],
    } satisfies Record<AssignmentState, AssignmentState[]>);
  });

  it("lets editors create, change, open and close calls, audited; refuses others and bad input", async () => {
    const member = await person();
    await expect(
      createCall(member.actor, {
        title: "x",
        description: "",
        tracks: [],
        submissionDeadline: new Date(),
        reviewDeadline: new Date(),
        eventId: null,
        blindMode: "double",
        criteria: ["A"],
      }),
    ).rejects.toMatchObject({ status: 403 });
    const input = {
      title: "Draft call",
      description: "",
      tracks: [" Records ", "records", ""],
      submissionDeadline: new Date(Date.now() + 10 * DAY),
      reviewDeadline: new Date(Date.now() + 5 * DAY),
      eventId: null,
      blindMode: "double" as const,
      criteria: ["Originality"],
    };
    await expect(createCall(editor, input)).rejects.toMatchObject({
      status: 400,
      field: "reviewDeadline",
    });
    const call = await createCall(editor, {
      ...input,
      reviewDeadline: new Date(Date.now() + 20 * DAY),
    });
    expect(call.state).toBe("draft");
    expect(call.tracks).toEqual(["Records"]);
    expect(call.criteria).toEqual([{ key: "originality", label: "Originality" }]);
    const updated = await updateCall(editor, call.id, {
      ...input,
      title: "Renamed call",
      reviewDeadline: new Date(Date.now() + 20 * DAY),
      criteria: ["Originality", "Clarity"],
      eventId,
    });
    expect(updated.criteria.map((c) => c.key)).toEqual(["originality", "clarity"]);
    await expect(closeCall(editor, call.id)).rejects.toBeInstanceOf(CfpError);
    await openCall(editor, call.id);
    expect((await listOpenCalls({ eventId })).map((c) => c.id)).toContain(call.id);
    await closeCall(editor, call.id);
    expect((await listOpenCalls()).map((c) => c.id)).not.toContain(call.id);
    const audit = await database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.entityId, call.id))
      .orderBy(auditLog.createdAt);
    expect(audit.map((a) => a.action)).toEqual([
      "call.create",
      "call.update",
      "call.open",
      "call.closed",
    ]);
  });

  it("saves a draft, refuses an incomplete submission by field, and submits before the deadline", async () => {
    const call = await newCall();
    const author = await person("user", "Author");
    const draft = await saveDraft(
      author.actor,
      { callId: call.id },
      {
        ...draftInput(author),
        keywords: ["one"],
        declaration: false,
        manuscript: null,
      },
    );
    expect(draft.state).toBe("draft");
    await expect(submit(author.actor, draft.id)).rejects.toMatchObject({
      status: 400,
      field: "keywords",
    });
    // An invalid ORCID iD (check digit) and a track of another call are refused where typed.
    await expect(
      saveDraft(
        author.actor,
        { submissionId: draft.id },
        {
          ...draftInput(author),
          authors: [{ name: author.name, orcid: "0000-0002-1825-0098" }],
        },
      ),
    ).rejects.toMatchObject({ status: 400, field: "authors[0].orcid" });
    await expect(
      saveDraft(
        author.actor,
        { submissionId: draft.id },
        { ...draftInput(author), track: "Cooking" },
      ),
    ).rejects.toMatchObject({ field: "track" });
    await expect(
      saveDraft(
        author.actor,
        { submissionId: draft.id },
        {
          ...draftInput(author),
          manuscript: new Uint8Array(MAX_MANUSCRIPT_BYTES + 1),
        },
      ),
    ).rejects.toMatchObject({ field: "manuscript" });
    // Someone else cannot see or change it.
    const stranger = await person();
    await expect(
      saveDraft(stranger.actor, { submissionId: draft.id }, draftInput(stranger)),
    ).rejects.toMatchObject({ status: 404 });
    expect(await getMySubmission(stranger.actor.id, draft.id)).toBeNull();

    await saveDraft(author.actor, { submissionId: draft.id }, draftInput(author));
    // After the deadline: no submitting, no new drafts.
    const late = new Date(call.submissionDeadline.getTime() + 1000);
    await expect(submit(author.actor, draft.id, late)).rejects.toMatchObject({
      message: DEADLINE_PASSED,
    });
    await expect(
      saveDraft(author.actor, { callId: call.id }, draftInput(author), late),
    ).rejects.toMatchObject({ message: DEADLINE_PASSED });

    const sent = await submit(author.actor, draft.id);
    expect(sent.state).toBe("submitted");
    const [version] = await database.db
      .select()
      .from(submissionVersions)
      .where(eq(submissionVersions.submissionId, draft.id));
    expect(version.submittedAt).not.toBeNull();
    const mine = await getMySubmission(author.actor.id, draft.id);
    expect(mine?.authors.map((a) => a.orcid)).toEqual(["0000-0002-1825-0097", null]);
    expect(mine?.history.map((h) => h.label)).toEqual(["Draft started", "Submitted"]);
    expect((await listMySubmissions(author.actor.id)).map((s) => s.state)).toEqual(["submitted"]);
    await drainJobs();
    const mail = await smtp.waitFor(author.email, /Submission received/);
    expect(mail.text).toContain("Records at scale");
  });

  it("withdraws before a decision, not after; desk-rejects with the reason mailed", async () => {
    const call = await newCall();
    const a = await submitted(call.id);
    expect((await withdraw(a.author.actor, a.submissionId)).state).toBe("withdrawn");
    await expect(withdraw(a.author.actor, a.submissionId)).rejects.toMatchObject({ status: 409 });

    const b = await submitted(call.id);
    await expect(deskReject(editor, b.submissionId, " ")).rejects.toMatchObject({
      field: "reason",
    });
    const rejected = await deskReject(editor, b.submissionId, "Out of the call's scope.");
    expect(rejected.state).toBe("desk_rejected");
    await expect(withdraw(b.author.actor, b.submissionId)).rejects.toMatchObject({ status: 409 });
    await drainJobs();
    const mail = await smtp.waitFor(b.author.email, /Decision/);
    expect(mail.text).toContain("Out of the call's scope.");
  });

  it("never lets an author review, and invites an address with no account", async () => {
    const call = await newCall();
    const paper = await submitted(call.id);
    const due = new Date(Date.now() + 14 * DAY);
    await expect(
      assignReviewer(editor, paper.submissionId, {
        email: paper.author.email.toUpperCase(),
        dueAt: due,
      }),
    ).rejects.toMatchObject({ field: "email", status: 400 });
    await expect(
      assignReviewer(editor, paper.submissionId, { email: "coauthor@example.test", dueAt: due }),
    ).rejects.toMatchObject({ field: "email" });

    const invited = `new.${randomUUID().slice(0, 6)}@example.test`;
    const assignment = await assignReviewer(editor, paper.submissionId, {
      email: invited,
      dueAt: due,
    });
    expect(assignment.reviewerId).toBeNull();
    await expect(
      assignReviewer(editor, paper.submissionId, { email: invited, dueAt: due }),
    ).rejects.toMatchObject({ status: 409 });
    await drainJobs();
    const mail = await smtp.waitFor(invited, /Invitation to review/);
    expect(mail.text).not.toContain(paper.author.name);
    const token = /\/reviews\/invitation\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] as string;
    expect(token).toBeTruthy();
    const wrong = await person();
    await expect(acceptReviewerInvitation(wrong.actor, token)).rejects.toMatchObject({
      status: 403,
    });
    // The invited person makes an account with that address and takes the assignment.
    const id = randomUUID();
    await database.db
      .insert(user)
      .values({ id, name: "Invited Reviewer", email: invited, role: "user" });
    const taken = await acceptReviewerInvitation({ id, role: "user" }, token);
    expect(taken.reviewerId).toBe(id);
    await expect(acceptReviewerInvitation({ id, role: "user" }, token)).rejects.toMatchObject({
      status: 404,
    });
  });

  it("opens the paper only after the conflict declaration; a conflict tells the editor", async () => {
    const call = await newCall();
    const paper = await submitted(call.id);
    const r = await person("user", "Reviewer");
    const assignment = await assignReviewer(editor, paper.submissionId, {
      email: r.email,
      dueAt: new Date(Date.now() + 7 * DAY),
    });
    await expect(
      saveReview(r.actor, assignment.id, fullReview("accept", "x")),
    ).rejects.toMatchObject({
      status: 409,
    });
    expect(await manuscriptForReviewer(r.actor.id, assignment.id, 1)).toBeNull();
    const view = await getReviewerView(r.actor.id, assignment.id);
    expect(view?.versions).toEqual([]);
    await expect(declareConflict(r.actor, assignment.id, { conflict: true })).rejects.toMatchObject(
      {
        field: "note",
      },
    );
    const moved = await declareConflict(r.actor, assignment.id, {
      conflict: true,
      note: "I supervised the first author.",
    });
    expect(moved.state).toBe("conflicted");
    await expect(
      saveReview(r.actor, assignment.id, fullReview("accept", "x")),
    ).rejects.toMatchObject({
      status: 409,
    });
    const editorRow = await database.db.select().from(user).where(eq(user.id, editor.id));
    await drainJobs();
    await smtp.waitFor(editorRow[0].email, /Reviewer unavailable/);
  });

  it("keeps drafts of reviews, requires a complete review to submit, then locks it", async () => {
    const call = await newCall();
    const paper = await submitted(call.id);
    const r = await reviewer(paper.submissionId);
    const draft = await saveReview(r.actor, r.assignmentId, {
      scores: { originality: 2 },
      recommendation: null,
      commentsToAuthors: "",
      confidentialComments: "",
    });
    expect(draft.state).toBe("draft");
    await expect(
      saveReview(r.actor, r.assignmentId, {
        ...fullReview("accept", "x"),
        scores: { originality: 9 },
      }),
    ).rejects.toMatchObject({ field: "scores.originality" });
    await expect(
      submitReview(r.actor, r.assignmentId, {
        ...fullReview("accept", "x"),
        scores: { originality: 2 },
      }),
    ).rejects.toMatchObject({ field: "scores.rigour" });
    const done = await submitReview(r.actor, r.assignmentId, fullReview("major", "More data."));
    expect(done.state).toBe("submitted");
    await expect(
      saveReview(r.actor, r.assignmentId, fullReview("accept", "Changed my mind")),
    ).rejects.toMatchObject({ message: REVIEW_LOCKED });
    const stranger = await person();
    await expect(
      saveReview(stranger.actor, r.assignmentId, fullReview("accept", "x")),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("hides authors from reviewers of a double-blind call, in every field of the view", async () => {
    const call = await newCall();
    const paper = await submitted(call.id);
    const r = await reviewer(paper.submissionId);
    const json = JSON.stringify(await getReviewerView(r.actor.id, r.assignmentId));
    for (const secret of [
      paper.author.name,
      paper.author.email,
      "Uniquely Named Institute",
      "0000-0002-1825-0097",
      "Wanjiru Co-Author",
      "coauthor@example.test",
      paper.author.actor.id,
    ]) {
      expect(json).not.toContain(secret);
    }
    expect(json).toContain("Records at scale");

    const single = await newCall({ blindMode: "single" });
    const open = await submitted(single.id);
    const r2 = await reviewer(open.submissionId);
    const view = await getReviewerView(r2.actor.id, r2.assignmentId);
    expect(view?.authors?.map((a) => a.name)).toEqual([open.author.name, "Wanjiru Co-Author"]);
    expect(JSON.stringify(view)).not.toContain(open.author.email);
    // Another reviewer's assignment is not theirs.
    expect(await getReviewerView(r.actor.id, r2.assignmentId)).toBeNull();
  });

  it("decides once with the reviewers' comments, runs a revision round, accepts, publishes and schedules", async () => {
    const call = await newCall({ eventId });
    const paper = await submitted(call.id);
    const r1 = await reviewer(paper.submissionId);
    const r2 = await reviewer(paper.submissionId);
    await submitReview(r1.actor, r1.assignmentId, fullReview("major", "Clarify the sample."));
    await expect(
      decide(editor, paper.submissionId, { outcome: "accepted", letter: "Dear authors" }),
    ).rejects.toMatchObject({ status: 409 });
    await submitReview(r2.actor, r2.assignmentId, fullReview("accept", "A fine study."));
    // An editor who is an author of the paper does not decide it.
    const authorEditor = { ...paper.author.actor, role: "editor" as const };
    await expect(
      decide(authorEditor, paper.submissionId, { outcome: "accepted", letter: "Mine" }),
    ).rejects.toMatchObject({ status: 403 });

    const first = await decide(editor, paper.submissionId, {
      outcome: "revisions_requested",
      letter: "Please revise.",
    });
    expect(first.submission.state).toBe("revisions_requested");
    expect(first.decision.letter).toBe(
      "Please revise.\n\nReviewer 1:\nClarify the sample.\n\nReviewer 2:\nA fine study.",
    );
    await drainJobs();
    const letter = await smtp.waitFor(paper.author.email, /Revisions requested/);
    expect(letter.text).toContain("Clarify the sample.");
    expect(letter.text).not.toContain(r1.name);
    expect(letter.text).not.toContain("For the editor only.");
    expect(
      JSON.stringify(await getMySubmission(paper.author.actor.id, paper.submissionId)),
    ).not.toContain(r1.email);

    await expect(
      submitRevision(paper.author.actor, paper.submissionId, {
        manuscript: PDF,
        responseLetter: " ",
      }),
    ).rejects.toMatchObject({ field: "responseLetter" });
    const revised = await submitRevision(paper.author.actor, paper.submissionId, {
      manuscript: PDF,
      responseLetter: "We clarified the sample in section 3.",
    });
    expect(revised).toMatchObject({ state: "resubmitted", round: 2 });
    const view = await getReviewerView(r1.actor.id, r1.assignmentId);
    expect(view?.versions.map((v) => v.round)).toEqual([1, 2]);
    expect(view?.versions[1].responseLetter).toContain("section 3");
    expect(await manuscriptForReviewer(r1.actor.id, r1.assignmentId, 2)).not.toBeNull();
    await drainJobs();
    await smtp.waitFor(r1.email, /Revised version to review/);

    await submitReview(r1.actor, r1.assignmentId, fullReview("accept", "Now clear."));
    await submitReview(r2.actor, r2.assignmentId, fullReview("accept", "Still fine."));
    const accepted = await decide(editor, paper.submissionId, {
      outcome: "accepted",
      letter: "Accepted.",
    });
    expect(accepted.submission.state).toBe("accepted");
    await expect(withdraw(paper.author.actor, paper.submissionId)).rejects.toMatchObject({
      status: 409,
    });

    const paperRow = await publishToLibrary(editor, paper.submissionId);
    const [published] = await database.db.select().from(papers).where(eq(papers.id, paperRow.id));
    expect(published).toMatchObject({
      status: "published",
      title: "Records at scale",
      authors: [paper.author.name, "Wanjiru Co-Author"],
      tags: ["records", "archives", "registries"],
      category: "Records",
    });
    expect(published.publishedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(published.pdfUrl).toMatch(/\/uploads\/pdfs\//);
    await expect(publishToLibrary(editor, paper.submissionId)).rejects.toMatchObject({
      status: 409,
    });

    const mine = await getMySubmission(paper.author.actor.id, paper.submissionId);
    const presenting = mine?.authors[0].id as string;
    const { agendaItem, speakerId } = await addToAgenda(editor, paper.submissionId, {
      startTime: new Date(Date.now() + 90 * DAY),
      endTime: new Date(Date.now() + 90 * DAY + 3_600_000),
      presentingAuthorId: presenting,
    });
    expect(agendaItem.title).toBe("Records at scale");
    const links = await database.db
      .select()
      .from(eventSpeakers)
      .where(and(eq(eventSpeakers.eventId, eventId), eq(eventSpeakers.speakerId, speakerId)));
    expect(links).toHaveLength(1);
    await expect(
      addToAgenda(editor, paper.submissionId, {
        startTime: new Date(),
        endTime: null,
        presentingAuthorId: presenting,
      }),
    ).rejects.toMatchObject({ status: 409 });
    expect(
      await database.db.select().from(agendaItems).where(eq(agendaItems.id, agendaItem.id)),
    ).toHaveLength(1);
    expect(
      (await getMySubmission(paper.author.actor.id, paper.submissionId))?.history.map(
        (h) => h.label,
      ),
    ).toEqual([
      "Draft started",
      "Submitted",
      "Under review",
      "Revisions requested",
      "Revised version submitted",
      "Accepted",
      "Published in the library",
      "Added to the event's agenda",
    ]);
  });

  it("records one decision when two editors decide at once", async () => {
    const call = await newCall();
    const paper = await underReviewWithTwoReviews(call.id);
    const outcomes = await Promise.allSettled([
      decide(editor, paper.submissionId, { outcome: "accepted", letter: "Yes." }),
      decide(otherEditor, paper.submissionId, { outcome: "rejected", letter: "No." }),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(CfpError);
    expect(refused.reason.status).toBe(409);
    const rows = await database.db
      .select()
      .from(decisions)
      .where(eq(decisions.submissionId, paper.submissionId));
    expect(rows).toHaveLength(1);
    const mailJobs = await database.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(eq(jobs.uniqueKey, `mail:cfp:decision:${paper.submissionId}:1`));
    expect(mailJobs).toHaveLength(1);
  });

  it("lists a call's submissions for editors with filters, never drafts", async () => {
    const call = await newCall();
    const paper = await submitted(call.id);
    const author = await person();
    await saveDraft(
      author.actor,
      { callId: call.id },
      draftInput(author, { title: "Unsent draft" }),
    );
    const all = await listSubmissionsForCall(call.id);
    expect(all.map((s) => s.id)).toEqual([paper.submissionId]);
    expect(await listSubmissionsForCall(call.id, { state: "accepted" })).toEqual([]);
    expect((await listSubmissionsForCall(call.id, { search: "ARCHIVES" })).length).toBe(1);
    expect((await listSubmissionsForCall(call.id, { track: "Data governance" })).length).toBe(0);
  });

  it("reminds a reviewer before the due date and tells the editor after it, once each", async () => {
    const call = await newCall();
    const paper = await submitted(call.id);
    const r = await reviewer(paper.submissionId);
    const [assignment] = await database.db
      .select()
      .from(reviewAssignments)
      .where(eq(reviewAssignments.id, r.assignmentId));
    const due = assignment.dueAt.getTime();
    const mailKeys = async () =>
      (await database.db.select({ key: jobs.uniqueKey }).from(jobs))
        .map((j) => j.key ?? "")
        .filter((k) => k.includes(r.assignmentId) && !k.includes("review-request"));

    await runSchedulesAsOf(new Date(due - 5 * DAY), [CFP_JOBS.reviewSweep]);
    expect(await mailKeys()).toEqual([]);
    await runSchedulesAsOf(new Date(due - 2 * DAY), [CFP_JOBS.reviewSweep]);
    await runSchedulesAsOf(new Date(due - 1 * DAY), [CFP_JOBS.reviewSweep]);
    expect(await mailKeys()).toEqual([`mail:cfp:review-reminder:${r.assignmentId}:1`]);
    await runSchedulesAsOf(new Date(due + 1000), [CFP_JOBS.reviewSweep]);
    await runSchedulesAsOf(new Date(due + DAY), [CFP_JOBS.reviewSweep]);
    expect((await mailKeys()).sort()).toEqual([
      `mail:cfp:review-overdue:${r.assignmentId}:1`,
      `mail:cfp:review-reminder:${r.assignmentId}:1`,
    ]);
    await drainJobs();
    const reminder = await smtp.waitFor(r.email, /Review due/);
    expect(reminder.text).not.toContain(paper.author.name);
    const [editorRow] = await database.db.select().from(user).where(eq(user.id, editor.id));
    await smtp.waitFor(editorRow.email, /Review overdue/);

    // A submitted review is neither reminded nor reported in the next round's sweep of round 1.
    const other = await submitted(call.id);
    const done = await reviewer(other.submissionId);
    await submitReview(done.actor, done.assignmentId, fullReview("accept", "Good."));
    await runSchedulesAsOf(new Date(due + DAY), [CFP_JOBS.reviewSweep]);
    const keys = (await database.db.select({ key: jobs.uniqueKey }).from(jobs)).map(
      (j) => j.key ?? "",
    );
    expect(keys.some((k) => k.includes(`review-overdue:${done.assignmentId}`))).toBe(false);
  });
});
