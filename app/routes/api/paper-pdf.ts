import { getOptionalUser } from "~/lib/permissions.server";
import { getStorage, keyFromUrl } from "~/lib/storage.server";
import { findVisiblePaper, paperViewer, recordPaperDownload } from "~/models/papers/queries.server";
import type { Route } from "./+types/paper-pdf";

/** A single 'bytes=' range resolved against the file size; null = serve the whole file. */
export function parseRange(header: string | null, size: number) {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!match || (!match[1] && !match[2])) return null; // absent, malformed or multi-range
  if (!match[1]) {
    const suffix = Number(match[2]); // 'bytes=-500': the last 500 bytes
    if (suffix === 0) return "unsatisfiable" as const;
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  if (start >= size || end < start) return "unsatisfiable" as const;
  return { start, end };
}

// The PDF of a paper the caller may see, as a download. Each download counts once: a plain GET, or
// the first range request (the one starting at byte 0); resumed ranges and HEAD do not count.
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  const paper = await findVisiblePaper(params.slug, paperViewer(user));
  if (!paper?.pdfUrl) throw new Response("Not Found", { status: 404 });
  const counts = request.method === "GET";

  const key = keyFromUrl(paper.pdfUrl);
  if (!key) {
    if (!/^https?:\/\//i.test(paper.pdfUrl)) throw new Response("Not Found", { status: 404 });
    if (counts) await recordPaperDownload(paper.id);
    return new Response(null, {
      status: 302,
      headers: { Location: paper.pdfUrl, "Cache-Control": "no-store" },
    });
  }

  const storage = getStorage();
  const info = await storage.stat(key);
  if (!info) throw new Response("Not Found", { status: 404 });
  const headers = new Headers({
    "Content-Type": "application/pdf",
    "Content-Disposition": `attachment; filename="${paper.slug}.pdf"`,
    "X-Content-Type-Options": "nosniff",
    "Accept-Ranges": "bytes",
    // Never stored by a shared cache: every download must reach us to be counted (and drafts
    // are private to editors).
    "Cache-Control": "private, no-cache",
  });

  const range = parseRange(request.headers.get("Range"), info.size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${info.size}`);
    return new Response(null, { status: 416, headers });
  }
  const object = await storage.get(key, range ?? undefined);
  if (!object) throw new Response("Not Found", { status: 404 });
  if (counts && (!range || range.start === 0)) await recordPaperDownload(paper.id);

  if (range) {
    headers.set("Content-Range", `bytes ${range.start}-${range.end}/${info.size}`);
    headers.set("Content-Length", String(range.end - range.start + 1));
    return new Response(object.body, { status: 206, headers });
  }
  headers.set("Content-Length", String(info.size));
  return new Response(object.body, { status: 200, headers });
}
