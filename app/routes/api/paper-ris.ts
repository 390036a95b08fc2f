import { toRis } from "~/lib/citations";
import { env } from "~/lib/env.server";
import { getOptionalUser } from "~/lib/permissions.server";
import { cacheHeadersFor } from "~/lib/site-content";
import { citablePaper, findVisiblePaper, paperViewer } from "~/models/papers/queries.server";
import type { Route } from "./+types/paper-ris";

// RIS record of one visible paper (EndNote, Zotero, Mendeley), as a download.
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  const paper = await findVisiblePaper(params.slug, paperViewer(user));
  if (!paper) throw new Response("Not Found", { status: 404 });
  const body = toRis([citablePaper(paper, new URL(env().BASE_URL).origin)]);
  return new Response(body, {
    headers: {
      "Content-Type": "application/x-research-info-systems; charset=utf-8",
      "Content-Disposition": `attachment; filename="${paper.slug}.ris"`,
      ...cacheHeadersFor(Boolean(user)),
    },
  });
}
