import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { EmptyState } from "~/components/admin/empty-state";
import { useFailureToast } from "~/components/admin/entity-form-parts";
import { PageHeader } from "~/components/admin/page-header";
import { Plus, Send } from "~/components/icons";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { TableScroll } from "~/components/ui/table-scroll";
import { formatDate } from "~/lib/format";
import { DomainError } from "~/lib/lifecycle.server";
import { requireRole } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { closeCall, openCall } from "~/models/cfp/calls.server";
import { listCallsForAdmin } from "~/models/cfp/queries.server";
import { ADMIN_CALLS_PATH, callSubmissionsPath } from "~/models/cfp/urls";
import type { EntityActionData } from "~/models/shared/entity-actions.server";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => [
  { title: "Calls for Papers | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  return { calls: await listCallsForAdmin() };
}

/** Opening and closing a call (intent `open` / `close` with the call's id). */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireRole(request, "editor");
  const form = await request.formData();
  const intent = form.get("intent");
  const id = String(form.get("id") ?? "");
  if (intent !== "open" && intent !== "close") {
    return data<EntityActionData>(
      { error: { title: "Error", description: "Unknown action." } },
      { status: 400 },
    );
  }
  const actor = { id: user.id, role: user.role, request };
  try {
    const call = intent === "open" ? await openCall(actor, id) : await closeCall(actor, id);
    return redirectWithToast(ADMIN_CALLS_PATH, {
      type: "success",
      title: intent === "open" ? "Call opened" : "Call closed",
      description:
        intent === "open"
          ? `${call.title} now takes submissions until its deadline.`
          : `${call.title} takes no new submissions; those sent continue through review.`,
    });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return data<EntityActionData>(
      { error: { title: "Error", description: error.message } },
      { status: error.status === 404 ? 404 : 409 },
    );
  }
}

const STATE_BADGE = {
  draft: { label: "Draft", variant: "warning" },
  open: { label: "Open", variant: "success" },
  closed: { label: "Closed", variant: "neutral" },
} as const;

export default function AdminCalls() {
  const { calls } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  useFailureToast(actionData);
  return (
    <div>
      <PageHeader
        title="Calls for Papers"
        description="Open calls are listed on /papers (and on their event's page) for authors to submit to."
        actions={
          <Link to="/admin/calls/new" className={buttonVariants()}>
            <Plus aria-hidden />
            New Call
          </Link>
        }
      />
      {actionData?.error ? (
        <p role="alert" className="mb-4 rounded-md bg-red-50 px-4 py-3 text-sm text-red-800">
          {actionData.error.description}
        </p>
      ) : null}
      {calls.length === 0 ? (
        <EmptyState
          icon={Send}
          title="No calls yet"
          hint="Create a call for papers; open it when it is ready for submissions."
        />
      ) : (
        <TableScroll label="Calls for papers">
          <table className="w-full min-w-[760px] text-sm">
            <caption className="sr-only">Calls for papers</caption>
            <thead className="border-b border-border bg-muted/50 text-left text-slate-700">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">
                  Call
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Status
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Submission deadline
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Submissions
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody>
              {calls.map((call) => {
                const badge = STATE_BADGE[call.state];
                return (
                  <tr key={call.id} className="border-b border-border last:border-0">
                    <td className="px-4 py-3">
                      <span className="font-medium">{call.title}</span>
                      <span className="block text-xs text-muted-foreground">
                        {call.blindMode === "double" ? "Double-blind" : "Single-blind"}
                        {call.eventTitle ? ` · ${call.eventTitle}` : ""}
                      </span>
                    </td>
                    <td className="px-4 py-3">
                      <Badge variant={badge.variant}>{badge.label}</Badge>
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap">
                      {formatDate(call.submissionDeadline)}
                    </td>
                    <td className="px-4 py-3">
                      <Link
                        to={callSubmissionsPath(call.id)}
                        className="text-primary underline underline-offset-4"
                        aria-label={`${call.submissionCount} submissions to ${call.title}`}
                      >
                        {call.submissionCount}
                      </Link>
                    </td>
                    <td className="px-4 py-3">
                      <div className="flex flex-wrap gap-2">
                        <Link
                          to={`/admin/calls/${call.id}/edit`}
                          className={buttonVariants({ variant: "outline", size: "sm" })}
                          aria-label={`Edit ${call.title}`}
                        >
                          Edit
                        </Link>
                        <Form method="post">
                          <input type="hidden" name="id" value={call.id} />
                          <Button
                            type="submit"
                            name="intent"
                            value={call.state === "open" ? "close" : "open"}
                            size="sm"
                            variant={call.state === "open" ? "outline" : "default"}
                            aria-label={`${call.state === "open" ? "Close" : "Open"} ${call.title}`}
                          >
                            {call.state === "open" ? "Close" : "Open"}
                          </Button>
                        </Form>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
    </div>
  );
}
