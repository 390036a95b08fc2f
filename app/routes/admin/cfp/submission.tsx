import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { PageHeader } from "~/components/admin/page-header";
import { ResponseLetter } from "~/components/response-letter";
import {
  ASSIGNMENT_LABELS,
  RECOMMENDATION_LABELS,
  SUBMISSION_STATE_LABELS,
} from "~/components/review-labels";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { dayInZone, formatDate } from "~/lib/format";
import { maskEmail } from "~/lib/mask-email";
import { requireRole } from "~/lib/permissions.server";
import { instantInZone } from "~/lib/time-zones";
import { getFedEvent, getPublishedPaperSlug } from "~/models/cfp/editor-view.server";
import { getSubmissionForEditor } from "~/models/cfp/queries.server";
import { assignReviewer, cancelAssignment } from "~/models/cfp/reviews.server";
import {
  addToAgenda,
  decide,
  deskReject,
  type EditorOutcome,
  IN_REVIEW,
  MIN_REVIEWS_FOR_DECISION,
  publishToLibrary,
} from "~/models/cfp/submissions.server";
import { type FormAnswer, invalid, refusal, text } from "../../reviews/cfp-form.server";
import type { Route } from "./+types/submission";

// The editor's page of one submission (issue 32 items 3, 6, 7): screening (desk-reject with a
// reason), reviewers by e-mail with due dates, the reviews with their confidential comments, the
// decision letter, publishing to the library and adding to the event's agenda. Addresses are
// shown masked: the page lists nobody's e-mail in full (design.md §3).
export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.title || "Submission"} | Admin | Kongamano` },
  { name: "robots", content: "noindex" },
];

async function requireSubmission(request: Request, id: string) {
  const user = await requireRole(request, "editor");
  const submission = await getSubmissionForEditor(id);
  if (!submission) throw data({ message: "Submission not found" }, { status: 404 });
  return { user, submission };
}

const OUTCOMES: Record<EditorOutcome, string> = {
  accepted: "Accept",
  revisions_requested: "Revisions requested",
  rejected: "Reject",
};

export async function loader({ request, params }: Route.LoaderArgs) {
  const { submission: s } = await requireSubmission(request, params.id);
  const [event, paperSlug] = await Promise.all([
    getFedEvent(s.call.eventId),
    getPublishedPaperSlug(s.publishedPaperId),
  ]);
  const reviewerNumber = new Map(s.assignments.map((a, index) => [a.id, index + 1]));
  const reviewerLabel = (assignmentId: string) => {
    const a = s.assignments.find((x) => x.id === assignmentId);
    const n = reviewerNumber.get(assignmentId) ?? 0;
    return `Reviewer ${n}${a?.reviewerName ? ` (${a.reviewerName})` : ""}`;
  };
  const roundReviews = s.reviews.filter((r) => r.round === s.round);
  const inReview = (IN_REVIEW as readonly string[]).includes(s.state);
  const decided = s.decisions.some((d) => d.round === s.round);
  return {
    id: s.id,
    title: s.title,
    abstract: s.abstract,
    keywords: s.keywords,
    track: s.track,
    state: s.state,
    stateLabel: SUBMISSION_STATE_LABELS[s.state] ?? s.state,
    round: s.round,
    submitted: s.submittedAt ? formatDate(s.submittedAt) : null,
    deskRejectReason: s.deskRejectReason,
    call: {
      id: s.call.id,
      title: s.call.title,
      blindMode: s.call.blindMode,
      criteria: s.call.criteria,
      reviewDue: dayInZone(s.call.reviewDeadline),
    },
    authors: s.authors.map((a) => ({
      id: a.id,
      name: a.name,
      affiliation: a.affiliation,
      email: a.email ? maskEmail(a.email) : null,
      orcid: a.orcid,
      corresponding: a.corresponding,
    })),
    versions: s.versions.map((v) => ({
      round: v.round,
      responseLetter: v.responseLetter,
      submitted: v.submittedAt ? formatDate(v.submittedAt) : null,
      href: v.hasManuscript ? `/admin/submissions/${s.id}/manuscript/${v.round}` : null,
    })),
    assignments: s.assignments.map((a) => ({
      id: a.id,
      label: reviewerLabel(a.id),
      email: maskEmail(a.invitedEmail),
      waitingForAccount: !a.reviewerId,
      state: a.state,
      stateLabel: ASSIGNMENT_LABELS[a.state] ?? a.state,
      due: formatDate(a.dueAt),
      conflictNote: a.conflictNote,
      live: a.state === "invited" || a.state === "active",
    })),
    reviews: s.reviews.map((r) => ({
      id: r.id,
      round: r.round,
      reviewer: reviewerLabel(r.assignmentId),
      scores: r.scores,
      recommendation: r.recommendation ? RECOMMENDATION_LABELS[r.recommendation] : null,
      commentsToAuthors: r.commentsToAuthors,
      confidentialComments: r.confidentialComments,
      submitted: r.submittedAt ? formatDate(r.submittedAt) : null,
    })),
    decisions: s.decisions.map((d) => ({
      round: d.round,
      outcome: d.outcome,
      letter: d.letter,
      at: formatDate(d.createdAt),
    })),
    history: s.history.map((h) => ({ label: h.label, at: formatDate(h.at) })),
    can: {
      assign: s.state === "submitted" || inReview,
      deskReject: s.state === "submitted",
      decide: inReview && !decided && roundReviews.length >= MIN_REVIEWS_FOR_DECISION,
      publish: s.state === "accepted" && !s.publishedPaperId,
      agenda: s.state === "accepted" && Boolean(event) && !s.agendaItemId,
    },
    roundReviewCount: roundReviews.length,
    minReviews: MIN_REVIEWS_FOR_DECISION,
    // The letter's draft; decide() adds each review's comments to authors below it, numbered.
    letterDraft: `Dear authors,\n\nThank you for submitting "${s.title}" to ${s.call.title}. The reviewers' comments follow this letter.\n\nKind regards,\nThe editors`,
    commentsPreview: roundReviews
      .map((r) => r.commentsToAuthors.trim())
      .filter(Boolean)
      .map((comments, index) => ({ label: `Reviewer ${index + 1}`, comments })),
    paperSlug,
    onAgenda: Boolean(s.agendaItemId),
    event: event ? { title: event.title, slug: event.slug, timeZone: event.timeZone } : null,
  };
}

