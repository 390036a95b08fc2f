import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { papers } from "~/db/schema";
import { getOptionalUser } from "~/lib/permissions.server";
import { hasRole } from "~/lib/roles";
import { getStorage, isSafeKey, publicUrl } from "~/lib/storage.server";
import { MANUSCRIPT_FOLDER } from "~/models/cfp/manuscripts.server";
import { PROOF_FOLDER } from "~/models/orders/payment-proof.server";
import type { Route } from "./+types/uploads-file";

const PUBLIC_CACHE = "public, max-age=31536000, immutable";

/**
 * Who may read a stored PDF: a paper that is not published keeps its PDF to editors and admins,
 * however the random key became known (a PDF no paper refers to is kept to them too).
 */
async function pdfCacheControl(request: Request, key: string): Promise<string | null> {
  const referrers = await getDb()
    .select({ status: papers.status })
    .from(papers)
    .where(eq(papers.pdfUrl, publicUrl(key)));
  if (referrers.length > 0 && referrers.every((paper) => paper.status === "published")) {
    return PUBLIC_CACHE;
  }
  const user = await getOptionalUser(request);
  return user && hasRole(user.role, "editor") ? "private, no-store" : null;
}

// Uploaded files. Names are random and never reused, so public ones are cached for a year.
export async function loader({ params, request }: Route.LoaderArgs) {
  const key = params["*"] ?? "";
  // Payment proofs and manuscripts are private: served by their own routes only.
  if (
    !isSafeKey(key) ||
    key.startsWith(`${PROOF_FOLDER}/`) ||
    key.startsWith(`${MANUSCRIPT_FOLDER}/`)
  ) {
    throw new Response("Not Found", { status: 404 });
  }
  const pdf = key.endsWith(".pdf");
  const cacheControl = pdf ? await pdfCacheControl(request, key) : PUBLIC_CACHE;
  if (!cacheControl) throw new Response("Not Found", { status: 404 });
  const object = await getStorage().get(key);
  if (!object) throw new Response("Not Found", { status: 404 });
  return new Response(object.body, {
    headers: {
      "Content-Type": object.contentType,
      "Content-Length": String(object.size),
      "Cache-Control": cacheControl,
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": object.contentType === "application/pdf" ? "attachment" : "inline",
    },
  });
}
