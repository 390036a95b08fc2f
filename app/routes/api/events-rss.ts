import { env } from "~/lib/env.server";
import { listRecentPublishedEvents } from "~/models/events/queries.server";
import { buildEventsRss } from "~/routes/public/events/feeds.server";
import type { Route } from "./+types/events-rss";

// RSS 2.0 feed of the 50 most recently added published events.
export async function loader(_: Route.LoaderArgs) {
  const list = await listRecentPublishedEvents(50);
  return new Response(buildEventsRss(list, { origin: env().BASE_URL }), {
    headers: {
      "Content-Type": "application/rss+xml; charset=utf-8",
      "Cache-Control": "public, max-age=300",
    },
  });
}
