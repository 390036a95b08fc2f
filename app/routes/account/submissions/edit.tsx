import { data, Link, redirect, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { SubmissionForm } from "~/components/submission-form";
import { formatDate } from "~/lib/format";
import { requireUser } from "~/lib/permissions.server";
import { acceptsSubmissions } from "~/models/cfp/calls.server";
import { MAX_AUTHORS } from "~/models/cfp/limits";
import { getMySubmission } from "~/models/cfp/queries.server";
import { MY_SUBMISSIONS_PATH, mySubmissionPath } from "~/models/cfp/urls";
import type { Route } from "./+types/edit";
import { handleSubmissionForm } from "./submission-form.server";

export const meta: Route.MetaFunction = () => [
  { title: "Edit Draft Submission | Kongamano" },
  { name: "robots", content: "noindex" },
];

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const submission = await getMySubmission(user.id, params.id);
  if (!submission) throw data({ message: "Submission not found" }, { status: 404 });
  if (submission.state !== "draft") throw redirect(mySubmissionPath(submission.id));
  const rows = Number(new URL(request.url).searchParams.get("rows"));
  const first = submission.versions.find((v) => v.round === 1);
  return {
    id: submission.id,
    open: acceptsSubmissions({
      state: submission.call.state,
      submissionDeadline: submission.call.submissionDeadline,
    }),
    call: {
      title: submission.call.title,
      tracks: submission.call.tracks,
      blindMode: submission.call.blindMode,
      deadline: formatDate(submission.call.submissionDeadline),
    },
    rows: Number.isInteger(rows) ? Math.min(Math.max(rows, 1), MAX_AUTHORS) : 1,
    manuscript: first?.hasManuscript ? { bytes: first.manuscriptBytes } : null,
    defaults: {
      title: submission.title,
      abstract: submission.abstract,
      keywords: submission.keywords.join(", "),
      track: submission.track ?? "",
      declaration: Boolean(submission.declaredAt),
      authors: submission.authors.map((a) => ({
        name: a.name,
        affiliation: a.affiliation ?? "",
        email: a.email ?? "",
        orcid: a.orcid ?? "",
        corresponding: a.corresponding,
      })),
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  return handleSubmissionForm(
    request,
    { id: user.id, role: user.role, request },
    { submissionId: params.id },
  );
}

export default function EditSubmission() {
  const { id, open, call, rows, manuscript, defaults } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <main id="main" className="mx-auto grid w-full max-w-4xl gap-6 px-4 py-10">
      <div className="grid gap-2">
        <p className="text-sm text-muted-foreground">
          <Link to={MY_SUBMISSIONS_PATH} className="underline underline-offset-4">
            My submissions
          </Link>
        </p>
        <h1 className="text-3xl font-bold tracking-tight">Draft Submission</h1>
        <p className="text-lg break-words">{call.title}</p>
      </div>
      {open ? (
        <SubmissionForm
          call={call}
          rows={rows}
          manuscript={manuscript}
          answer={answer}
          defaults={defaults}
        />
      ) : (
        <div role="status" className="grid gap-2 rounded-lg border border-border bg-muted p-4">
          <p>
            This call closed on {call.deadline}: the draft can no longer be submitted. You can
            withdraw it from <Link to={mySubmissionPath(id)}>its page</Link>.
          </p>
        </div>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
