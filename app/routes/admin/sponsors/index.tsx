import { Link, useLoaderData } from "react-router";
import { EmptyState } from "~/components/admin/empty-state";
import { EntityGrid } from "~/components/admin/entity-card";
import { ListFilters } from "~/components/admin/list-filters";
import { ListPagination } from "~/components/admin/list-pagination";
import { PageHeader } from "~/components/admin/page-header";
import { SponsorCard } from "~/components/admin/sponsor-card";
import { Handshake, Plus } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button";
import { SPONSOR_TIERS, statusLabel } from "~/lib/constants";
import { requireRole } from "~/lib/permissions.server";
import {
  deleteSponsor,
  listAdminSponsors,
  type SponsorTier,
} from "~/models/people/sponsors.server";
import { deleteFromList } from "~/models/shared/entity-actions.server";
import { pageNumber } from "~/models/shared/entity-support.server";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => [
  { title: "Sponsors | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

/** Spec §2.15: All, Platinum, Gold, Silver, Bronze. */
const TIER_OPTIONS = [
  { value: "all", label: "All" },
  ...SPONSOR_TIERS.map((tier) => ({ value: tier, label: statusLabel(tier) })),
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  const params = new URL(request.url).searchParams;
  const search = params.get("search")?.trim() ?? "";
  const requested = params.get("tier") ?? "all";
  const tier = (SPONSOR_TIERS as readonly string[]).includes(requested)
    ? (requested as SponsorTier)
    : null;
  const list = await listAdminSponsors({ search, tier, page: pageNumber(params.get("page")) });
  return { ...list, search, tier: tier ?? "all" };
}

export async function action({ request }: Route.ActionArgs) {
  return deleteFromList(request, {
    role: "editor",
    noun: "sponsor",
    listUrl: "/admin/sponsors",
    remove: deleteSponsor,
    label: (deleted) => deleted.name,
  });
}

export default function AdminSponsors() {
  const { sponsors, total, page, pageSize, search, tier } = useLoaderData<typeof loader>();
  const filtered = Boolean(search) || tier !== "all";
  return (
    <div>
      <PageHeader
        title="Sponsors"
        description="Partners who sponsor our events, by tier."
        actions={
          <Link to="/admin/sponsors/new" className={buttonVariants()}>
            <Plus aria-hidden />
            Add Sponsor
          </Link>
        }
      />
      <ListFilters
        searchLabel="Search sponsors"
        searchPlaceholder="Sponsor name"
        search={search}
        filters={[{ name: "tier", label: "Tier", value: tier, options: TIER_OPTIONS }]}
      />
      {sponsors.length > 0 ? (
        <>
          <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
            {total === 1 ? "1 sponsor" : `${total} sponsors`}
          </p>
          <EntityGrid>
            {sponsors.map((sponsor) => (
              <SponsorCard key={sponsor.id} sponsor={sponsor} />
            ))}
          </EntityGrid>
          <ListPagination page={page} pageSize={pageSize} total={total} />
        </>
      ) : (
        <EmptyState
          icon={Handshake}
          title="No sponsors found"
          hint={
            filtered
              ? "Try adjusting your filters or search terms."
              : "Get started by adding your first sponsor."
          }
        />
      )}
    </div>
  );
}
