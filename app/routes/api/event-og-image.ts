import { ogImageResponse } from "~/lib/og-image.server";
import { getPublishedEventBySlug } from "~/models/events/queries.server";
import { eventOgCard } from "~/routes/public/events/event-view.server";
import type { Route } from "./+types/event-og-image";

// The generated 1200×630 share image of a published event (og:image, twitter:image, JSON-LD).
export async function loader({ request, params }: Route.LoaderArgs) {
  const event = await getPublishedEventBySlug(params.slug);
  if (!event) throw new Response("Not Found", { status: 404 });
  return ogImageResponse(eventOgCard(event), request);
}
