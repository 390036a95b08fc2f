import { data } from "react-router";
import { slugify } from "~/lib/format";
import { requireRole } from "~/lib/permissions.server";
import {
  getRegistrationEvent,
  registrationFiltersFrom,
  registrationsCsv,
} from "~/models/registrations/admin-queries.server";
import type { Route } from "./+types/registrations-csv";

/** The event's registrations as CSV, with the list's search and status filter (editors, admins). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  const event = await getRegistrationEvent(params.id);
  if (!event) throw data("Event not found", { status: 404 });
  const filters = registrationFiltersFrom(new URL(request.url).searchParams);
  const csv = await registrationsCsv(event, filters);
  const day = new Date().toISOString().slice(0, 10);
  const name = `${slugify(event.title).slice(0, 60) || "event"}-registrations-${day}.csv`;
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
