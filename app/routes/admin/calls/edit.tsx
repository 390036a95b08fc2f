import { data, useActionData, useLoaderData } from "react-router";
import { CallForm } from "~/components/admin/call-form";
import { EntityNotFound } from "~/components/admin/entity-form-parts";
import { PageHeader } from "~/components/admin/page-header";
import { requireRole } from "~/lib/permissions.server";
import { dayOfDeadline } from "~/models/cfp/deadlines";
import { getCall, listEventsForCalls } from "~/models/cfp/queries.server";
import type { Route } from "./+types/edit";
import { saveCall } from "./call-save.server";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.call ? `Edit ${data.call.title}` : "Edit Call"} | Admin | Kongamano` },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  const [call, events] = await Promise.all([getCall(params.id), listEventsForCalls()]);
  if (!call) throw data(null, { status: 404 });
  return { call, events };
}

export async function action({ request, params }: Route.ActionArgs) {
  return saveCall(request, params.id);
}

export default function EditCall() {
  const { call, events } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // An event the call feeds stays choosable even when archived since.
  const options =
    call.eventId && !events.some((e) => e.id === call.eventId)
      ? [{ id: call.eventId, title: call.eventTitle ?? "Current event" }, ...events]
      : events;
  return (
    <div className="max-w-3xl">
      <PageHeader title="Edit Call for Papers" description={call.title} />
      <CallForm
        mode="edit"
        events={options}
        actionData={actionData}
        defaultValue={{
          title: call.title,
          description: call.description,
          tracks: call.tracks.join("\n"),
          criteria: call.criteria.map((c) => c.label).join("\n"),
          submissionDeadline: dayOfDeadline(call.submissionDeadline),
          reviewDeadline: dayOfDeadline(call.reviewDeadline),
          eventId: call.eventId ?? "none",
          blindMode: call.blindMode,
        }}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <EntityNotFound title="Call not found" backTo="/admin/calls" backLabel="Back to Calls" />;
}
