import { data, Form, useActionData, useLoaderData, useNavigation } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screens";
import {
  ASSIGNMENT_LABELS,
  RECOMMENDATION_LABELS,
  SUBMISSION_STATE_LABELS,
} from "~/components/review-labels";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { formatDate } from "~/lib/format";
import { requireUser } from "~/lib/permissions.server";
import { getReviewerView } from "~/models/cfp/queries.server";
import {
  declareConflict,
  declineAssignment,
  RECOMMENDATIONS,
  type ReviewInput,
  SCORE_MAX,
  SCORE_MIN,
  saveReview,
  submitReview,
} from "~/models/cfp/reviews.server";
import type { Route } from "./+types/review";
import { type FormAnswer, invalid, refusal, text } from "./cfp-form.server";

// One review assignment as its reviewer sees it (issue 32 items 3–6). What reaches the page (and
// its .data) is only the reviewer-safe projection of getReviewerView: for a double-blind call no
// author's name, e-mail, affiliation or ORCID iD is ever selected; the submitter and the other
// reviewers never are. Before the conflict declaration only the title, abstract and keywords show.
export const meta: Route.MetaFunction = () => [
  { title: "Review | Kongamano" },
  { name: "robots", content: "noindex" },
];

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

const IN_REVIEW = ["under_review", "resubmitted"];

async function requireAssignment(request: Request, assignmentId: string) {
  const user = await requireUser(request);
  // Someone else's assignment is as good as missing: ids never confirm what exists.
  const view = await getReviewerView(user.id, assignmentId);
  if (!view) throw data({ message: "Review not found" }, { status: 404 });
  return { user, view };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { view } = await requireAssignment(request, params.assignmentId);
  const { assignment, submission, call } = view;
  const current = view.reviews.find((r) => r.round === submission.round) ?? null;
  const open = assignment.state === "active";
  return {
    id: assignment.id,
    state: assignment.state,
    stateLabel: ASSIGNMENT_LABELS[assignment.state] ?? assignment.state,
    due: formatDate(assignment.dueAt),
    conflictNote: assignment.conflictNote,
    title: submission.title,
    abstract: submission.abstract,
    keywords: submission.keywords,
    track: submission.track,
    round: submission.round,
    submissionState: SUBMISSION_STATE_LABELS[submission.state] ?? submission.state,
    callTitle: call.title,
    doubleBlind: call.blindMode === "double",
    criteria: call.criteria.map((c) => ({ key: c.key, label: c.label })),
    scale: { min: SCORE_MIN, max: SCORE_MAX },
    // Single-blind calls only (the query gives names and affiliations, never e-mails).
    authors: view.authors,
    versions: open
      ? view.versions.map((v) => ({
          round: v.round,
          responseLetter: v.responseLetter,
          submitted: v.submittedAt ? formatDate(v.submittedAt) : null,
          href: `/reviews/${assignment.id}/manuscript/${v.round}`,
        }))
      : [],
    canReview: open && IN_REVIEW.includes(submission.state) && current?.state !== "submitted",
    current: current
      ? {
          scores: current.scores,
          recommendation: current.recommendation,
          commentsToAuthors: current.commentsToAuthors,
          confidentialComments: current.confidentialComments,
          submitted: current.state === "submitted",
        }
      : null,
    earlier: view.reviews
      .filter((r) => r.round !== submission.round && r.state === "submitted")
      .map((r) => ({
        round: r.round,
        recommendation: r.recommendation ? RECOMMENDATION_LABELS[r.recommendation] : null,
        commentsToAuthors: r.commentsToAuthors,
      })),
  };
}

