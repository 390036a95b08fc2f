import { useActionData } from "react-router";
import { TaxonomyForm } from "~/components/admin/category-form";
import { PageHeader } from "~/components/admin/page-header";
import { requireRole } from "~/lib/permissions.server";
import { saveTaxonomyItem } from "../event-categories/taxonomy-actions.server";
import type { Route } from "./+types/new";

export const meta: Route.MetaFunction = () => [
  { title: "Create Event Type | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  return saveTaxonomyItem(request, "type");
}

export default function NewEventType() {
  const actionData = useActionData<typeof action>();
  return (
    <div className="max-w-2xl">
      <PageHeader
        title="Create Event Type"
        description="Types say what kind of event it is: conference, exhibition, gala, workshop..."
      />
      <TaxonomyForm kind="type" mode="create" actionData={actionData} />
    </div>
  );
}
