import { useActionData, useLoaderData } from "react-router";
import { PageHeader } from "~/components/admin/page-header";
import { PaperForm } from "~/components/admin/paper-form";
import { requireRole } from "~/lib/permissions.server";
import { listPaperCategories } from "~/models/papers/papers.server";
import type { Route } from "./+types/new";
import { savePaper } from "./paper-actions.server";

export const meta: Route.MetaFunction = () => [
  { title: "Create Paper | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  return { categories: await listPaperCategories() };
}

export async function action({ request }: Route.ActionArgs) {
  return savePaper(request);
}

export default function NewPaper() {
  const { categories } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="max-w-3xl">
      <PageHeader title="Create Paper" description="Add a research paper to the library." />
      <PaperForm mode="create" categories={categories} actionData={actionData} />
    </div>
  );
}