function reviewInput(form: FormData, criteria: readonly { key: string }[]): ReviewInput {
  const scores: ReviewInput["scores"] = {};
  for (const { key } of criteria) {
    const value = text(form, `scores.${key}`).trim();
    scores[key] = value === "" ? null : Number(value);
  }
  const recommendation = text(form, "recommendation");
  return {
    scores,
    recommendation: (RECOMMENDATIONS as readonly string[]).includes(recommendation)
      ? (recommendation as ReviewInput["recommendation"])
      : null,
    commentsToAuthors: text(form, "commentsToAuthors"),
    confidentialComments: text(form, "confidentialComments"),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const { user, view } = await requireAssignment(request, params.assignmentId);
  const form = await request.formData();
  const intent = text(form, "intent");
  const actor = { id: user.id, role: user.role, request };
  const id = view.assignment.id;
  try {
    switch (intent) {
      case "no-conflict":
        await declareConflict(actor, id, { conflict: false });
        return { intent, done: "Thank you. The paper is open for your review." };
      case "conflict":
        await declareConflict(actor, id, { conflict: true, note: text(form, "note") });
        return { intent, done: "Conflict declared. The editor has been told." };
      case "decline":
        await declineAssignment(actor, id);
        return { intent, done: "You declined this review. The editor has been told." };
      case "save":
        await saveReview(actor, id, reviewInput(form, view.call.criteria));
        return { intent, done: "Draft saved." };
      case "submit":
        await submitReview(actor, id, reviewInput(form, view.call.criteria));
        return { intent, done: "Review submitted. Thank you." };
      default:
        return invalid(intent, form, "Unknown action.");
    }
  } catch (error) {
    return refusal(error, intent, form);
  }
}

type Answer = FormAnswer | { intent: string; done: string } | undefined;

function errorsOf(answer: Answer, field: string) {
  return answer && "fieldErrors" in answer ? answer.fieldErrors[field] : undefined;
}

export default function ReviewAssignment() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as Answer;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const typed = answer && "values" in answer ? answer.values : null;
  return (
    <main id="main" className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-10">
      <div className="grid gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="outline">{page.stateLabel}</Badge>
          <Badge variant="secondary">{page.submissionState}</Badge>
          {page.round > 1 ? <Badge variant="info">{`Round ${page.round}`}</Badge> : null}
          {page.doubleBlind ? <Badge variant="neutral">Double-blind</Badge> : null}
        </div>
        <h1 className="text-3xl font-semibold break-words">
          {page.title || "Untitled submission"}
        </h1>
        <p className="text-muted-foreground">
          {page.callTitle}
          {page.track ? ` · ${page.track}` : ""} · review due {page.due}
        </p>
      </div>

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

      <section aria-labelledby="abstract-heading" className="grid gap-2">
        <h2 id="abstract-heading" className="text-xl font-semibold">
          Abstract
        </h2>
        <p className="whitespace-pre-line break-words">{page.abstract}</p>
        {page.keywords.length > 0 ? (
          <p className="text-sm text-muted-foreground">Keywords: {page.keywords.join(", ")}</p>
        ) : null}
        {page.authors ? (
          <p className="text-sm">
            Authors (single-blind call):{" "}
            {page.authors
              .map((a) => (a.affiliation ? `${a.name} (${a.affiliation})` : a.name))
              .join(", ")}
          </p>
        ) : null}
      </section>

      {page.state === "invited" ? (
        <ConflictDeclaration answer={answer} busy={busy} />
      ) : page.state === "conflicted" ? (
        <Card className="p-4">
          <p>
            You declared a conflict of interest
            {page.conflictNote ? `: ${page.conflictNote}` : ""}. You will not review this paper.
          </p>
        </Card>
      ) : page.state !== "active" ? (
        <Card className="p-4">
          <p>This review request is closed.</p>
        </Card>
      ) : null}

      {page.versions.length > 0 ? (
        <section aria-labelledby="versions-heading" className="grid gap-3">
          <h2 id="versions-heading" className="text-xl font-semibold">
            Manuscript
          </h2>
          <ul className="grid gap-3">
            {page.versions.map((v) => (
              <li key={v.round} className="grid gap-2 rounded-lg border border-border p-4">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium">
                    {v.round === 1 ? "First version" : `Revised version (round ${v.round})`}
                    {v.submitted ? `, submitted ${v.submitted}` : ""}
                  </span>
                  <a
                    href={v.href}
                    download
                    className={buttonVariants({ variant: "outline", size: "sm" })}
                  >
                    {`Download PDF (round ${v.round})`}
                  </a>
                </div>
                {v.responseLetter ? (
                  <details>
                    <summary className="cursor-pointer text-sm font-medium">
                      The authors' response letter
                    </summary>
                    <p className="mt-2 text-sm whitespace-pre-line break-words">
                      {v.responseLetter}
                    </p>
                  </details>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {page.earlier.length > 0 ? (
        <section aria-labelledby="earlier-heading" className="grid gap-3">
          <h2 id="earlier-heading" className="text-xl font-semibold">
            Your earlier reviews
          </h2>
          {page.earlier.map((r) => (
            <Card key={r.round} className="grid gap-1 p-4 text-sm">
              <p className="font-medium">
                {`Round ${r.round}`}
                {r.recommendation ? `: ${r.recommendation}` : ""}
              </p>
              <p className="whitespace-pre-line break-words">{r.commentsToAuthors}</p>
            </Card>
          ))}
        </section>
      ) : null}

      {page.state === "active" && page.current?.submitted ? <SubmittedReview page={page} /> : null}
      {page.canReview ? <ReviewForm page={page} answer={answer} typed={typed} busy={busy} /> : null}
    </main>
  );
}

type Page = ReturnType<typeof useLoaderData<typeof loader>>;

function ConflictDeclaration({ answer, busy }: { answer: Answer; busy: boolean }) {
  const noteErrors = errorsOf(answer, "note");
  return (
    <section aria-labelledby="conflict-heading" className="grid gap-4">
      <h2 id="conflict-heading" className="text-xl font-semibold">
        Conflict of interest
      </h2>
      <p>
        Before the paper opens, tell the editor whether you have a conflict of interest: you may
        know who wrote it, work with them, compete with them, or have a financial or personal
        interest in its outcome.
      </p>
      <Form method="post" className="grid gap-3">
        <Button type="submit" name="intent" value="no-conflict" disabled={busy}>
          I have no conflict of interest
        </Button>
      </Form>
      <Form method="post" className="grid gap-3 rounded-lg border border-border p-4">
        <Field
          label="Describe the conflict (the editor reads this)"
          htmlFor="note"
          errors={noteErrors}
        >
          <Textarea
            id="note"
            name="note"
            rows={3}
            maxLength={2000}
            aria-invalid={noteErrors ? true : undefined}
            aria-describedby={noteErrors ? "note-error" : undefined}
            defaultValue={answer && "values" in answer ? answer.values.note : ""}
          />
        </Field>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="conflict" variant="outline" disabled={busy}>
            I have a conflict of interest
          </Button>
          <Button type="submit" name="intent" value="decline" variant="ghost" disabled={busy}>
            Decline to review
          </Button>
        </div>
      </Form>
    </section>
  );
}

function SubmittedReview({ page }: { page: Page }) {
  const review = page.current;
  if (!review) return null;
  return (
    <section aria-labelledby="submitted-heading" className="grid gap-3">
      <h2 id="submitted-heading" className="text-xl font-semibold">
        {`Your review (round ${page.round})`}
      </h2>
      <p className="text-sm text-muted-foreground">
        Submitted reviews are locked. The editor will let the authors know the decision.
      </p>
      <Card className="grid gap-3 p-4 text-sm">
        <dl className="grid gap-1 sm:grid-cols-2">
          {page.criteria.map((c) => (
            <div key={c.key} className="flex justify-between gap-2">
              <dt>{c.label}</dt>
              <dd className="font-medium">{review.scores[c.key] ?? "–"}</dd>
            </div>
          ))}
        </dl>
        <p>
          <span className="font-medium">Recommendation: </span>
          {review.recommendation ? RECOMMENDATION_LABELS[review.recommendation] : "–"}
        </p>
        <div>
          <p className="font-medium">Comments to the authors</p>
          <p className="whitespace-pre-line break-words">{review.commentsToAuthors}</p>
        </div>
        {review.confidentialComments ? (
          <div>
            <p className="font-medium">Confidential comments to the editor</p>
            <p className="whitespace-pre-line break-words">{review.confidentialComments}</p>
          </div>
        ) : null}
      </Card>
    </section>
  );
}

function ReviewForm({
  page,
  answer,
  typed,
  busy,
}: {
  page: Page;
  answer: Answer;
  typed: Record<string, string> | null;
  busy: boolean;
}) {
  const saved = page.current;
  const value = (name: string, fallback: string) => (typed ? (typed[name] ?? "") : fallback);
  const fieldState = (name: string) => {
    const errors = errorsOf(answer, name);
    return {
      errors,
      control: {
        "aria-invalid": errors ? true : undefined,
        "aria-describedby": errors ? `${name.replace(".", "-")}-error` : undefined,
      },
    };
  };
  const recommendation = fieldState("recommendation");
  const toAuthors = fieldState("commentsToAuthors");
  const confidential = fieldState("confidentialComments");
  return (
    <section aria-labelledby="review-heading" className="grid gap-4">
      <h2 id="review-heading" className="text-xl font-semibold">
        {`Your review (round ${page.round})`}
      </h2>
      <Form method="post" className="grid gap-5" key={`${page.round}`}>
        <fieldset className="grid gap-3">
          <legend className="mb-2 font-medium">
            {`Scores, from ${page.scale.min} (poor) to ${page.scale.max} (excellent)`}
          </legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {page.criteria.map((c) => {
              const name = `scores.${c.key}`;
              const field = fieldState(name);
              const id = `scores-${c.key}`;
              return (
                <Field
                  key={c.key}
                  label={c.label}
                  htmlFor={id}
                  errors={field.errors}
                  errorId={`${id}-error`}
                >
                  <NativeSelect
                    id={id}
                    name={name}
                    defaultValue={value(name, saved?.scores[c.key]?.toString() ?? "")}
                    {...field.control}
                  >
                    <option value="">Not scored yet</option>
                    {Array.from(
                      { length: page.scale.max - page.scale.min + 1 },
                      (_, i) => page.scale.min + i,
                    ).map((score) => (
                      <option key={score} value={score}>
                        {score}
                      </option>
                    ))}
                  </NativeSelect>
                </Field>
              );
            })}
          </div>
        </fieldset>
        <Field label="Recommendation" htmlFor="recommendation" errors={recommendation.errors}>
          <NativeSelect
            id="recommendation"
            name="recommendation"
            defaultValue={value("recommendation", saved?.recommendation ?? "")}
            {...recommendation.control}
          >
            <option value="">Choose…</option>
            {Object.entries(RECOMMENDATION_LABELS).map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field
          label="Comments to the authors"
          htmlFor="commentsToAuthors"
          hint="Sent to the authors with the decision, without your name."
          errors={toAuthors.errors}
        >
          <Textarea
            id="commentsToAuthors"
            name="commentsToAuthors"
            rows={8}
            defaultValue={value("commentsToAuthors", saved?.commentsToAuthors ?? "")}
            {...toAuthors.control}
          />
        </Field>
        <Field
          label="Confidential comments to the editor"
          htmlFor="confidentialComments"
          hint="Only editors read these."
          errors={confidential.errors}
        >
          <Textarea
            id="confidentialComments"
            name="confidentialComments"
            rows={4}
            defaultValue={value("confidentialComments", saved?.confidentialComments ?? "")}
            {...confidential.control}
          />
        </Field>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="save" variant="outline" disabled={busy}>
            Save draft
          </Button>
          <Button type="submit" name="intent" value="submit" disabled={busy}>
            Submit review
          </Button>
        </div>
        <p className="text-sm text-muted-foreground">
          A submitted review is locked: it can no longer be changed.
        </p>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
