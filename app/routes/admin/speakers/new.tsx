import { useActionData } from "react-router";
import { PageHeader } from "~/components/admin/page-header";
import { SpeakerForm } from "~/components/admin/speaker-form";
import { SpeakerFormSchema } from "~/lib/forms/speaker-schema";
import { requireRole } from "~/lib/permissions.server";
import { createSpeaker, updateSpeaker } from "~/models/people/speakers.server";
import { saveFromForm } from "~/models/shared/entity-actions.server";
import type { Route } from "./+types/new";

export const meta: Route.MetaFunction = () => [
  { title: "Create Speaker | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  return saveFromForm(request, {
    role: "editor",
    schema: SpeakerFormSchema,
    noun: "speaker",
    listUrl: "/admin/speakers",
    create: createSpeaker,
    update: updateSpeaker,
    label: (saved) => saved.name,
  });
}

export default function NewSpeaker() {
  const actionData = useActionData<typeof action>();
  return (
    <div className="max-w-3xl">
      <PageHeader title="Create Speaker" description="Add a speaker you can link to events." />
      <SpeakerForm mode="create" actionData={actionData} />
    </div>
  );
}
