import { parseWithZod } from "@conform-to/zod/v4";
import { data, useActionData, useLoaderData } from "react-router";
import { PageHeader } from "~/components/admin/page-header";
import { UnsavedChangesGuard, useUnsavedForms } from "~/components/admin/unsaved-changes";
import { EVENT_TIME_ZONE } from "~/lib/constants";
import { eventSaveErrorMessage, eventSaveErrorStatus } from "~/lib/db-errors";
import { logger } from "~/lib/logger.server";
import { requireRole } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import {
  createEvent,
  existingSpeakerAndSponsorIds,
  listEventFormOptions,
} from "~/models/events/events.server";
import { SAVE_EVENT_FIRST } from "~/models/events/fees.server";
import type { Route } from "./+types/new";
import { EVENT_FORM_ID } from "./editor-guard";
import { EventForm, type EventFormActionData } from "./event-form";
import { EventFormSchema } from "./event-schema";
import { type FeesActionData, FeesCard } from "./fees-card";

export const meta: Route.MetaFunction = () => [
  { title: "Create Event | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  return { options: await listEventFormOptions() };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireRole(request, "editor");
  const formData = await request.formData();
  if (formData.get("_form") === "fees" || formData.get("_form") === "delete-fee") {
    // Spec §5: fees need a saved event.
    return data<FeesActionData>(
      { fees: { error: { title: "Error", description: SAVE_EVENT_FIRST } } },
      { status: 400 },
    );
  }
  const submission = parseWithZod(formData, { schema: EventFormSchema });
  if (submission.status !== "success") {
    return data<EventFormActionData>(
      { result: submission.reply(), failure: null },
      { status: submission.status === "error" ? 400 : 200 },
    );
  }
  try {
    const links = await existingSpeakerAndSponsorIds(
      submission.value.speakerIds,
      submission.value.sponsorIds,
    );
    await createEvent({ id: user.id, role: user.role, request }, { ...submission.value, ...links });
  } catch (error) {
    const status = eventSaveErrorStatus(error);
    if (status === 500) logger.error({ err: error }, "event create failed");
    return data<EventFormActionData>(
      {
        result: submission.reply(),
        failure: { title: "Failed to create event", message: eventSaveErrorMessage(error) },
      },
      { status },
    );
  }
  return redirectWithToast("/admin/events", {
    type: "success",
    title: "Event created successfully",
  });
}

const NEW_EVENT_FORMS = [EVENT_FORM_ID];

export default function NewEvent() {
  const { options } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { isDirty } = useUnsavedForms(NEW_EVENT_FORMS);
  return (
    <div className="grid gap-6">
      <UnsavedChangesGuard isDirty={isDirty} />
      <PageHeader
        title="Create Event"
        description="Add a new event. It stays a draft until you publish it."
      />
      <EventForm
        mode="create"
        options={options}
        actionData={actionData && "result" in actionData ? actionData : undefined}
        defaultValue={{
          eventType: options.types.includes("conference") ? "conference" : options.types[0],
          category: "none",
          timeZone: EVENT_TIME_ZONE,
          status: "draft",
          featured: false,
          tags: [],
          speakerIds: [],
          sponsorIds: [],
          agenda: [],
        }}
      />
      <FeesCard
        mode="create"
        fees={[]}
        documentActionData={actionData && "fees" in actionData ? actionData : undefined}
      />
    </div>
  );
}
