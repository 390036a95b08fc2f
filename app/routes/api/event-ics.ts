import { redirect } from "react-router";
import { env } from "~/lib/env.server";
import { buildCalendar, calendarHeaders } from "~/lib/ics.server";
import { isUuid } from "~/models/events/filters";
import { findPublishedEventSlugById, getCalendarEventBySlug } from "~/models/events/queries.server";
import type { Route } from "./+types/event-ics";

// One published event as an .ics download ('Download .ics' on the event page).
export async function loader({ params }: Route.LoaderArgs) {
  const event = await getCalendarEventBySlug(params.slug);
  if (!event) {
    const slug = isUuid(params.slug) ? await findPublishedEventSlugById(params.slug) : null;
    if (slug) throw redirect(`/events/${encodeURIComponent(slug)}/calendar.ics`, 301);
    throw new Response("Not Found", { status: 404 });
  }
  return new Response(buildCalendar([event], { origin: env().BASE_URL, name: event.title }), {
    headers: {
      ...calendarHeaders(`${event.slug}.ics`, { download: true }),
      "Cache-Control": "public, max-age=300",
    },
  });
}
