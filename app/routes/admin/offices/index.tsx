import { Link, useLoaderData } from "react-router";
import { EmptyState } from "~/components/admin/empty-state";
import { EntityGrid } from "~/components/admin/entity-card";
import { ListFilters } from "~/components/admin/list-filters";
import { OfficeCard } from "~/components/admin/office-card";
import { PageHeader } from "~/components/admin/page-header";
import { MapPin, Plus } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button";
import { OFFICE_STATUSES, statusLabel } from "~/lib/constants";
import { requireRole } from "~/lib/permissions.server";
import { deleteOffice, listAdminOffices, type OfficeStatus } from "~/models/offices/offices.server";
import { deleteFromList } from "~/models/shared/entity-actions.server";
import type { Route } from "./+types/index";

// Offices management is for admins only (spec §6), in the loader and in the action.

export const meta: Route.MetaFunction = () => [
  { title: "Offices | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

/** Spec §2.15: All, Active, Inactive. */
const STATUS_OPTIONS = [
  { value: "all", label: "All" },
  ...OFFICE_STATUSES.map((status) => ({ value: status, label: statusLabel(status) })),
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "admin");
  const params = new URL(request.url).searchParams;
  const search = params.get("search")?.trim() ?? "";
  const requested = params.get("status") ?? "all";
  const status = (OFFICE_STATUSES as readonly string[]).includes(requested)
    ? (requested as OfficeStatus)
    : null;
  const offices = await listAdminOffices({ search, status });
  return { offices, search, status: status ?? "all" };
}

export async function action({ request }: Route.ActionArgs) {
  return deleteFromList(request, {
    role: "admin",
    noun: "office",
    listUrl: "/admin/offices",
    remove: deleteOffice,
    label: (deleted) => `${deleted.city}, ${deleted.country}`,
  });
}

export default function AdminOffices() {
  const { offices, search, status } = useLoaderData<typeof loader>();
  const filtered = Boolean(search) || status !== "all";
  return (
    <div>
      <PageHeader
        title="Offices"
        description="Our regional offices, newest first. Active offices appear on the Global Offices page."
        actions={
          <Link to="/admin/offices/new" className={buttonVariants()}>
            <Plus aria-hidden />
            Add Office
          </Link>
        }
      />
      <ListFilters
        searchLabel="Search offices"
        searchPlaceholder="City, country or region"
        search={search}
        filters={[{ name: "status", label: "Status", value: status, options: STATUS_OPTIONS }]}
      />
      {offices.length > 0 ? (
        <>
          <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
            {offices.length === 1 ? "1 office" : `${offices.length} offices`}
          </p>
          <EntityGrid>
            {offices.map((office) => (
              <OfficeCard key={office.id} office={office} />
            ))}
          </EntityGrid>
        </>
      ) : (
        <EmptyState
          icon={MapPin}
          title="No offices found"
          hint={
            filtered
              ? "Try adjusting your filters or search terms."
              : "Get started by adding your first office."
          }
        />
      )}
    </div>
  );
}
