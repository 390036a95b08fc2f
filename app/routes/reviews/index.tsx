import { Link, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { assignmentStatus } from "~/components/review-labels";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { formatDate } from "~/lib/format";
import { requireUser } from "~/lib/permissions.server";
import { listMyAssignments } from "~/models/cfp/queries.server";
import { reviewPath } from "~/models/cfp/urls";
import type { Route } from "./+types/index";

// "My reviews" (issue 32): the papers an editor asked this person to review, in any call. Being a
// reviewer is a per-call capability (an assignment), not a site role: the list is just theirs.
export const meta: Route.MetaFunction = () => [
  { title: "My reviews | Kongamano" },
  { name: "robots", content: "noindex" },
];

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const rows = await listMyAssignments(user.id);
  return {
    assignments: rows.map((row) => ({
      id: row.id,
      title: row.title,
      callTitle: row.callTitle,
      round: row.round,
      due: formatDate(row.dueAt),
      overdue:
        row.dueAt.getTime() < Date.now() &&
        row.state !== "cancelled" &&
        row.state !== "declined" &&
        row.state !== "conflicted" &&
        row.reviewState !== "submitted",
      status: assignmentStatus(row),
    })),
  };
}

export default function MyReviews() {
  const { assignments } = useLoaderData<typeof loader>();
  return (
    <main id="main" className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-10">
      <div className="grid gap-2">
        <h1 className="text-3xl font-semibold">My reviews</h1>
        <p className="text-muted-foreground">
          Papers an editor asked you to review. Authors are not named to you, and you are never
          named to them.
        </p>
      </div>
      {assignments.length === 0 ? (
        <Card className="p-6">
          <p>No review requests yet. When an editor asks you to review a paper, it appears here.</p>
        </Card>
      ) : (
        <ul className="grid gap-3" aria-label="Review requests">
          {assignments.map((a) => (
            <li key={a.id}>
              <Card className="grid gap-2 p-4">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge variant="outline">{a.status}</Badge>
                  {a.round > 1 ? <Badge variant="secondary">{`Round ${a.round}`}</Badge> : null}
                  {a.overdue ? <Badge variant="destructive">Overdue</Badge> : null}
                </div>
                <h2 className="text-lg font-semibold break-words">
                  <Link to={reviewPath(a.id)} className="underline-offset-4 hover:underline">
                    {a.title || "Untitled submission"}
                  </Link>
                </h2>
                <p className="text-sm text-muted-foreground">
                  {a.callTitle} · due {a.due}
                </p>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
