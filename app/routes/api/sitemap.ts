import { env } from "~/lib/env.server";
import { listSitemapEntries } from "~/models/events/queries.server";
import { buildSitemap } from "~/routes/public/events/feeds.server";
import type { Route } from "./+types/sitemap";

// Static pages plus every published event and paper; an index of slices beyond 50,000 URLs.
export async function loader({ request }: Route.LoaderArgs) {
  const pageParam = new URL(request.url).searchParams.get("page");
  const page = pageParam === null ? null : Number(pageParam);
  const xml = buildSitemap(await listSitemapEntries(), {
    origin: env().BASE_URL,
    page: page !== null && Number.isInteger(page) ? page : page === null ? null : -1,
  });
  if (xml === null) throw new Response("Not Found", { status: 404 });
  return new Response(xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
