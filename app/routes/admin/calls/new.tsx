import { useActionData, useLoaderData } from "react-router";
import { CallForm } from "~/components/admin/call-form";
import { PageHeader } from "~/components/admin/page-header";
import { requireRole } from "~/lib/permissions.server";
import { DEFAULT_CRITERIA } from "~/models/cfp/calls.server";
import { listEventsForCalls } from "~/models/cfp/queries.server";
import type { Route } from "./+types/new";
import { saveCall } from "./call-save.server";

export const meta: Route.MetaFunction = () => [
  { title: "New Call for Papers | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  // Through the loader: the component may not import a .server module (client build).
  return {
    events: await listEventsForCalls(),
    defaultCriteria: DEFAULT_CRITERIA.map((c) => c.label).join("\n"),
  };
}

export async function action({ request }: Route.ActionArgs) {
  return saveCall(request);
}

export default function NewCall() {
  const { events, defaultCriteria } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="max-w-3xl">
      <PageHeader
        title="New Call for Papers"
        description="Prepare a call; open it from the list when it is ready."
      />
      <CallForm
        mode="create"
        events={events}
        actionData={actionData}
        defaultValue={{
          title: "",
          description: "",
          tracks: "",
          criteria: defaultCriteria,
          submissionDeadline: "",
          reviewDeadline: "",
          eventId: "none",
          blindMode: "double",
        }}
      />
    </div>
  );
}
