import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { papers } from "~/db/schema";
import { MAX_PDF_BYTES, PaperFormSchema } from "~/lib/forms/paper-schema";
import { logger } from "~/lib/logger.server";
import { requireRole } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { readStreamWithLimit, storeUpload, tooLarge, UploadError } from "~/lib/uploads.server";
import { createPaper, deletePaper, updatePaper } from "~/models/papers/papers.server";
import {
  deleteFromList,
  type EntityActionData,
  saveFailure,
} from "~/models/shared/entity-actions.server";
import { releaseUpload } from "~/models/shared/entity-support.server";

export const PAPERS_URL = "/admin/papers";
/** Room for the other fields (a long abstract) and the multipart envelope around the PDF. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;
/** The file never travels back to the browser with the form's state. */
const HIDE = ["pdfFile"];

/**
 * The paper form's body: multipart (it may carry a PDF), read with a size cap while it streams
 * in, so an oversized upload is refused without holding it in memory.
 */
async function readPaperForm(request: Request): Promise<FormData> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) return request.formData();
  const body = await readStreamWithLimit(request.body, MAX_PDF_BYTES + FORM_OVERHEAD_BYTES, () =>
    tooLarge("pdf"),
  );
  try {
    return await new Response(new Uint8Array(body), {
      headers: { "content-type": contentType },
    }).formData();
  } catch {
    // A broken multipart envelope is bad input (400), not a server error.
    throw new UploadError(400, "Upload failed", "The upload could not be read. Please try again.");
  }
}

/** Action of the new and edit screens (`id` given: update). */
export async function savePaper(request: Request, id?: string) {
  const user = await requireRole(request, "editor");
  const verb = id ? "update" : "create";
  const failureText = `Failed to ${verb} paper. Please try again.`;

  let formData: FormData;
  try {
    formData = await readPaperForm(request);
  } catch (error) {
    if (error instanceof UploadError) {
      return data<EntityActionData>(
        { error: { title: error.title, description: error.message } },
        { status: error.status, headers: error.status === 413 ? { Connection: "close" } : {} },
      );
    }
    throw error;
  }

  const submission = parseWithZod(formData, { schema: PaperFormSchema });
  if (submission.status !== "success") {
    return data<EntityActionData>(
      { result: submission.reply({ hideFields: HIDE }) },
      { status: 400 },
    );
  }
  const { pdfFile, ...fields } = submission.value;

  // A new PDF is checked by its content (%PDF-), capped at 20 MB and stored under a random name.
  let pdfUrl = fields.pdfUrl;
  let storedNow: string | null = null;
  if (pdfFile && pdfFile.size > 0) {
    try {
      storedNow = (await storeUpload("pdf", pdfFile)).url;
      pdfUrl = storedNow;
    } catch (error) {
      if (!(error instanceof UploadError)) {
        logger.error({ err: error }, "paper PDF could not be stored");
        return saveFailure(submission, error, {
          title: "Error",
          fallback: failureText,
          hideFields: HIDE,
        });
      }
      return data<EntityActionData>(
        {
          result: submission.reply({ fieldErrors: { pdfFile: [error.message] }, hideFields: HIDE }),
          error: { title: error.title, description: error.message },
        },
        { status: error.status },
      );
    }
  }

  const ctx = { id: user.id, role: user.role, request };
  let saved: { id: string; title: string } | null;
  try {
    saved = id
      ? await updatePaper(id, { ...fields, pdfUrl }, ctx)
      : await createPaper({ ...fields, pdfUrl }, ctx);
  } catch (error) {
    if (storedNow) await releaseUpload(storedNow, papers, papers.pdfUrl);
    return saveFailure(submission, error, {
      title: "Error",
      fallback: failureText,
      hideFields: HIDE,
    });
  }
  if (!saved) {
    if (storedNow) await releaseUpload(storedNow, papers, papers.pdfUrl);
    throw data(null, { status: 404 });
  }
  return redirectWithToast(PAPERS_URL, {
    type: "success",
    title: `Paper ${verb}d successfully`,
    description: `${saved.title} has been ${verb}d.`,
  });
}

/** Action of the list: delete a paper (its stored PDF goes with it). */
export function deletePaperFromList(request: Request) {
  return deleteFromList(request, {
    role: "editor",
    noun: "paper",
    listUrl: PAPERS_URL,
    remove: deletePaper,
    label: (deleted) => deleted.title,
  });
}
