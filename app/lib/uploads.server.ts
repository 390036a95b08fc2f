import sharp from "sharp";
import { MAX_IMAGE_BYTES } from "./constants";
import { getStorage, publicUrl, randomKey } from "./storage.server";

/**
 * Server-side checks of every upload (spec §5, §7; design.md §3): the size is capped while the
 * body streams in, the type is decided by the bytes (never by the name or the declared type),
 * images are re-encoded by sharp (metadata stripped, pixel limit, bounded to 1200x630) and every
 * file is stored under a fresh random name.
 */

export const MAX_PDF_BYTES = 20 * 1024 * 1024;
/** Decoded-pixel ceiling for sharp: a 48 MP phone photo passes, a decompression bomb does not. */
export const MAX_INPUT_PIXELS = 50_000_000;
export const IMAGE_BOUNDS = { width: 1200, height: 630 } as const;
export const IMAGE_QUALITY = 85;

/**
 * After the limit is passed we keep reading (and discarding) up to this many bytes so that a
 * client still uploading receives our 413 instead of a reset connection; beyond it we stop.
 */
const DRAIN_LIMIT = 32 * 1024 * 1024;
/** Room for the multipart envelope (boundaries, part headers) around the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

export type UploadKind = "image" | "pdf";

const KINDS: Record<
  UploadKind,
  { maxBytes: number; folder: string; invalid: string; tooLarge: string }
> = {
  image: {
    maxBytes: MAX_IMAGE_BYTES,
    folder: "images",
    invalid: "Please upload a JPG, PNG, or WEBP image",
    tooLarge: "Please upload an image smaller than 5MB",
  },
  pdf: {
    maxBytes: MAX_PDF_BYTES,
    folder: "pdfs",
    invalid: "Please upload a PDF file",
    tooLarge: "Please upload a PDF smaller than 20MB",
  },
};

export function isUploadKind(value: unknown): value is UploadKind {
  return value === "image" || value === "pdf";
}

/** A refused upload: `title` and `message` are the texts the uploader shows (spec §8). */
export class UploadError extends Error {
  constructor(
    readonly status: 400 | 413,
    readonly title: "Invalid file type" | "File too large" | "Upload failed",
    message: string,
  ) {
    super(message);
    this.name = "UploadError";
  }
}

export function invalidType(kind: UploadKind) {
  return new UploadError(400, "Invalid file type", KINDS[kind].invalid);
}

export function tooLarge(kind: UploadKind) {
  return new UploadError(413, "File too large", KINDS[kind].tooLarge);
}

export function maxBytesFor(kind: UploadKind) {
  return KINDS[kind].maxBytes;
}

/**
 * Reads a byte stream into memory, never holding more than `limit` bytes. Over the limit it
 * throws `onTooLarge()` (after discarding at most DRAIN_LIMIT further bytes, see above).
 */
export async function readStreamWithLimit(
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
  onTooLarge: () => Error,
  drainLimit = DRAIN_LIMIT,
): Promise<Buffer> {
  if (!stream) return Buffer.alloc(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        chunks.length = 0; // drop what we held; from here on bytes are only counted
        while (total <= drainLimit) {
          const next = await reader.read();
          if (next.done) break;
          total += next.value.byteLength;
        }
        throw onTooLarge();
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks, total);
}

/** 'jpeg' | 'png' | 'webp' from the first bytes, or null. */
export function sniffImageType(bytes: Uint8Array): "jpeg" | "png" | "webp" | null {
  const b = bytes;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  ) {
    return "png";
  }
  if (
    b.length >= 12 &&
    Buffer.from(b.subarray(0, 4)).toString("latin1") === "RIFF" &&
    Buffer.from(b.subarray(8, 12)).toString("latin1") === "WEBP"
  ) {
    return "webp";
  }
  return null;
}

/** A PDF starts with `%PDF-` (ISO 32000). */
export function isPdf(bytes: Uint8Array) {
  return bytes.length >= 5 && Buffer.from(bytes.subarray(0, 5)).toString("latin1") === "%PDF-";
}

