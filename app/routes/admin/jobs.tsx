import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, useActionData, useLoaderData, useNavigation } from "react-router";
import { z } from "zod";
import { EmptyState } from "~/components/admin/empty-state";
import { FormErrorAlert } from "~/components/admin/form-error-alert";
import { PageHeader } from "~/components/admin/page-header";
import { Clock, RotateCcw } from "~/components/icons";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { formatDate, formatTime } from "~/lib/format";
import { requireRole } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { type JobListItem, listJobsForAdmin, retryFailedJob } from "~/models/jobs.server";
import type { Route } from "./+types/jobs";

export const meta: Route.MetaFunction = () => [
  { title: "Scheduled Jobs | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "admin");
  const rows = await listJobsForAdmin();
  return {
    failed: rows.filter((j) => j.state === "failed"),
    pending: rows
      .filter((j) => j.state !== "failed")
      .sort((a, b) => a.runAt.getTime() - b.runAt.getTime()),
  };
}

const JobActionSchema = z.object({ intent: z.literal("retry"), id: z.uuid() });

export async function action({ request }: Route.ActionArgs) {
  const user = await requireRole(request, "admin");
  const submission = parseWithZod(await request.formData(), { schema: JobActionSchema });
  if (submission.status !== "success") {
    return data({ error: "Unknown job action." }, 400);
  }
  const retried = await retryFailedJob(
    { id: user.id, role: user.role, request },
    submission.value.id,
  );
  if (!retried) {
    return data({ error: "This job is no longer failed: it may have been retried already." }, 404);
  }
  return redirectWithToast("/admin/jobs", {
    type: "success",
    title: "Job queued",
    description: "The job will run again within a few seconds.",
  });
}

function when(d: Date | string) {
  return `${formatDate(d)}, ${formatTime(d)}`;
}

function JobItem({ job, busy }: { job: JobListItem; busy: boolean }) {
  const failed = job.state === "failed";
  return (
    <li className="grid gap-2 rounded-lg border border-border bg-card p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <code className="text-sm font-semibold">{job.kind}</code>
          <Badge variant={failed ? "destructive" : job.state === "running" ? "info" : "secondary"}>
            {failed ? "Failed" : job.state === "running" ? "Running" : "Queued"}
          </Badge>
        </div>
        {failed ? (
          <Form method="post">
            <input type="hidden" name="intent" value="retry" />
            <input type="hidden" name="id" value={job.id} />
            <Button type="submit" size="sm" variant="outline" disabled={busy}>
              <RotateCcw aria-hidden />
              Retry
            </Button>
          </Form>
        ) : null}
      </div>
      <p className="text-sm text-muted-foreground">
        {job.attempts === 0
          ? `Not run yet (${job.maxAttempts} attempts) · `
          : `Attempt ${job.attempts} of ${job.maxAttempts} · `}
        {failed && job.finishedAt
          ? `failed ${when(job.finishedAt)}`
          : job.state === "running"
            ? `running since ${when(job.updatedAt)}`
            : `next run ${when(job.runAt)}`}
      </p>
      {job.lastError ? (
        <p className="rounded-md bg-muted px-3 py-2 text-xs break-words text-slate-800">
          <span className="font-medium">Last error: </span>
          <span className="font-mono">{job.lastError}</span>
        </p>
      ) : null}
    </li>
  );
}

export default function AdminJobs() {
  const { failed, pending } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <>
      <PageHeader
        title="Scheduled Jobs"
        description="Mails, reminders and expiries run in the background and are retried when they fail. Jobs that failed on every attempt wait here for you."
      />
      <div className="mb-4">
        <FormErrorAlert title="Error" message={actionData?.error} token={actionData} />
      </div>
      <section aria-labelledby="failed-jobs" className="mb-8 grid gap-3">
        <h2 id="failed-jobs" className="text-lg font-semibold">{`Failed (${failed.length})`}</h2>
        {failed.length === 0 ? (
          <EmptyState title="No failed jobs" hint="Every job has succeeded or is still retrying." />
        ) : (
          <ul className="grid gap-3">
            {failed.map((job) => (
              <JobItem key={job.id} job={job} busy={busy} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="pending-jobs" className="grid gap-3">
        <h2 id="pending-jobs" className="text-lg font-semibold">{`Pending (${pending.length})`}</h2>
        {pending.length === 0 ? (
          <EmptyState icon={Clock} title="Nothing pending" hint="No job is waiting to run." />
        ) : (
          <ul className="grid gap-3">
            {pending.map((job) => (
              <JobItem key={job.id} job={job} busy={busy} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
