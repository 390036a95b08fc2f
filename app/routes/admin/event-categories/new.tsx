import { useActionData } from "react-router";
import { TaxonomyForm } from "~/components/admin/category-form";
import { PageHeader } from "~/components/admin/page-header";
import { requireRole } from "~/lib/permissions.server";
import type { Route } from "./+types/new";
import { saveTaxonomyItem } from "./taxonomy-actions.server";

export const meta: Route.MetaFunction = () => [
  { title: "Create Category | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  return saveTaxonomyItem(request, "category");
}

export default function NewCategory() {
  const actionData = useActionData<typeof action>();
  return (
    <div className="max-w-2xl">
      <PageHeader
        title="Create Category"
        description="Categories group events by subject; editors choose one on the event form."
      />
      <TaxonomyForm kind="category" mode="create" actionData={actionData} />
    </div>
  );
}
