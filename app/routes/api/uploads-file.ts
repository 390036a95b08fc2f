import { getStorage, isSafeKey } from "~/lib/storage.server";
import type { Route } from "./+types/uploads-file";

// Uploaded files. Names are random and never reused, so they can be cached for a year.
export async function loader({ params }: Route.LoaderArgs) {
  const key = params["*"] ?? "";
  if (!isSafeKey(key)) throw new Response("Not Found", { status: 404 });
  const object = await getStorage().get(key);
  if (!object) throw new Response("Not Found", { status: 404 });
  return new Response(object.body, {
    headers: {
      "Content-Type": object.contentType,
      "Content-Length": String(object.size),
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": object.contentType === "application/pdf" ? "attachment" : "inline",
    },
  });
}
