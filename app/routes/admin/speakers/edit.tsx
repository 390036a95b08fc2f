import { data, useActionData, useLoaderData } from "react-router";
import { EntityNotFound } from "~/components/admin/entity-form-parts";
import { PageHeader } from "~/components/admin/page-header";
import { SpeakerForm } from "~/components/admin/speaker-form";
import { SpeakerFormSchema } from "~/lib/forms/speaker-schema";
import { requireRole } from "~/lib/permissions.server";
import { createSpeaker, getSpeaker, updateSpeaker } from "~/models/people/speakers.server";
import { saveFromForm } from "~/models/shared/entity-actions.server";
import type { Route } from "./+types/edit";

export const meta: Route.MetaFunction = ({ data }) => [
  {
    title: `${data?.speaker.name ? `Edit ${data.speaker.name}` : "Edit Speaker"} | Admin | Kongamano`,
  },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  const speaker = await getSpeaker(params.id);
  if (!speaker) throw data(null, { status: 404 });
  return { speaker };
}

export async function action({ request, params }: Route.ActionArgs) {
  return saveFromForm(request, {
    role: "editor",
    schema: SpeakerFormSchema,
    noun: "speaker",
    listUrl: "/admin/speakers",
    id: params.id,
    create: createSpeaker,
    update: updateSpeaker,
    label: (saved) => saved.name,
  });
}

export default function EditSpeaker() {
  const { speaker } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="max-w-3xl">
      <PageHeader title="Edit Speaker" description={speaker.name} />
      <SpeakerForm mode="edit" defaultValue={speaker} actionData={actionData} />
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <EntityNotFound
      title="Speaker not found"
      backTo="/admin/speakers"
      backLabel="Back to Speakers"
    />
  );
}