/** Checks a PDF by content and size; returns the bytes unchanged. */
export function checkPdf(bytes: Buffer): Buffer {
  if (bytes.length > MAX_PDF_BYTES) throw tooLarge("pdf");
  if (!isPdf(bytes)) throw invalidType("pdf");
  return bytes;
}

/**
 * Checks an image by content (JPEG, PNG or WEBP, decodable) and re-encodes it: EXIF orientation
 * applied, metadata stripped, fitted inside 1200x630 (never enlarged), WEBP at quality 85.
 */
export async function processImage(
  bytes: Buffer,
  bounds: { width: number; height: number } = IMAGE_BOUNDS,
): Promise<Buffer> {
  if (bytes.length > MAX_IMAGE_BYTES) throw tooLarge("image");
  if (!sniffImageType(bytes)) throw invalidType("image");
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" });
    const { format } = await image.metadata();
    if (format !== "jpeg" && format !== "png" && format !== "webp") throw invalidType("image");
    return await image
      .rotate()
      .resize(bounds.width, bounds.height, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: IMAGE_QUALITY })
      .toBuffer();
  } catch (error) {
    if (error instanceof UploadError) throw error;
    // Undecodable, truncated or over the pixel limit: not an image we accept.
    throw invalidType("image");
  }
}

export type StoredUpload = { key: string; url: string; size: number; contentType: string };

export type UploadSource = Request | ReadableStream<Uint8Array> | Uint8Array | Blob;

/** The bytes of an upload source, with the size cap of its kind enforced while reading. */
export async function readUpload(kind: UploadKind, source: UploadSource): Promise<Buffer> {
  const limit = KINDS[kind].maxBytes;
  if (source instanceof Uint8Array) {
    if (source.byteLength > limit) throw tooLarge(kind);
    return Buffer.from(source);
  }
  if (source instanceof Blob) {
    if (source.size > limit) throw tooLarge(kind);
    return Buffer.from(await source.arrayBuffer());
  }
  if (!(source instanceof Request)) {
    return readStreamWithLimit(source, limit, () => tooLarge(kind));
  }
  const contentType = source.headers.get("content-type") ?? "";
  const multipart = contentType.toLowerCase().startsWith("multipart/form-data");
  const bodyLimit = multipart ? limit + MULTIPART_OVERHEAD : limit;
  const declared = Number(source.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > bodyLimit) {
    // Refuse before reading; drain what is small enough to drain so the client sees the answer.
    if (declared <= DRAIN_LIMIT) {
      await readStreamWithLimit(source.body, bodyLimit, () => tooLarge(kind)).catch(() => {});
    }
    throw tooLarge(kind);
  }
  const body = await readStreamWithLimit(source.body, bodyLimit, () => tooLarge(kind));
  if (!multipart) return body;
  // The envelope is bounded by bodyLimit, so parsing it in memory is bounded too.
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), {
      headers: { "content-type": contentType },
    }).formData();
  } catch {
    throw new UploadError(400, "Upload failed", "The upload could not be read. Please try again.");
  }
  const file = form.get("file");
  if (!(file instanceof Blob) || file.size === 0) {
    throw new UploadError(400, "Upload failed", "No file was received. Please try again.");
  }
  if (file.size > limit) throw tooLarge(kind);
  return Buffer.from(await file.arrayBuffer());
}

/**
 * Checks, re-encodes (images) and stores one upload; returns its key and public URL.
 * `source` may be a Request (raw body, or multipart/form-data with a `file` field), a byte
 * stream, bytes or a Blob/File. Throws UploadError for refused input.
 */
export async function storeUpload(
  kind: UploadKind,
  source: UploadSource,
  options: { bounds?: { width: number; height: number } } = {},
): Promise<StoredUpload> {
  const bytes = await readUpload(kind, source);
  const body = kind === "image" ? await processImage(bytes, options.bounds) : checkPdf(bytes);
  const extension = kind === "image" ? "webp" : "pdf";
  const contentType = kind === "image" ? "image/webp" : "application/pdf";
  const key = randomKey(KINDS[kind].folder, extension);
  await getStorage().put(key, body, contentType);
  return { key, url: publicUrl(key), size: body.length, contentType };
}
