import { Link, useLoaderData } from "react-router";
import { EmptyState } from "~/components/admin/empty-state";
import { EntityGrid } from "~/components/admin/entity-card";
import { ListFilters } from "~/components/admin/list-filters";
import { ListPagination } from "~/components/admin/list-pagination";
import { PageHeader } from "~/components/admin/page-header";
import { PaperCard } from "~/components/admin/paper-card";
import { FileText, Plus } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button";
import { ADMIN_PAPER_STATUSES, statusLabel } from "~/lib/constants";
import { requireRole } from "~/lib/permissions.server";
import { listAdminPapers, type PaperStatus } from "~/models/papers/papers.server";
import { pageNumber } from "~/models/shared/entity-support.server";
import type { Route } from "./+types/index";
import { deletePaperFromList } from "./paper-actions.server";

export const meta: Route.MetaFunction = () => [
  { title: "Papers | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

const STATUS_OPTIONS = [
  { value: "all", label: "All" },
  ...ADMIN_PAPER_STATUSES.map((status) => ({ value: status, label: statusLabel(status) })),
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  const params = new URL(request.url).searchParams;
  const search = params.get("search")?.trim() ?? "";
  const requested = params.get("status") ?? "all";
  const status = (ADMIN_PAPER_STATUSES as readonly string[]).includes(requested)
    ? (requested as PaperStatus)
    : null;
  const list = await listAdminPapers({ search, status, page: pageNumber(params.get("page")) });
  return { ...list, search, status: status ?? "all" };
}

export async function action({ request }: Route.ActionArgs) {
  return deletePaperFromList(request);
}

export default function AdminPapers() {
  const { papers, total, page, pageSize, search, status } = useLoaderData<typeof loader>();
  const filtered = Boolean(search) || status !== "all";
  return (
    <div>
      <PageHeader
        title="Papers"
        description="The research paper library: drafts, papers under review and published papers."
        actions={
          <Link to="/admin/papers/new" className={buttonVariants()}>
            <Plus aria-hidden />
            Add Paper
          </Link>
        }
      />
      <ListFilters
        searchLabel="Search papers"
        searchPlaceholder="Title, authors or category"
        search={search}
        filters={[{ name: "status", label: "Status", value: status, options: STATUS_OPTIONS }]}
      />
      {papers.length > 0 ? (
        <>
          <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
            {total === 1 ? "1 paper" : `${total} papers`}
          </p>
          <EntityGrid>
            {papers.map((paper) => (
              <PaperCard key={paper.id} paper={paper} />
            ))}
          </EntityGrid>
          <ListPagination page={page} pageSize={pageSize} total={total} />
        </>
      ) : (
        <EmptyState
          icon={FileText}
          title="No papers found"
          hint={
            filtered
              ? "Try adjusting your filters or search terms."
              : "Get started by adding your first paper."
          }
          action={
            filtered ? null : (
              <Link to="/admin/papers/new" className={buttonVariants()}>
                <Plus aria-hidden />
                Add Paper
              </Link>
            )
          }
        />
      )}
    </div>
  );
}
