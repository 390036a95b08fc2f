import { useActionData, useLoaderData } from "react-router";
import { TaxonomyForm } from "~/components/admin/category-form";
import { EntityNotFound } from "~/components/admin/entity-form-parts";
import { PageHeader } from "~/components/admin/page-header";
import type { Route } from "./+types/edit";
import { loadTaxonomyItem, saveTaxonomyItem } from "./taxonomy-actions.server";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.item.name ? `Edit ${data.item.name}` : "Edit Category"} | Admin | Kongamano` },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  return loadTaxonomyItem(request, "category", params.id);
}

export async function action({ request, params }: Route.ActionArgs) {
  return saveTaxonomyItem(request, "category", params.id);
}

export default function EditCategory() {
  const { item } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="max-w-2xl">
      <PageHeader title="Edit Category" description={item.name} />
      <TaxonomyForm kind="category" mode="edit" defaultValue={item} actionData={actionData} />
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <EntityNotFound
      title="Category not found"
      backTo="/admin/event-categories"
      backLabel="Back to Categories & Types"
    />
  );
}
