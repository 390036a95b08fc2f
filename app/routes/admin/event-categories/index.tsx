import { Link, useLoaderData } from "react-router";
import { TaxonomyCard, type TaxonomyCardItem } from "~/components/admin/category-card";
import { EmptyState } from "~/components/admin/empty-state";
import { EntityGrid } from "~/components/admin/entity-card";
import { ListFilters } from "~/components/admin/list-filters";
import { PageHeader } from "~/components/admin/page-header";
import { Plus, Tags } from "~/components/icons";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button";
import type { Route } from "./+types/index";
import { deleteFromTaxonomyList, loadTaxonomies } from "./taxonomy-actions.server";

export const meta: Route.MetaFunction = () => [
  { title: "Categories & Types | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  return loadTaxonomies(request);
}

export async function action({ request }: Route.ActionArgs) {
  return deleteFromTaxonomyList(request);
}

function TaxonomySection({
  kind,
  heading,
  items,
  search,
}: {
  kind: "category" | "type";
  heading: string;
  items: TaxonomyCardItem[];
  search: string;
}) {
  const noun = kind === "category" ? "Category" : "Type";
  const newHref = kind === "category" ? "/admin/event-categories/new" : "/admin/event-types/new";
  const headingId = `${kind}-heading`;
  return (
    <section aria-labelledby={headingId} className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-xl font-semibold">
          {heading}{" "}
          <span className="text-base font-normal text-muted-foreground">({items.length})</span>
        </h2>
        <Link to={newHref} className={buttonVariants({ size: "sm" })}>
          <Plus aria-hidden />
          Add {noun}
        </Link>
      </div>
      {items.length > 0 ? (
        <EntityGrid>
          {items.map((item) => (
            <TaxonomyCard key={item.id} item={item} kind={kind} />
          ))}
        </EntityGrid>
      ) : (
        <EmptyState
          icon={Tags}
          title={
            search
              ? `No ${heading.toLowerCase()} match your search`
              : `No ${heading.toLowerCase()} yet`
          }
          hint={search ? "Try another search term." : `Add the first ${noun.toLowerCase()}.`}
        />
      )}
    </section>
  );
}

export default function CategoriesAndTypes() {
  const { search, categories, types, loadError } = useLoaderData<typeof loader>();
  return (
    <div>
      <PageHeader
        title="Categories & Types"
        description="The event categories and event types editors choose from on the event form."
      />
      <ListFilters
        searchLabel="Search categories and types"
        searchPlaceholder="Name, description or sector"
        search={search}
      />
      {loadError ? (
        <Alert variant="destructive" className="mb-6">
          <AlertTitle>Failed to load categories and types</AlertTitle>
          <AlertDescription>{loadError}</AlertDescription>
        </Alert>
      ) : null}
      <div className="grid gap-10">
        <TaxonomySection
          kind="category"
          heading="Event Categories"
          items={categories}
          search={search}
        />
        <TaxonomySection kind="type" heading="Event Types" items={types} search={search} />
      </div>
    </div>
  );
}
