import { csvResponse } from "~/lib/csv";
import { requireRole } from "~/lib/permissions.server";
import { activityCsvStream, activityFiltersFrom } from "~/models/security/audit-log.server";
import type { Route } from "./+types/security-activity-csv";

/** CSV export of the Activity Log, with the same filters as the page (admins only). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "admin");
  const filters = activityFiltersFrom(new URL(request.url).searchParams);
  const day = new Date().toISOString().slice(0, 10);
  return csvResponse(activityCsvStream(filters), `kongamano-activity-${day}.csv`);
}
