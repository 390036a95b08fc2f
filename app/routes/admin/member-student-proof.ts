import { requireRole } from "~/lib/permissions.server";
import { getStorage } from "~/lib/storage.server";
import { getStudentProofKey } from "~/models/membership/queries.server";
import type { Route } from "./+types/member-student-proof";

// The student proof of a membership application (admins only; stored privately).
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireRole(request, "admin");
  const key = /^[0-9a-f-]{36}$/i.test(params.id) ? await getStudentProofKey(params.id) : null;
  const object = key ? await getStorage().get(key) : null;
  if (!object) throw new Response("Not Found", { status: 404 });
  return new Response(object.body, {
    headers: {
      "Content-Type": object.contentType,
      "Content-Length": String(object.size),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": "attachment",
    },
  });
}
