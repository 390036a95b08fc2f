import { once } from "node:events";
import { PassThrough, Readable } from "node:stream";
import { ZipArchive } from "archiver";
import { toBibtex } from "~/lib/citations";
import { ORGANISATION_NAME } from "~/lib/constants";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { getOptionalUser } from "~/lib/permissions.server";
import { hitRateLimit } from "~/lib/rate-limit.server";
import { clientIp } from "~/lib/request.server";
import { getStorage, keyFromUrl } from "~/lib/storage.server";
import { redirectWithToast } from "~/lib/toast.server";
import { type PaperFilters, papersHref, parsePaperFilters } from "~/models/papers/filters";
import {
  BULK_DOWNLOAD_LIMIT,
  citablePaper,
  listPapersForExport,
  paperViewer,
  recordPaperDownloads,
} from "~/models/papers/queries.server";
import type { Route } from "./+types/papers-bulk-zip";

type ExportPaper = Awaited<ReturnType<typeof listPapersForExport>>[number];

const TOO_MANY_PAPERS = {
  title: "Too many papers for one download",
  description: `Bulk Download takes up to ${BULK_DOWNLOAD_LIMIT} papers at a time. Narrow your search or filters and try again.`,
};

// 'Bulk Download' on /papers: a ZIP of the PDFs of the current result set plus citations.bib,
// streamed entry by entry (one PDF open at a time, never the whole archive in memory).
export async function loader({ request }: Route.LoaderArgs) {
  const filters = parsePaperFilters(new URL(request.url).searchParams);
  const back = papersHref({ ...filters, page: 1 });
  const user = await getOptionalUser(request);

  // Each archive reads up to 200 files: bound how often one client can ask for them.
  const limit = await hitRateLimit(`papers-bulk-zip:${clientIp(request)}`, {
    max: 20,
    windowMs: 10 * 60_000,
  });
  if (!limit.allowed) {
    throw await redirectWithToast(back, {
      type: "error",
      title: "Too many downloads",
      description: `Please wait ${Math.ceil(limit.retryAfterSeconds / 60)} minutes and try again.`,
    });
  }

  const papers = await listPapersForExport(filters, paperViewer(user), BULK_DOWNLOAD_LIMIT + 1);
  if (papers.length > BULK_DOWNLOAD_LIMIT) {
    throw await redirectWithToast(back, { type: "error", ...TOO_MANY_PAPERS });
  }
  if (papers.length === 0) {
    throw await redirectWithToast(back, {
      type: "info",
      title: "No papers to download",
      description: "No papers match these filters.",
    });
  }

  const origin = new URL(env().BASE_URL).origin;
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const output = new PassThrough();
  archive.pipe(output);
  const stop = new AbortController();
  // The client went away (or the stream failed): stop reading files for it.
  output.on("close", () => stop.abort());
  archive.on("error", (error) => output.destroy(error));
  archive.on("warning", (warning) => logger.warn({ err: warning }, "bulk zip warning"));

  void writeArchive(archive, papers, { origin, filters, signal: stop.signal }).catch((error) => {
    if (!stop.signal.aborted) logger.error({ err: error }, "bulk zip failed");
    archive.abort();
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });

  const date = new Date().toISOString().slice(0, 10);
  return new Response(Readable.toWeb(output) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="kongamano-papers-${date}.zip"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

async function writeArchive(
  archive: ZipArchive,
  papers: ExportPaper[],
  { origin, filters, signal }: { origin: string; filters: PaperFilters; signal: AbortSignal },
) {
  const storage = getStorage();
  const included: string[] = [];
  const external: ExportPaper[] = [];
  const missing: ExportPaper[] = [];
  for (const paper of papers) {
    if (!paper.pdfUrl) {
      missing.push(paper);
      continue;
    }
    const key = keyFromUrl(paper.pdfUrl);
    if (!key) {
      external.push(paper);
      continue;
    }
    const object = await storage.get(key);
    if (!object) {
      missing.push(paper);
      continue;
    }
    signal.throwIfAborted();
    const written = once(archive, "entry", { signal });
    // PDFs are compressed already: store them as they are.
    archive.append(Readable.fromWeb(object.body as import("node:stream/web").ReadableStream), {
      name: `${paper.slug}.pdf`,
      store: true,
    });
    await written; // back-pressure: the next file opens once this one is in the archive
    included.push(paper.id);
  }

  archive.append(toBibtex(papers.map((paper) => citablePaper(paper, origin))), {
    name: "citations.bib",
  });
  archive.append(
    readme({ papers, included: included.length, external, missing, origin, filters }),
    {
      name: "README.txt",
    },
  );
  // Counted before the archive's last bytes leave, so a finished download is always counted.
  await recordPaperDownloads(included);
  await archive.finalize();
}

function readme({
  papers,
  included,
  external,
  missing,
  origin,
  filters,
}: {
  papers: ExportPaper[];
  included: number;
  external: ExportPaper[];
  missing: ExportPaper[];
  origin: string;
  filters: PaperFilters;
}) {
  const line = (paper: ExportPaper, url: string) => `- ${paper.title}\r\n  ${url}`;
  const lines = [
    `${ORGANISATION_NAME} research papers: bulk download`,
    "",
    `Created: ${new Date().toISOString()}`,
    `From: ${origin}${papersHref({ ...filters, page: 1 })}`,
    `Papers: ${papers.length} (${included} PDF${included === 1 ? "" : "s"} in this archive)`,
    "",
    "citations.bib holds a BibTeX record of every paper listed above;",
    "each PDF is named after its paper's address (<name>.pdf is /papers/<name>).",
  ];
  if (external.length) {
    lines.push("", "PDFs published on other websites (not included, download them there):");
    for (const paper of external) lines.push(line(paper, paper.pdfUrl ?? ""));
  }
  if (missing.length) {
    lines.push("", "Papers without a PDF:");
    for (const paper of missing) lines.push(line(paper, `${origin}/papers/${paper.slug}`));
  }
  return `${lines.join("\r\n")}\r\n`;
}
