import { data } from "react-router";
import { requireRole } from "~/lib/permissions.server";
import { readStored } from "~/models/cfp/manuscripts.server";
import { manuscriptKeyForEditor } from "~/models/cfp/queries.server";
import type { Route } from "./+types/manuscript";

// A round's manuscript as the author uploaded it, for editors (issue 32): private storage, never
// cached or sniffed, a neutral name.
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  const key = await manuscriptKeyForEditor(params.id, Number(params.round));
  const bytes = key ? await readStored(key) : null;
  if (!bytes) throw data({ message: "Manuscript not found" }, { status: 404 });
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(bytes.length),
      "Content-Disposition": `attachment; filename="submission-${params.id.slice(0, 8)}-round-${Number(params.round)}.pdf"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
