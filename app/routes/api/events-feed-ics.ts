import { ORGANISATION_NAME } from "~/lib/constants";
import { env } from "~/lib/env.server";
import { buildCalendar, calendarHeaders } from "~/lib/ics.server";
import { calendarName, parseEventFilters } from "~/models/events/filters";
import { listCalendarEvents } from "~/models/events/queries.server";
import type { Route } from "./+types/events-feed-ics";

/**
 * `/events.ics?<listing filters>`: the subscribable feed (events not yet ended, `webcal://`), or
 * with `scope=all` the listing's whole result set as a download ('Export Calendar').
 */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const filters = parseEventFilters(params);
  const scope = params.get("scope") === "all" ? "all" : "current";
  const list = await listCalendarEvents(filters, { scope });
  return new Response(
    buildCalendar(list, {
      origin: env().BASE_URL,
      name: calendarName(filters, ORGANISATION_NAME),
      feed: true,
    }),
    {
      headers: {
        ...calendarHeaders("kongamano-events.ics", { download: scope === "all" }),
        "Cache-Control": "public, max-age=300",
      },
    },
  );
}
