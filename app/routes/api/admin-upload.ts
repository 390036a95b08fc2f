import { data } from "react-router";
import { logger } from "~/lib/logger.server";
import { requireRole } from "~/lib/permissions.server";
import { isUploadKind, storeUpload, UploadError } from "~/lib/uploads.server";
import type { Route } from "./+types/admin-upload";

/**
 * POST /admin/uploads?kind=image|pdf — the back office's upload endpoint (editor or admin).
 * Body: the raw file (what the image uploader sends, with upload progress) or multipart/form-data
 * with a `file` field. Answers `{ url }`, or `{ error: { title, message } }` with 400/413.
 */
export async function action({ request }: Route.ActionArgs) {
  await requireRole(request, "editor");
  if (request.method !== "POST") {
    return data({ error: { title: "Upload failed", message: "Method not allowed" } }, 405);
  }
  const kind = new URL(request.url).searchParams.get("kind") ?? "image";
  if (!isUploadKind(kind)) {
    return data({ error: { title: "Upload failed", message: "Unknown upload kind" } }, 400);
  }
  try {
    const stored = await storeUpload(kind, request);
    return data({ url: stored.url }, 201);
  } catch (error) {
    if (error instanceof UploadError) {
      return data(
        { error: { title: error.title, message: error.message } },
        // Over the limit we stopped reading: the connection cannot carry another request.
        { status: error.status, headers: error.status === 413 ? { Connection: "close" } : {} },
      );
    }
    logger.error({ err: error }, "upload failed");
    return data(
      {
        error: {
          title: "Upload failed",
          message: "The file could not be saved. Please try again.",
        },
      },
      500,
    );
  }
}

export function loader() {
  throw new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}
