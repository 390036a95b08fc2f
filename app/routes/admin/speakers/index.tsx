import { Link, useLoaderData } from "react-router";
import { EmptyState } from "~/components/admin/empty-state";
import { EntityGrid } from "~/components/admin/entity-card";
import { ListFilters } from "~/components/admin/list-filters";
import { ListPagination } from "~/components/admin/list-pagination";
import { PageHeader } from "~/components/admin/page-header";
import { SpeakerCard } from "~/components/admin/speaker-card";
import { Mic, Plus } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button";
import { requireRole } from "~/lib/permissions.server";
import { deleteSpeaker, listAdminSpeakers } from "~/models/people/speakers.server";
import { deleteFromList } from "~/models/shared/entity-actions.server";
import { pageNumber } from "~/models/shared/entity-support.server";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => [
  { title: "Speakers | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  const params = new URL(request.url).searchParams;
  const search = params.get("search")?.trim() ?? "";
  const list = await listAdminSpeakers({ search, page: pageNumber(params.get("page")) });
  return { ...list, search };
}

export async function action({ request }: Route.ActionArgs) {
  return deleteFromList(request, {
    role: "editor",
    noun: "speaker",
    listUrl: "/admin/speakers",
    remove: deleteSpeaker,
    label: (deleted) => deleted.name,
  });
}

export default function AdminSpeakers() {
  const { speakers, total, page, pageSize, search } = useLoaderData<typeof loader>();
  return (
    <div>
      <PageHeader
        title="Speakers"
        description="The people who speak at our events."
        actions={
          <Link to="/admin/speakers/new" className={buttonVariants()}>
            <Plus aria-hidden />
            Add Speaker
          </Link>
        }
      />
      <ListFilters
        searchLabel="Search speakers"
        searchPlaceholder="Name, organization or title"
        search={search}
      />
      {speakers.length > 0 ? (
        <>
          <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
            {total === 1 ? "1 speaker" : `${total} speakers`}
          </p>
          <EntityGrid>
            {speakers.map((speaker) => (
              <SpeakerCard key={speaker.id} speaker={speaker} />
            ))}
          </EntityGrid>
          <ListPagination page={page} pageSize={pageSize} total={total} />
        </>
      ) : (
        <EmptyState
          icon={Mic}
          title="No speakers found"
          hint={
            search
              ? "Try adjusting your filters or search terms."
              : "Get started by adding your first speaker."
          }
        />
      )}
    </div>
  );
}
