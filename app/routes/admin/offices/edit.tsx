import { data, useActionData, useLoaderData } from "react-router";
import { EntityNotFound } from "~/components/admin/entity-form-parts";
import { OfficeForm } from "~/components/admin/office-form";
import { PageHeader } from "~/components/admin/page-header";
import { OfficeFormSchema } from "~/lib/forms/office-schema";
import { requireRole } from "~/lib/permissions.server";
import {
  createOffice,
  getOffice,
  listOfficeRegions,
  updateOffice,
} from "~/models/offices/offices.server";
import { saveFromForm } from "~/models/shared/entity-actions.server";
import type { Route } from "./+types/edit";

export const meta: Route.MetaFunction = ({ data }) => [
  {
    title: `${data?.office ? `Edit ${data.office.city}, ${data.office.country}` : "Edit Office"} | Admin | Kongamano`,
  },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireRole(request, "admin");
  const [office, regions] = await Promise.all([getOffice(params.id), listOfficeRegions()]);
  if (!office) throw data(null, { status: 404 });
  return { office, regions };
}

export async function action({ request, params }: Route.ActionArgs) {
  return saveFromForm(request, {
    role: "admin",
    schema: OfficeFormSchema,
    noun: "office",
    listUrl: "/admin/offices",
    id: params.id,
    create: createOffice,
    update: updateOffice,
    label: (saved) => `${saved.city}, ${saved.country}`,
  });
}

export default function EditOffice() {
  const { office, regions } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="max-w-3xl">
      <PageHeader title="Edit Office" description={`${office.city}, ${office.country}`} />
      <OfficeForm mode="edit" defaultValue={office} regions={regions} actionData={actionData} />
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <EntityNotFound title="Office not found" backTo="/admin/offices" backLabel="Back to Offices" />
  );
}
