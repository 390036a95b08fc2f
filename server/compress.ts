import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * The two stored encodings of a text body, at their best levels (brotli 11, gzip -9), made on
 * the thread pool: build-time assets (decision 0035) and page-cache entries (decision 0036).
 */
export async function compressForStorage(content: Buffer) {
  const [br, gzipped] = await Promise.all([
    brotli(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    gz(content, { level: 9 }),
  ]);
  return { br, gzip: gzipped };
}

/**
 * Brotli for what is compressed per request (uncached documents, data, streamed pages):
 * quality 1 and a 64 KB window (decision 0068, superseding 0066's quality 2). Brotli's default
 * 4 MB window is memory Node reports to V8 for every response; under load that alone set off a
 * full garbage collection every few requests and halved the throughput of uncached pages.
 */
export const PER_REQUEST_BROTLI_PARAMS = {
  [constants.BROTLI_PARAM_QUALITY]: 1,
  [constants.BROTLI_PARAM_LGWIN]: 16,
  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
};

/** Media types worth compressing (the rest are already compressed: images, PDFs, fonts). */
const COMPRESSIBLE = /^(text\/|application\/([\w.+-]+\+)?(json|xml|javascript)\b|image\/svg\+xml)/;

export function isCompressible(contentType: string | undefined) {
  return contentType !== undefined && COMPRESSIBLE.test(contentType);
}

/**
 * A whole body made for one response, compressed in one call on the thread pool (decision
 * 0068) rather than fed chunk by chunk through a compression stream.
 */
export function compressPerRequest(body: Buffer, encoding: "br" | "gzip") {
  return encoding === "br"
    ? brotli(body, {
        params: { ...PER_REQUEST_BROTLI_PARAMS, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      })
    : gz(body);
}
