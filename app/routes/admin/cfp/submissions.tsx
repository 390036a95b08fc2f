import { data, Link, useLoaderData } from "react-router";
import { EmptyState } from "~/components/admin/empty-state";
import { ListFilters } from "~/components/admin/list-filters";
import { PageHeader } from "~/components/admin/page-header";
import { FileText } from "~/components/icons";
import { SUBMISSION_STATE_LABELS } from "~/components/review-labels";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import type { SubmissionState } from "~/db/schema";
import { formatDate } from "~/lib/format";
import { requireRole } from "~/lib/permissions.server";
import { getCall, listSubmissionsForCall } from "~/models/cfp/queries.server";
import { ADMIN_CALLS_PATH, editorSubmissionPath } from "~/models/cfp/urls";
import type { Route } from "./+types/submissions";

// A call's submissions for editors (issue 32 item 3), filtered by state and track, searched by
// title or keyword. Drafts are the authors' own and never listed.
export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Submissions: ${loaderData?.call.title ?? "Call"} | Admin | Kongamano` },
  { name: "robots", content: "noindex" },
];

const LISTED_STATES = Object.keys(SUBMISSION_STATE_LABELS).filter(
  (state) => state !== "draft",
) as SubmissionState[];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  const call = await getCall(params.id);
  if (!call) throw data({ message: "Call not found" }, { status: 404 });
  const url = new URL(request.url);
  const stateParam = url.searchParams.get("state") ?? "all";
  const state = (LISTED_STATES as string[]).includes(stateParam)
    ? (stateParam as SubmissionState)
    : "all";
  const trackParam = url.searchParams.get("track") ?? "";
  const track = call.tracks.includes(trackParam) ? trackParam : "";
  const search = (url.searchParams.get("search") ?? "").slice(0, 200);
  const rows = await listSubmissionsForCall(call.id, { state, track: track || null, search });
  return {
    call: { id: call.id, title: call.title, tracks: call.tracks, blindMode: call.blindMode },
    filters: { state, track, search },
    submissions: rows.map((row) => ({
      id: row.id,
      title: row.title,
      state: row.state,
      stateLabel: SUBMISSION_STATE_LABELS[row.state] ?? row.state,
      track: row.track,
      round: row.round,
      submitted: row.submittedAt ? formatDate(row.submittedAt) : null,
      reviewers: row.reviewers,
      reviewsSubmitted: row.reviewsSubmitted,
    })),
  };
}

export default function CallSubmissions() {
  const { call, filters, submissions } = useLoaderData<typeof loader>();
  const filtered = filters.state !== "all" || filters.track !== "" || filters.search !== "";
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to={ADMIN_CALLS_PATH} className="underline underline-offset-4">
          Calls for papers
        </Link>
      </p>
      <PageHeader
        title={`Submissions: ${call.title}`}
        description={`${call.blindMode === "double" ? "Double-blind" : "Single-blind"} review. ${submissions.length} shown.`}
      />
      <div className="mb-6">
        <ListFilters
          searchLabel="Search submissions"
          searchPlaceholder="Title or keyword"
          search={filters.search}
          filters={[
            {
              name: "state",
              label: "State",
              value: filters.state,
              options: [
                { value: "all", label: "All states" },
                ...LISTED_STATES.map((state) => ({
                  value: state,
                  label: SUBMISSION_STATE_LABELS[state],
                })),
              ],
            },
            ...(call.tracks.length > 0
              ? [
                  {
                    name: "track",
                    label: "Track",
                    value: filters.track,
                    options: [
                      { value: "", label: "All tracks" },
                      ...call.tracks.map((t) => ({ value: t, label: t })),
                    ],
                  },
                ]
              : []),
          ]}
        />
      </div>
      {submissions.length === 0 ? (
        <EmptyState
          icon={FileText}
          title={filtered ? "No submissions match" : "No submissions yet"}
          hint={
            filtered
              ? "Change the filters to see more."
              : "Submitted papers appear here; drafts stay with their authors."
          }
        />
      ) : (
        <ul className="grid gap-3" aria-label="Submissions">
          {submissions.map((s) => (
            <li key={s.id}>
              <Card className="grid gap-2 p-4">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge variant="outline">{s.stateLabel}</Badge>
                  {s.round > 1 ? <Badge variant="info">{`Round ${s.round}`}</Badge> : null}
                  {s.track ? <Badge variant="neutral">{s.track}</Badge> : null}
                </div>
                <h2 className="text-lg font-semibold break-words">
                  <Link
                    to={editorSubmissionPath(s.id)}
                    className="underline-offset-4 hover:underline"
                  >
                    {s.title || "Untitled submission"}
                  </Link>
                </h2>
                <p className="text-sm text-muted-foreground">
                  {s.submitted ? `Submitted ${s.submitted}` : "Not submitted"} · {s.reviewers}{" "}
                  {s.reviewers === 1 ? "reviewer" : "reviewers"} · {s.reviewsSubmitted}{" "}
                  {s.reviewsSubmitted === 1 ? "review" : "reviews"} in this round
                </p>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
