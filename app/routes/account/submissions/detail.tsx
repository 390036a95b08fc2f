import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { ConfirmAction, isConfirmed } from "~/components/confirm-action";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { Download } from "~/components/icons";
import { ResponseLetter } from "~/components/response-letter";
import { SubmissionStateBadge } from "~/components/submission-state-badge";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { formatDate } from "~/lib/format";
import { DomainError } from "~/lib/lifecycle.server";
import { MAX_MANUSCRIPT_BYTES, ManuscriptError, readManuscript } from "~/lib/pdf/manuscript.server";
import { requireUser } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { getMySubmission } from "~/models/cfp/queries.server";
import { FINAL_STATES, submitRevision, withdraw } from "~/models/cfp/submissions.server";
import { MY_SUBMISSIONS_PATH, mySubmissionPath } from "~/models/cfp/urls";
import type { Route } from "./+types/detail";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.submission.title || "Submission"} | My Submissions | Kongamano` },
  { name: "robots", content: "noindex" },
];

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

const OUTCOME_LABELS: Record<string, string> = {
  accepted: "Accepted",
  revisions_requested: "Revisions requested",
  rejected: "Not accepted",
  desk_rejected: "Not sent to review",
};

async function requireOwn(request: Request, id: string) {
  const user = await requireUser(request);
  const submission = await getMySubmission(user.id, id);
  // Someone else's submission is as good as missing.
  if (!submission) throw data({ message: "Submission not found" }, { status: 404 });
  return { user, submission };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { submission: s } = await requireOwn(request, params.id);
  return {
    submission: {
      id: s.id,
      title: s.title || "Untitled draft",
      abstract: s.abstract,
      keywords: s.keywords,
      track: s.track,
      state: s.state,
      round: s.round,
      callTitle: s.call.title,
      blindMode: s.call.blindMode,
      deadline: formatDate(s.call.submissionDeadline),
      canWithdraw: !FINAL_STATES.includes(s.state),
      publishedPaperId: s.publishedPaperId,
      authors: s.authors.map((a) => ({
        id: a.id,
        name: a.name,
        affiliation: a.affiliation,
        orcid: a.orcid,
        corresponding: a.corresponding,
      })),
      versions: s.versions.map((v) => ({
        round: v.round,
        hasManuscript: v.hasManuscript,
        responseLetter: v.responseLetter,
        submitted: v.submittedAt ? formatDate(v.submittedAt) : null,
      })),
      decisions: s.decisions.map((d) => ({
        round: d.round,
        outcome: OUTCOME_LABELS[d.outcome] ?? d.outcome,
        letter: d.letter,
        date: formatDate(d.createdAt),
      })),
      history: s.history.map((h) => ({ label: h.label, date: formatDate(h.at) })),
    },
  };
}

type ActionAnswer = {
  intent: string;
  confirmWithdraw?: boolean;
  fieldErrors?: Record<string, string[]>;
  formError?: string;
  responseLetter?: string;
};

export async function action({ request, params }: Route.ActionArgs) {
  const { user } = await requireOwn(request, params.id);
  const actor = { id: user.id, role: user.role, request };
  if (Number(request.headers.get("content-length")) > MAX_MANUSCRIPT_BYTES + 512 * 1024) {
    return data<ActionAnswer>(
      { intent: "revise", fieldErrors: { manuscript: ["Please upload a PDF of at most 10 MB"] } },
      { status: 400 },
    );
  }
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  try {
    if (intent === "withdraw") {
      if (!isConfirmed(form)) return data<ActionAnswer>({ intent, confirmWithdraw: true });
      await withdraw(actor, params.id);
      return redirectWithToast(MY_SUBMISSIONS_PATH, {
        type: "success",
        title: "Submission withdrawn",
        description: "Nobody reviews it further.",
      });
    }
    if (intent === "revise") {
      const responseLetter = String(form.get("responseLetter") ?? "");
      const file = form.get("manuscript");
      if (!(file instanceof File) || file.size === 0) {
        return data<ActionAnswer>(
          {
            intent,
            responseLetter,
            fieldErrors: { manuscript: ["Upload the revised manuscript (one PDF)"] },
          },
          { status: 400 },
        );
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      try {
        await readManuscript(bytes);
      } catch (error) {
        if (!(error instanceof ManuscriptError)) throw error;
        return data<ActionAnswer>(
          { intent, responseLetter, fieldErrors: { manuscript: [error.message] } },
          { status: 400 },
        );
      }
      try {
        await submitRevision(actor, params.id, { manuscript: bytes, responseLetter });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return data<ActionAnswer>(
          {
            intent,
            responseLetter,
            ...(error.field
              ? { fieldErrors: { [error.field]: [error.message] } }
              : { formError: error.message }),
          },
          { status: error.status === 409 ? 409 : 400 },
        );
      }
      return redirectWithToast(mySubmissionPath(params.id), {
        type: "success",
        title: "Revised version submitted",
        description: "The reviewers now read it with your response letter.",
      });
    }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return data<ActionAnswer>({ intent, formError: error.message }, { status: 409 });
  }
  return data<ActionAnswer>({ intent, formError: "Unknown action." }, { status: 400 });
}

export default function MySubmission() {
  const { submission: s } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const revising = answer?.intent === "revise" ? answer : undefined;
  return (
    <main id="main" className="mx-auto grid w-full max-w-4xl gap-6 px-4 py-10">
      <div className="grid gap-2">
        <p className="text-sm text-muted-foreground">
          <Link to={MY_SUBMISSIONS_PATH} className="underline underline-offset-4">
            My submissions
          </Link>
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <SubmissionStateBadge state={s.state} />
          {s.round > 1 ? (
            <span className="text-sm text-muted-foreground">Round {s.round}</span>
          ) : null}
        </div>
        <h1 className="text-3xl font-bold tracking-tight break-words">{s.title}</h1>
        <p className="text-muted-foreground break-words">{s.callTitle}</p>
      </div>

      {answer?.formError ? (
        <Alert variant="destructive" role="alert">
          <AlertDescription>{answer.formError}</AlertDescription>
        </Alert>
      ) : null}

      {s.state === "draft" ? (
        <Card className="grid gap-3 p-5">
          <p>
            This draft is not submitted yet. Finish it before {s.deadline} (23:59 Nairobi time).
          </p>
          <div>
            <Link to={`${mySubmissionPath(s.id)}/edit`} className={buttonVariants()}>
              Continue editing
            </Link>
          </div>
        </Card>
      ) : null}

      {s.state === "revisions_requested" ? (
        <Card className="p-5">
          <h2 className="text-xl font-semibold">Upload your revision</h2>
          <p className="mt-1 text-sm text-muted-foreground">
            The revised manuscript (one text-based PDF of at most 10 MB
            {s.blindMode === "double" ? ", still anonymised" : ""}) and a letter answering the
            reviewers' comments, point by point.
          </p>
          <Form method="post" encType="multipart/form-data" className="mt-4 grid gap-4" noValidate>
            <input type="hidden" name="intent" value="revise" />
            <Field
              label="Revised manuscript (PDF)"
              htmlFor="manuscript"
              errors={revising?.fieldErrors?.manuscript}
            >
              <Input
                id="manuscript"
                name="manuscript"
                type="file"
                accept="application/pdf,.pdf"
                className="h-auto py-1.5"
                aria-invalid={revising?.fieldErrors?.manuscript ? true : undefined}
                aria-describedby={
                  revising?.fieldErrors?.manuscript ? "manuscript-error" : undefined
                }
              />
            </Field>
            <Field
              label="Response letter"
              htmlFor="responseLetter"
              errors={revising?.fieldErrors?.responseLetter}
            >
              <Textarea
                id="responseLetter"
                name="responseLetter"
                rows={8}
                defaultValue={revising?.responseLetter ?? ""}
                aria-invalid={revising?.fieldErrors?.responseLetter ? true : undefined}
                aria-describedby={
                  revising?.fieldErrors?.responseLetter ? "responseLetter-error" : undefined
                }
              />
            </Field>
            <div>
              <Button type="submit" disabled={busy}>
                Submit Revision
              </Button>
            </div>
          </Form>
        </Card>
      ) : null}

      {s.decisions.length > 0 ? (
        <section aria-labelledby="decisions-heading" className="grid gap-3">
          <h2 id="decisions-heading" className="text-xl font-semibold">
            Decisions
          </h2>
          {s.decisions.map((d) => (
            <Card key={d.round} className="grid gap-2 p-5">
              <p className="font-medium">
                Round {d.round}: {d.outcome}{" "}
                <span className="font-normal text-muted-foreground">({d.date})</span>
              </p>
              <p className="text-sm whitespace-pre-line break-words">{d.letter}</p>
            </Card>
          ))}
        </section>
      ) : null}

      <section aria-labelledby="paper-heading" className="grid gap-3">
        <h2 id="paper-heading" className="text-xl font-semibold">
          The paper
        </h2>
        <Card className="grid gap-4 p-5">
          {s.track ? (
            <p className="text-sm">
              <span className="font-medium">Track:</span> {s.track}
            </p>
          ) : null}
          <div>
            <h3 className="font-medium">Authors</h3>
            <ol className="mt-1 grid gap-1 text-sm">
              {s.authors.map((a) => (
                <li key={a.id} className="break-words">
                  {a.name}
                  {a.affiliation ? `, ${a.affiliation}` : ""}
                  {a.orcid ? ` (ORCID ${a.orcid})` : ""}
                  {a.corresponding ? " — corresponding author" : ""}
                </li>
              ))}
            </ol>
          </div>
          {s.keywords.length > 0 ? (
            <p className="text-sm">
              <span className="font-medium">Keywords:</span> {s.keywords.join(", ")}
            </p>
          ) : null}
          {s.abstract ? (
            <div>
              <h3 className="font-medium">Abstract</h3>
              <p className="mt-1 text-sm whitespace-pre-line break-words">{s.abstract}</p>
            </div>
          ) : null}
          {s.versions.some((v) => v.hasManuscript) ? (
            <div>
              <h3 className="font-medium">Versions</h3>
              <ul className="mt-1 grid gap-2 text-sm">
                {s.versions
                  .filter((v) => v.hasManuscript)
                  .map((v) => (
                    <li key={v.round} className="grid gap-1">
                      <a
                        href={`${mySubmissionPath(s.id)}/manuscript/${v.round}`}
                        className="inline-flex items-center gap-1 text-primary underline underline-offset-4"
                      >
                        <Download aria-hidden className="size-4" />
                        Manuscript, round {v.round}
                        {v.submitted ? ` (submitted ${v.submitted})` : " (draft)"}
                      </a>
                      <ResponseLetter text={v.responseLetter} />
                    </li>
                  ))}
              </ul>
            </div>
          ) : null}
        </Card>
      </section>

      <section aria-labelledby="history-heading" className="grid gap-3">
        <h2 id="history-heading" className="text-xl font-semibold">
          History
        </h2>
        <ol className="grid gap-1 text-sm">
          {s.history.map((h, index) => (
            <li key={`${h.label}-${index}`}>
              <span className="text-muted-foreground">{h.date}</span> — {h.label}
            </li>
          ))}
        </ol>
      </section>

      {s.canWithdraw ? (
        <section aria-labelledby="withdraw-heading" className="grid gap-2">
          <h2 id="withdraw-heading" className="text-xl font-semibold">
            Withdraw
          </h2>
          <p className="text-sm text-muted-foreground">
            You can withdraw the submission until a decision; reviewers stop at once.
          </p>
          <ConfirmAction
            trigger="Withdraw Submission"
            title="Withdraw this submission?"
            confirmLabel="Yes, withdraw it"
            keepLabel="Keep it"
            keepHref={mySubmissionPath(s.id)}
            fields={{ intent: "withdraw" }}
            open={Boolean(answer && "confirmWithdraw" in answer && answer.confirmWithdraw)}
          >
            <p>Nobody reviews it further, and it cannot be submitted again.</p>
          </ConfirmAction>
        </section>
      ) : null}
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
