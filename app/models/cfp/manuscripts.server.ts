// Manuscripts are private: stored under a folder the public /uploads route refuses to serve, read
// only through the author's, reviewer's and editor's own routes. A published paper gets a public
// copy (publishToLibrary).
import { getStorage, randomKey } from "~/lib/storage.server";
import { isPdf } from "~/lib/uploads.server";
import { CfpError } from "./cfp-error";

export const MANUSCRIPT_FOLDER = "manuscripts";
/** The guidelines on /papers: one PDF of at most 10 MB. */
export const MAX_MANUSCRIPT_BYTES = 10 * 1024 * 1024;
export const MANUSCRIPT_TOO_LARGE = "The manuscript must be one PDF of at most 10 MB.";
export const MANUSCRIPT_NOT_PDF = "The manuscript must be a PDF file.";

/** Checks the bytes (size, PDF by content) or refuses them under the manuscript field. */
export function checkManuscript(bytes: Uint8Array) {
  if (bytes.byteLength > MAX_MANUSCRIPT_BYTES) {
    throw new CfpError(MANUSCRIPT_TOO_LARGE, 400, "manuscript");
  }
  if (!isPdf(bytes)) throw new CfpError(MANUSCRIPT_NOT_PDF, 400, "manuscript");
}

/** Stores a checked manuscript privately; returns its key. */
export async function storeManuscript(bytes: Uint8Array, folder = MANUSCRIPT_FOLDER) {
  checkManuscript(bytes);
  const key = randomKey(folder, "pdf");
  await getStorage().put(key, Buffer.from(bytes), "application/pdf");
  return key;
}

/** Removes a stored file nothing refers to any more (best effort). */
export async function discardStored(key: string | null | undefined) {
  if (!key) return;
  await getStorage()
    .delete(key)
    .catch(() => {});
}

export function isManuscriptKey(key: string) {
  return key.startsWith(`${MANUSCRIPT_FOLDER}/`);
}

/** The bytes of a stored file (null when it is gone). */
export async function readStored(key: string): Promise<Buffer | null> {
  const object = await getStorage().get(key);
  if (!object) return null;
  return Buffer.from(await new Response(object.body).arrayBuffer());
}
