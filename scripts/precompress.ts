/**
 * Build-time compression of the client assets (decision 0035): every text asset gets a brotli
 * copy at quality 11 (`.br`) and a gzip -9 copy (`.gz`) beside it, so the server sends stored
 * bytes and never compresses an asset per request. Binary formats that are compressed already
 * (fonts, images) are left alone, as is any file whose copy would not be smaller.
 */
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Plugin } from "vite";
import { compressForStorage } from "../server/compress";

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/;

/** Writes `.br` and `.gz` beside every compressible file under `dir`; returns how many files. */
export async function precompressDirectory(dir: string): Promise<number> {
  const files: string[] = [];
  const walk = async (current: string) => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.name.startsWith(".")) continue; // .vite/manifest.json is not served
      if (entry.isDirectory()) await walk(full);
      else if (COMPRESSIBLE.test(entry.name)) files.push(full);
    }
  };
  await walk(dir);
  let written = 0;
  await Promise.all(
    files.map(async (file) => {
      const content = await readFile(file);
      const { br, gzip: gzipped } = await compressForStorage(content);
      if (br.length < content.length) await writeFile(`${file}.br`, br);
      if (gzipped.length < content.length) await writeFile(`${file}.gz`, gzipped);
      written++;
    }),
  );
  return written;
}

/** Vite plugin: precompresses the client build once it is written. */
export function precompress(): Plugin {
  let outDir: string | undefined;
  return {
    name: "kongamano:precompress",
    apply: "build",
    writeBundle(options) {
      outDir = options.dir;
    },
    async closeBundle() {
      if (!outDir || !(await stat(outDir).catch(() => undefined))) return;
      await precompressDirectory(outDir);
    },
  };
}
