import { requireUser } from "~/lib/permissions.server";
import { getStorage } from "~/lib/storage.server";
import { isId, manuscriptKeyForAuthor } from "~/models/cfp/queries.server";
import type { Route } from "./+types/manuscript";

// The author's own manuscript of a round (private: never through /uploads).
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const round = Number(params.round);
  const key =
    isId(params.id) && Number.isInteger(round)
      ? await manuscriptKeyForAuthor(user.id, params.id, round)
      : null;
  const object = key ? await getStorage().get(key) : null;
  if (!object) throw new Response("Not Found", { status: 404 });
  return new Response(object.body, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(object.size),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": `attachment; filename="manuscript-round-${round}.pdf"`,
    },
  });
}
