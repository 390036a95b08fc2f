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
