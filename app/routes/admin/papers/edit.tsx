import { data, useActionData, useLoaderData } from "react-router";
import { EntityNotFound } from "~/components/admin/entity-form-parts";
import { PageHeader } from "~/components/admin/page-header";
import { PaperForm } from "~/components/admin/paper-form";
import { requireRole } from "~/lib/permissions.server";
import { getPaper, listPaperCategories } from "~/models/papers/papers.server";
import type { Route } from "./+types/edit";
import { savePaper } from "./paper-actions.server";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.paper.title ? `Edit ${data.paper.title}` : "Edit Paper"} | Admin | Kongamano` },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  const [paper, categories] = await Promise.all([getPaper(params.id), listPaperCategories()]);
  if (!paper) throw data(null, { status: 404 });
  return { paper, categories };
}

export async function action({ request, params }: Route.ActionArgs) {
  return savePaper(request, params.id);
}

export default function EditPaper() {
  const { paper, categories } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="max-w-3xl">
      <PageHeader title="Edit Paper" description={paper.title} />
      <PaperForm mode="edit" defaultValue={paper} categories={categories} actionData={actionData} />
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <EntityNotFound title="Paper not found" backTo="/admin/papers" backLabel="Back to Papers" />
  );
}
