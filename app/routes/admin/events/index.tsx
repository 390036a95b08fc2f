import { data, Link, useLoaderData } from "react-router";
import { ConfirmDeleteDialog } from "~/components/admin/confirm-delete-dialog";
import { EmptyState } from "~/components/admin/empty-state";
import { EntityCard, EntityGrid } from "~/components/admin/entity-card";
import { ListFilters } from "~/components/admin/list-filters";
import { PageHeader } from "~/components/admin/page-header";
import { CalendarDays, ExternalLink, MapPin, Pencil, Plus, Star, Users } from "~/components/icons";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import { eventStatusBadgeVariant, eventTypeBadgeClass, statusLabel } from "~/lib/constants";
import { formatDateRange } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { requireRole } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { cn } from "~/lib/utils";
import { deleteEvent, listAdminEvents, normaliseStatusFilter } from "~/models/events/events.server";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => [
  { title: "Manage Events | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  const url = new URL(request.url);
  const search = url.searchParams.get("search")?.trim() ?? "";
  const status = normaliseStatusFilter(url.searchParams.get("status"));
  const events = await listAdminEvents({ search, status });
  return { events, search, status };
}

const DELETE_FAILED = { title: "Error", description: "Failed to delete event. Please try again." };

export async function action({ request }: Route.ActionArgs) {
  const user = await requireRole(request, "editor");
  const form = await request.formData();
  if (form.get("intent") !== "delete") {
    return data({ error: { title: "Error", description: "Unknown action." } }, 400);
  }
  try {
    const deleted = await deleteEvent(
      { id: user.id, role: user.role, request },
      String(form.get("id") ?? ""),
    );
    if (!deleted) return data({ error: DELETE_FAILED }, 404);
    // Back to the same filtered list (the search and status of the page the dialog was on).
    const back = new URL(request.url);
    return redirectWithToast(`/admin/events${back.search}`, {
      type: "success",
      title: "Event deleted",
      description: `${deleted.title} has been successfully deleted.`,
    });
  } catch (error) {
    logger.error({ err: error }, "event delete failed");
    return data({ error: DELETE_FAILED }, 500);
  }
}

const STATUS_OPTIONS = [
  { value: "all", label: "All statuses" },
  { value: "draft", label: "Draft" },
  { value: "published", label: "Published" },
  { value: "archived", label: "Archived" },
];

export default function AdminEvents() {
  const { events, search, status } = useLoaderData<typeof loader>();
  const filtered = search !== "" || status !== "all";
  return (
    <>
      <PageHeader
        title="Manage Events"
        description="Create, edit and publish conferences, exhibitions, galas and workshops."
        actions={
          <Link to="/admin/events/new" className={buttonVariants()}>
            <Plus aria-hidden />
            Create Event
          </Link>
        }
      />
      <ListFilters
        searchLabel="Search events"
        searchPlaceholder="Search by title, location or theme"
        search={search}
        filters={[{ name: "status", label: "Status", value: status, options: STATUS_OPTIONS }]}
      />
      <p className="sr-only" aria-live="polite">
        {events.length} {events.length === 1 ? "event" : "events"} found
      </p>
      {events.length === 0 ? (
        <EmptyState
          icon={CalendarDays}
          title="No events found"
          hint={
            filtered
              ? "Try adjusting your filters or search terms."
              : "Get started by creating your first event."
          }
          action={
            filtered ? (
              <Link to="/admin/events" className={buttonVariants({ variant: "outline" })}>
                Clear filters
              </Link>
            ) : (
              <Link to="/admin/events/new" className={buttonVariants()}>
                <Plus aria-hidden />
                Create Event
              </Link>
            )
          }
        />
      ) : (
        <EntityGrid aria-label="Events">
          {events.map((event) => (
            <EntityCard
              key={event.id}
              title={event.title}
              media={
                event.imageUrl ? (
                  <img
                    src={event.imageUrl}
                    alt=""
                    loading="lazy"
                    className="aspect-[1200/630] w-full bg-muted object-cover"
                  />
                ) : (
                  <div
                    aria-hidden
                    className={cn(
                      "flex aspect-[1200/630] w-full items-center justify-center",
                      eventTypeBadgeClass(event.eventType),
                    )}
                  >
                    <CalendarDays className="size-10 opacity-60" />
                  </div>
                )
              }
              badges={
                <>
                  <Badge variant={eventStatusBadgeVariant(event.status)}>
                    {statusLabel(event.status)}
                  </Badge>
                  {event.eventType ? (
                    <Badge
                      variant="outline"
                      className={cn("border-transparent", eventTypeBadgeClass(event.eventType))}
                    >
                      {statusLabel(event.eventType)}
                    </Badge>
                  ) : null}
                  {event.cancelledAt ? <Badge variant="destructive">Cancelled</Badge> : null}
                  {event.featured ? (
                    <Badge variant="accent">
                      <Star aria-hidden className="size-3" />
                      Featured
                    </Badge>
                  ) : null}
                </>
              }
              actions={
                <>
                  <Link
                    to={`/admin/events/${event.id}/edit`}
                    className={buttonVariants({ variant: "outline", size: "sm" })}
                    aria-label={`Edit ${event.title}`}
                  >
                    <Pencil aria-hidden />
                    Edit
                  </Link>
                  <Link
                    to={`/admin/events/${event.id}/registrations`}
                    className={buttonVariants({ variant: "outline", size: "sm" })}
                    aria-label={`Registrations for ${event.title}`}
                  >
                    <Users aria-hidden />
                    Registrations
                  </Link>
                  <ConfirmDeleteDialog
                    itemName={event.title}
                    title="Delete event?"
                    fields={{ intent: "delete", id: event.id }}
                    description={
                      <>
                        <strong>{event.title}</strong> will be permanently deleted, together with
                        its fees, agenda and speaker and sponsor links. This action cannot be
                        undone.
                      </>
                    }
                  />
                  {event.status === "published" ? (
                    <Link
                      to={`/events/${event.slug}`}
                      className={buttonVariants({ variant: "link", size: "sm" })}
                      aria-label={`View ${event.title} on the site`}
                    >
                      <ExternalLink aria-hidden />
                      View
                    </Link>
                  ) : null}
                </>
              }
            >
              <p className="flex items-center gap-2">
                <CalendarDays aria-hidden className="size-4 shrink-0" />
                {formatDateRange(event.startDate, event.endDate)}
              </p>
              <p className="flex items-center gap-2">
                <MapPin aria-hidden className="size-4 shrink-0" />
                {event.location}
              </p>
              {event.theme ? <p className="line-clamp-2 italic">{event.theme}</p> : null}
            </EntityCard>
          ))}
        </EntityGrid>
      )}
    </>
  );
}
