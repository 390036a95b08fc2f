import { ogImageResponse } from "~/lib/og-image.server";
import { getOptionalUser } from "~/lib/permissions.server";
import { findVisiblePaper, paperViewer } from "~/models/papers/queries.server";
import { paperOgCard } from "~/routes/public/papers/paper-og.server";
import type { Route } from "./+types/paper-og-image";

// The generated 1200×630 share image of a paper the viewer may see.
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  const paper = await findVisiblePaper(params.slug, paperViewer(user));
  if (!paper) throw new Response("Not Found", { status: 404 });
  const response = await ogImageResponse(paperOgCard(paper), request);
  // Unpublished papers (seen by editors only) are never stored by shared caches.
  if (paper.status !== "published") response.headers.set("Cache-Control", "private, no-store");
  return response;
}
