import { useActionData } from "react-router";
import { PageHeader } from "~/components/admin/page-header";
import { SponsorForm } from "~/components/admin/sponsor-form";
import { SponsorFormSchema } from "~/lib/forms/sponsor-schema";
import { requireRole } from "~/lib/permissions.server";
import { createSponsor, updateSponsor } from "~/models/people/sponsors.server";
import { saveFromForm } from "~/models/shared/entity-actions.server";
import type { Route } from "./+types/new";

export const meta: Route.MetaFunction = () => [
  { title: "Create Sponsor | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  return saveFromForm(request, {
    role: "editor",
    schema: SponsorFormSchema,
    noun: "sponsor",
    listUrl: "/admin/sponsors",
    create: createSponsor,
    update: updateSponsor,
    label: (saved) => saved.name,
  });
}

export default function NewSponsor() {
  const actionData = useActionData<typeof action>();
  return (
    <div className="max-w-3xl">
      <PageHeader title="Create Sponsor" description="Add a sponsor you can link to events." />
      <SponsorForm mode="create" actionData={actionData} />
    </div>
  );
}
