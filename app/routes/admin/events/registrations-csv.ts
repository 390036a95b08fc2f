import { data } from "react-router";
import { recordAudit } from "~/lib/audit.server";
import { csvResponse } from "~/lib/csv";
import { slugify } from "~/lib/format";
import { requireRole } from "~/lib/permissions.server";
import {
  getRegistrationEvent,
  registrationFiltersFrom,
  registrationsCsvExport,
} from "~/models/registrations/admin-queries.server";
import type { Route } from "./+types/registrations-csv";

/**
 * The event's registrations as CSV, with the list's search and status filter (editors, admins);
 * attendee names and e-mails leave the system here, so each export is audited.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireRole(request, "editor");
  const event = await getRegistrationEvent(params.id);
  if (!event) throw data("Event not found", { status: 404 });
  const filters = registrationFiltersFrom(new URL(request.url).searchParams);
  const { csv, rows } = await registrationsCsvExport(event, filters);
  await recordAudit(request, {
    action: "registration.export",
    actorId: user.id,
    entity: "event",
    entityId: event.id,
    details: { rows, status: filters.status, search: filters.search },
  });
  const day = new Date().toISOString().slice(0, 10);
  const name = `${slugify(event.title).slice(0, 60) || "event"}-registrations-${day}.csv`;
  return csvResponse(csv, name);
}
