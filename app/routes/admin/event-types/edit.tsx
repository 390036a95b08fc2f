import { useActionData, useLoaderData } from "react-router";
import { TaxonomyForm } from "~/components/admin/category-form";
import { EntityNotFound } from "~/components/admin/entity-form-parts";
import { PageHeader } from "~/components/admin/page-header";
import { loadTaxonomyItem, saveTaxonomyItem } from "../event-categories/taxonomy-actions.server";
import type { Route } from "./+types/edit";

export const meta: Route.MetaFunction = ({ data }) => [
  {
    title: `${data?.item.name ? `Edit ${data.item.name}` : "Edit Event Type"} | Admin | Kongamano`,
  },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  return loadTaxonomyItem(request, "type", params.id);
}

export async function action({ request, params }: Route.ActionArgs) {
  return saveTaxonomyItem(request, "type", params.id);
}

export default function EditEventType() {
  const { item } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="max-w-2xl">
      <PageHeader title="Edit Event Type" description={item.name} />
      <TaxonomyForm kind="type" mode="edit" defaultValue={item} actionData={actionData} />
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <EntityNotFound
      title="Event type not found"
      backTo="/admin/event-categories"
      backLabel="Back to Categories & Types"
    />
  );
}