function parseDay(value: string) {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
}

export async function action({ request, params }: Route.ActionArgs) {
  const { user, submission } = await requireSubmission(request, params.id);
  const form = await request.formData();
  const intent = text(form, "intent");
  const actor = { id: user.id, role: user.role, request };
  try {
    switch (intent) {
      case "assign": {
        const day = parseDay(text(form, "dueDate"));
        if (!day) return invalid(intent, form, "Choose the due date", "dueDate");
        // Due at the end of that day in Nairobi (the network's head office).
        const dueAt = instantInZone(day, 23, 59, "Africa/Nairobi");
        await assignReviewer(actor, submission.id, { email: text(form, "email"), dueAt });
        return { intent, done: "Reviewer asked. They receive an e-mail with the request." };
      }
      case "cancel-assignment": {
        const assignmentId = text(form, "assignmentId");
        if (!submission.assignments.some((a) => a.id === assignmentId)) {
          return invalid(intent, form, "Reviewer not found.", null, 404);
        }
        await cancelAssignment(actor, assignmentId);
        return { intent, done: "Reviewer taken off this submission." };
      }
      case "desk-reject":
        await deskReject(actor, submission.id, text(form, "reason"));
        return { intent, done: "Desk-rejected. The author has been sent the reason." };
      case "decide": {
        const outcome = text(form, "outcome");
        if (!(outcome in OUTCOMES)) return invalid(intent, form, "Choose a decision", "outcome");
        await decide(actor, submission.id, {
          outcome: outcome as EditorOutcome,
          letter: text(form, "letter"),
        });
        return { intent, done: "Decision sent to the author." };
      }
      case "publish":
        await publishToLibrary(actor, submission.id);
        return { intent, done: "Published in the paper library." };
      case "agenda": {
        const event = await getFedEvent(submission.call.eventId);
        const day = parseDay(text(form, "day"));
        const time = /^(\d{2}):(\d{2})$/.exec(text(form, "time"));
        if (!event) return invalid(intent, form, "This call does not feed an event.");
        if (!day || !time) return invalid(intent, form, "Start time is required", "time");
        const minutes = Number(text(form, "minutes") || "30");
        if (!Number.isInteger(minutes) || minutes < 5 || minutes > 600) {
          return invalid(intent, form, "Between 5 and 600 minutes", "minutes");
        }
        const startTime = instantInZone(day, Number(time[1]), Number(time[2]), event.timeZone);
        await addToAgenda(actor, submission.id, {
          startTime,
          endTime: new Date(startTime.getTime() + minutes * 60_000),
          presentingAuthorId: text(form, "presentingAuthorId"),
        });
        return { intent, done: `Added to the agenda of ${event.title}.` };
      }
      default:
        return invalid(intent, form, "Unknown action.");
    }
  } catch (error) {
    return refusal(error, intent, form);
  }
}

