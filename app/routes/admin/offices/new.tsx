import { useActionData, useLoaderData } from "react-router";
import { OfficeForm } from "~/components/admin/office-form";
import { PageHeader } from "~/components/admin/page-header";
import { OfficeFormSchema } from "~/lib/forms/office-schema";
import { requireRole } from "~/lib/permissions.server";
import { createOffice, listOfficeRegions, updateOffice } from "~/models/offices/offices.server";
import { saveFromForm } from "~/models/shared/entity-actions.server";
import type { Route } from "./+types/new";

export const meta: Route.MetaFunction = () => [
  { title: "Create Office | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "admin");
  return { regions: await listOfficeRegions() };
}

export async function action({ request }: Route.ActionArgs) {
  return saveFromForm(request, {
    role: "admin",
    schema: OfficeFormSchema,
    noun: "office",
    listUrl: "/admin/offices",
    create: createOffice,
    update: updateOffice,
    label: (saved) => `${saved.city}, ${saved.country}`,
  });
}

export default function NewOffice() {
  const { regions } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="max-w-3xl">
      <PageHeader title="Create Office" description="Add a regional office." />
      <OfficeForm mode="create" regions={regions} actionData={actionData} />
    </div>
  );
}
