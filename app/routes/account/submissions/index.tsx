import { Link, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { FileText } from "~/components/icons";
import { SubmissionStateBadge } from "~/components/submission-state-badge";
import { buttonVariants } from "~/components/ui/button";
import { TableScroll } from "~/components/ui/table-scroll";
import { formatDate } from "~/lib/format";
import { requireUser } from "~/lib/permissions.server";
import { listMySubmissions } from "~/models/cfp/queries.server";
import { mySubmissionPath } from "~/models/cfp/urls";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => [
  { title: "My Submissions | Kongamano" },
  { name: "robots", content: "noindex" },
];

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const rows = await listMySubmissions(user.id);
  return {
    submissions: rows.map((row) => ({
      id: row.id,
      title: row.title || "Untitled draft",
      state: row.state,
      callTitle: row.callTitle,
      changed: formatDate(row.stateChangedAt),
      submitted: row.submittedAt ? formatDate(row.submittedAt) : null,
    })),
  };
}

export default function MySubmissions() {
  const { submissions } = useLoaderData<typeof loader>();
  return (
    <main id="main" className="mx-auto grid w-full max-w-5xl gap-6 px-4 py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <p className="text-sm text-muted-foreground">
            <Link to="/profile" className="underline underline-offset-4">
              Profile
            </Link>
          </p>
          <h1 className="text-3xl font-bold tracking-tight">My Submissions</h1>
          <p className="text-muted-foreground">
            Your papers sent to our calls for papers, with their status and history.
          </p>
        </div>
        <Link to="/papers#open-calls" className={buttonVariants({ variant: "outline" })}>
          Open calls for papers
        </Link>
      </div>
      {submissions.length === 0 ? (
        <div className="grid justify-items-center gap-2 rounded-xl border border-dashed border-border px-6 py-12 text-center">
          <FileText aria-hidden className="size-10 text-slate-400" />
          <h2 className="text-lg font-semibold">No submissions yet</h2>
          <p className="max-w-md text-sm text-muted-foreground">
            When a call for papers is open, 'Submit Paper' on the papers page leads to its form.
          </p>
        </div>
      ) : (
        <TableScroll label="My submissions">
          <table className="w-full min-w-[640px] text-sm">
            <caption className="sr-only">My submissions</caption>
            <thead className="border-b border-border bg-muted/50 text-left text-slate-700">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">
                  Paper
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Status
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Submitted
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Last change
                </th>
              </tr>
            </thead>
            <tbody>
              {submissions.map((s) => (
                <tr key={s.id} className="border-b border-border last:border-0">
                  <td className="px-4 py-3">
                    <Link
                      to={mySubmissionPath(s.id)}
                      className="font-medium text-primary underline underline-offset-4"
                    >
                      {s.title}
                    </Link>
                    <span className="block text-xs text-muted-foreground">{s.callTitle}</span>
                  </td>
                  <td className="px-4 py-3">
                    <SubmissionStateBadge state={s.state} />
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">{s.submitted ?? "Not yet"}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{s.changed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
