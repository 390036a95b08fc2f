import { data, useActionData, useLoaderData } from "react-router";
import { EntityNotFound } from "~/components/admin/entity-form-parts";
import { PageHeader } from "~/components/admin/page-header";
import { SponsorForm } from "~/components/admin/sponsor-form";
import { SponsorFormSchema } from "~/lib/forms/sponsor-schema";
import { requireRole } from "~/lib/permissions.server";
import { createSponsor, getSponsor, updateSponsor } from "~/models/people/sponsors.server";
import { saveFromForm } from "~/models/shared/entity-actions.server";
import type { Route } from "./+types/edit";

export const meta: Route.MetaFunction = ({ data }) => [
  {
    title: `${data?.sponsor.name ? `Edit ${data.sponsor.name}` : "Edit Sponsor"} | Admin | Kongamano`,
  },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  const sponsor = await getSponsor(params.id);
  if (!sponsor) throw data(null, { status: 404 });
  return { sponsor };
}

export async function action({ request, params }: Route.ActionArgs) {
  return saveFromForm(request, {
    role: "editor",
    schema: SponsorFormSchema,
    noun: "sponsor",
    listUrl: "/admin/sponsors",
    id: params.id,
    create: createSponsor,
    update: updateSponsor,
    label: (saved) => saved.name,
  });
}

export default function EditSponsor() {
  const { sponsor } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="max-w-3xl">
      <PageHeader title="Edit Sponsor" description={sponsor.name} />
      <SponsorForm mode="edit" defaultValue={sponsor} actionData={actionData} />
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <EntityNotFound
      title="Sponsor not found"
      backTo="/admin/sponsors"
      backLabel="Back to Sponsors"
    />
  );
}
