// Proof of payment (an M-Pesa screenshot, a bank slip PDF): private to staff. Stored under a
// folder the public /uploads route refuses to serve.
import { getStorage, randomKey } from "~/lib/storage.server";
import { checkPdf, isPdf, processImage, sniffImageType, UploadError } from "~/lib/uploads.server";

export const PROOF_FOLDER = "payment-proofs";
export const MAX_PROOF_BYTES = 5 * 1024 * 1024;

export async function storePaymentProof(file: Blob): Promise<string> {
  if (file.size > MAX_PROOF_BYTES) {
    throw new UploadError(400, "Upload failed", "The proof file must be at most 5 MB.");
  }
  const bytes = Buffer.from(await file.arrayBuffer());
  if (isPdf(bytes)) {
    const key = randomKey(PROOF_FOLDER, "pdf");
    await getStorage().put(key, checkPdf(bytes), "application/pdf");
    return key;
  }
  if (!sniffImageType(bytes)) {
    throw new UploadError(400, "Upload failed", "The proof must be a PDF, JPEG, PNG or WebP file.");
  }
  const key = randomKey(PROOF_FOLDER, "webp");
  // Screenshots of an M-Pesa message are tall: keep them readable.
  const image = await processImage(bytes, { width: 1600, height: 1600 });
  await getStorage().put(key, image, "image/webp");
  return key;
}

/** Removes a proof that no payment ended up holding (the recording was refused or a repeat). */
export async function discardPaymentProof(key: string) {
  await getStorage()
    .delete(key)
    .catch(() => {});
}
