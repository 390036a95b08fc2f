import { data, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { SubmissionForm } from "~/components/submission-form";
import { formatDate } from "~/lib/format";
import { requireUser } from "~/lib/permissions.server";
import { getCall, getCallForSubmission } from "~/models/cfp/queries.server";
import { MY_SUBMISSIONS_PATH } from "~/models/cfp/urls";
import type { Route } from "./+types/new";
import { handleSubmissionForm } from "./submission-form.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Submit a Paper${loaderData?.call ? `: ${loaderData.call.title}` : ""} | Kongamano` },
  { name: "robots", content: "noindex" },
];

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const call = await getCall(params.callId);
  if (!call || call.state === "draft") throw data({ message: "Call not found" }, { status: 404 });
  const open = Boolean(await getCallForSubmission(params.callId));
  return {
    open,
    call: {
      id: call.id,
      title: call.title,
      description: call.description,
      tracks: call.tracks,
      blindMode: call.blindMode,
      deadline: formatDate(call.submissionDeadline),
    },
    author: { name: user.name, email: user.email },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  return handleSubmissionForm(
    request,
    { id: user.id, role: user.role, request },
    { callId: params.callId },
  );
}

export default function SubmitToCall() {
  const { call, open, author } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <main id="main" className="mx-auto grid w-full max-w-4xl gap-6 px-4 py-10">
      <div className="grid gap-2">
        <p className="text-sm text-muted-foreground">
          <Link to="/papers#open-calls" className="underline underline-offset-4">
            Calls for papers
          </Link>
        </p>
        <h1 className="text-3xl font-bold tracking-tight break-words">Submit a Paper</h1>
        <p className="text-lg break-words">{call.title}</p>
        {call.description ? (
          <p className="whitespace-pre-line text-muted-foreground">{call.description}</p>
        ) : null}
        <p className="text-sm text-muted-foreground">
          Read the{" "}
          <Link to="/papers#guidelines" className="underline underline-offset-4">
            submission guidelines
          </Link>{" "}
          first. You can save a draft and finish it later from{" "}
          <Link to={MY_SUBMISSIONS_PATH} className="underline underline-offset-4">
            My submissions
          </Link>
          .
        </p>
      </div>
      {open ? (
        <SubmissionForm
          call={call}
          rows={1}
          manuscript={null}
          answer={answer}
          draftId={answer?.draftId}
          defaults={{
            title: "",
            abstract: "",
            keywords: "",
            track: "",
            declaration: false,
            authors: [
              {
                name: author.name,
                affiliation: "",
                email: author.email,
                orcid: "",
                corresponding: true,
              },
            ],
          }}
        />
      ) : (
        <p role="status" className="rounded-lg border border-border bg-muted p-4">
          This call is closed: its deadline was {call.deadline}, and it takes no new submissions.
        </p>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