type Answer = FormAnswer | { intent: string; done: string } | undefined;
type Page = ReturnType<typeof useLoaderData<typeof loader>>;

/** The message and the typed values of a refused form, for the form that sent it only. */
function useAnswer(intent: string) {
  const answer = useActionData<typeof action>() as Answer;
  if (!answer || answer.intent !== intent || !("fieldErrors" in answer)) {
    return {
      error: (_: string) => undefined,
      value: (_: string, fallback = "") => fallback,
      formError: null,
    };
  }
  return {
    error: (field: string) => answer.fieldErrors[field],
    value: (field: string, _fallback = "") => answer.values[field] ?? "",
    formError: answer.formError,
  };
}

function invalidProps(errors: string[] | undefined, id: string) {
  return {
    "aria-invalid": errors ? true : undefined,
    "aria-describedby": errors ? `${id}-error` : undefined,
  };
}

export default function EditorSubmission() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as Answer;
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <p className="mb-2 text-sm">
        <Link
          to={`/admin/calls/${page.call.id}/submissions`}
          className="underline underline-offset-4"
        >
          {`Submissions: ${page.call.title}`}
        </Link>
      </p>
      <PageHeader
        title={page.title || "Untitled submission"}
        description={`${page.stateLabel}${page.round > 1 ? ` · round ${page.round}` : ""}${page.track ? ` · ${page.track}` : ""}${page.submitted ? ` · submitted ${page.submitted}` : ""}`}
      />
      <div className="grid gap-6">
        {answer && "done" in answer ? (
          <Alert role="status">
            <AlertDescription>{answer.done}</AlertDescription>
          </Alert>
        ) : null}
        {answer && "formError" in answer && answer.formError ? (
          <Alert variant="destructive">
            <AlertDescription>{answer.formError}</AlertDescription>
          </Alert>
        ) : null}

        <Card className="grid gap-3 p-4">
          <h2 className="text-lg font-semibold">Paper</h2>
          <p className="whitespace-pre-line break-words">{page.abstract}</p>
          {page.keywords.length > 0 ? (
            <p className="text-sm text-muted-foreground">Keywords: {page.keywords.join(", ")}</p>
          ) : null}
          <h3 className="font-medium">Authors</h3>
          <ol className="grid gap-1 text-sm">
            {page.authors.map((a) => (
              <li key={a.id} className="break-words">
                {a.name}
                {a.affiliation ? `, ${a.affiliation}` : ""}
                {a.email ? ` · ${a.email}` : ""}
                {a.orcid ? ` · ORCID ${a.orcid}` : ""}
                {a.corresponding ? " · corresponding author" : ""}
              </li>
            ))}
          </ol>
          {page.versions.length > 0 ? (
            <>
              <h3 className="font-medium">Versions</h3>
              <ul className="grid gap-2 text-sm">
                {page.versions.map((v) => (
                  <li key={v.round} className="grid gap-1">
                    <span>
                      {`Round ${v.round}`}
                      {v.submitted ? `, submitted ${v.submitted}` : ", not submitted yet"}
                      {v.href ? (
                        <>
                          {" · "}
                          <a href={v.href} download className="underline underline-offset-4">
                            {`Download PDF (round ${v.round})`}
                          </a>
                        </>
                      ) : null}
                    </span>
                    <ResponseLetter text={v.responseLetter} />
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {page.deskRejectReason ? (
            <p className="text-sm">Desk-rejected: {page.deskRejectReason}</p>
          ) : null}
        </Card>

        <Reviewers page={page} busy={busy} />
        <Reviews page={page} />
        {page.can.decide ? <Decision page={page} busy={busy} /> : null}
        {page.decisions.length > 0 ? (
          <Card className="grid gap-3 p-4">
            <h2 className="text-lg font-semibold">Decisions</h2>
            {page.decisions.map((d) => (
              <details key={d.round}>
                <summary className="cursor-pointer">
                  {`Round ${d.round}: ${SUBMISSION_STATE_LABELS[d.outcome] ?? d.outcome}, ${d.at}`}
                </summary>
                <p className="mt-2 text-sm whitespace-pre-line break-words">{d.letter}</p>
              </details>
            ))}
          </Card>
        ) : null}
        {page.can.deskReject ? <DeskReject busy={busy} /> : null}
        <Library page={page} busy={busy} />
        {page.history.length > 0 ? (
          <Card className="grid gap-2 p-4">
            <h2 className="text-lg font-semibold">History</h2>
            <ol className="grid gap-1 text-sm">
              {page.history.map((h, index) => (
                <li key={`${index}-${h.label}`}>{`${h.at}: ${h.label}`}</li>
              ))}
            </ol>
          </Card>
        ) : null}
      </div>
    </>
  );
}

function Reviewers({ page, busy }: { page: Page; busy: boolean }) {
  const form = useAnswer("assign");
  const emailErrors = form.error("email");
  const dueErrors = form.error("dueDate");
  return (
    <Card className="grid gap-3 p-4">
      <h2 className="text-lg font-semibold">Reviewers</h2>
      {page.assignments.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {`No reviewers yet. Ask at least ${page.minReviews}.`}
        </p>
      ) : (
        <ul className="grid gap-2 text-sm">
          {page.assignments.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center justify-between gap-2">
              <span className="break-words">
                {`${a.label} · ${a.email} · ${a.stateLabel} · due ${a.due}`}
                {a.waitingForAccount ? " · invited to create an account" : ""}
                {a.conflictNote ? ` · conflict: ${a.conflictNote}` : ""}
              </span>
              {a.live ? (
                <Form method="post">
                  <input type="hidden" name="assignmentId" value={a.id} />
                  <Button
                    type="submit"
                    name="intent"
                    value="cancel-assignment"
                    variant="ghost"
                    size="sm"
                    disabled={busy}
                    aria-label={`Take ${a.label} off this submission`}
                  >
                    Remove
                  </Button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {page.can.assign ? (
        <Form method="post" className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end">
          <Field label="Reviewer's e-mail" htmlFor="email" errors={emailErrors}>
            <Input
              id="email"
              name="email"
              type="email"
              autoComplete="off"
              required
              defaultValue={form.value("email")}
              {...invalidProps(emailErrors, "email")}
            />
          </Field>
          <Field label="Review due" htmlFor="dueDate" errors={dueErrors}>
            <Input
              id="dueDate"
              name="dueDate"
              type="date"
              required
              defaultValue={form.value("dueDate") || page.call.reviewDue}
              {...invalidProps(dueErrors, "dueDate")}
            />
          </Field>
          <Button type="submit" name="intent" value="assign" disabled={busy}>
            Ask reviewer
          </Button>
        </Form>
      ) : null}
      {page.can.assign ? (
        <p className="text-xs text-muted-foreground">
          Someone without an account is invited to create one. Authors of the paper cannot review
          it.
        </p>
      ) : null}
    </Card>
  );
}

function Reviews({ page }: { page: Page }) {
  if (page.reviews.length === 0) return null;
  return (
    <Card className="grid gap-3 p-4">
      <h2 className="text-lg font-semibold">Reviews</h2>
      {page.reviews.map((r) => (
        <article key={r.id} className="grid gap-2 rounded-md border border-border p-3 text-sm">
          <h3 className="font-medium">
            {`Round ${r.round} · ${r.reviewer}`}
            {r.recommendation ? ` · ${r.recommendation}` : ""}
          </h3>
          <dl className="grid gap-1 sm:grid-cols-2">
            {page.call.criteria.map((c) => (
              <div key={c.key} className="flex justify-between gap-2">
                <dt>{c.label}</dt>
                <dd className="font-medium">{r.scores[c.key] ?? "–"}</dd>
              </div>
            ))}
          </dl>
          <div>
            <p className="font-medium">Comments to the authors</p>
            <p className="whitespace-pre-line break-words">{r.commentsToAuthors}</p>
          </div>
          {r.confidentialComments ? (
            <div>
              <p className="font-medium">Confidential comments to the editor</p>
              <p className="whitespace-pre-line break-words">{r.confidentialComments}</p>
            </div>
          ) : null}
        </article>
      ))}
    </Card>
  );
}

function Decision({ page, busy }: { page: Page; busy: boolean }) {
  const form = useAnswer("decide");
  const outcomeErrors = form.error("outcome");
  const letterErrors = form.error("letter");
  return (
    <Card className="grid gap-3 p-4">
      <h2 className="text-lg font-semibold">{`Decision (round ${page.round})`}</h2>
      <Form method="post" className="grid gap-3">
        <Field label="Decision" htmlFor="outcome" errors={outcomeErrors}>
          <NativeSelect
            id="outcome"
            name="outcome"
            required
            defaultValue={form.value("outcome")}
            {...invalidProps(outcomeErrors, "outcome")}
          >
            <option value="">Choose…</option>
            {Object.entries(OUTCOMES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field
          label="Letter to the authors"
          htmlFor="letter"
          hint="The reviewers' comments to the authors (below) are added to the letter, numbered, without names."
          errors={letterErrors}
        >
          <Textarea
            id="letter"
            name="letter"
            rows={8}
            defaultValue={form.value("letter", page.letterDraft) || page.letterDraft}
            {...invalidProps(letterErrors, "letter")}
          />
        </Field>
        {page.commentsPreview.length > 0 ? (
          <div className="grid gap-2 rounded-md bg-muted p-3 text-sm">
            {page.commentsPreview.map((c) => (
              <div key={c.label}>
                <p className="font-medium">{`${c.label}:`}</p>
                <p className="whitespace-pre-line break-words">{c.comments}</p>
              </div>
            ))}
          </div>
        ) : null}
        <div>
          <Button type="submit" name="intent" value="decide" disabled={busy}>
            Send decision
          </Button>
        </div>
      </Form>
    </Card>
  );
}

function DeskReject({ busy }: { busy: boolean }) {
  const form = useAnswer("desk-reject");
  const errors = form.error("reason");
  return (
    <Card className="grid gap-3 p-4">
      <h2 className="text-lg font-semibold">Screening</h2>
      <Form method="post" className="grid gap-3">
        <Field
          label="Reason for the author"
          htmlFor="reason"
          hint="Out of scope, not anonymised, not in the format the guidelines ask for…"
          errors={errors}
        >
          <Textarea
            id="reason"
            name="reason"
            rows={3}
            defaultValue={form.value("reason")}
            {...invalidProps(errors, "reason")}
          />
        </Field>
        <div>
          <Button
            type="submit"
            name="intent"
            value="desk-reject"
            variant="destructive"
            disabled={busy}
          >
            Desk-reject
          </Button>
        </div>
      </Form>
    </Card>
  );
}

function Library({ page, busy }: { page: Page; busy: boolean }) {
  const form = useAnswer("agenda");
  if (page.state !== "accepted") return null;
  const timeErrors = form.error("time");
  const minutesErrors = form.error("minutes");
  const authorErrors = form.error("presentingAuthorId");
  return (
    <Card className="grid gap-3 p-4">
      <h2 className="text-lg font-semibold">Publishing</h2>
      {page.paperSlug ? (
        <p>
          Published:{" "}
          <Link to={`/papers/${page.paperSlug}`} className="underline underline-offset-4">
            {`/papers/${page.paperSlug}`}
          </Link>
        </p>
      ) : page.can.publish ? (
        <Form method="post">
          <Button type="submit" name="intent" value="publish" disabled={busy}>
            Publish to the library
          </Button>
        </Form>
      ) : null}
      {page.event && page.onAgenda ? (
        <p>
          On the agenda of{" "}
          <Link to={`/events/${page.event.slug}`} className="underline underline-offset-4">
            {page.event.title}
          </Link>
          .
        </p>
      ) : null}
      {page.event && page.can.agenda ? (
        <Form method="post" className="grid gap-3">
          <h3 className="font-medium">{`Add to the agenda of ${page.event.title}`}</h3>
          <div className="grid gap-3 sm:grid-cols-3">
            <Field label="Day" htmlFor="day">
              <Input id="day" name="day" type="date" required defaultValue={form.value("day")} />
            </Field>
            <Field label={`Start (${page.event.timeZone})`} htmlFor="time" errors={timeErrors}>
              <Input
                id="time"
                name="time"
                type="time"
                required
                defaultValue={form.value("time")}
                {...invalidProps(timeErrors, "time")}
              />
            </Field>
            <Field label="Minutes" htmlFor="minutes" errors={minutesErrors}>
              <Input
                id="minutes"
                name="minutes"
                type="number"
                min={5}
                max={600}
                defaultValue={form.value("minutes") || "30"}
                {...invalidProps(minutesErrors, "minutes")}
              />
            </Field>
          </div>
          <Field label="Presenting author" htmlFor="presentingAuthorId" errors={authorErrors}>
            <NativeSelect
              id="presentingAuthorId"
              name="presentingAuthorId"
              defaultValue={form.value("presentingAuthorId")}
              {...invalidProps(authorErrors, "presentingAuthorId")}
            >
              {page.authors.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <div>
            <Button type="submit" name="intent" value="agenda" variant="outline" disabled={busy}>
              Add to the agenda
            </Button>
          </div>
        </Form>
      ) : null}
    </Card>
  );
}
