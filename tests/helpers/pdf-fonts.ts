// What a PDF's fonts are, read two ways: a small reader of the file's object dictionaries (no
// tool needed: pdfkit writes dictionaries as plain text and never packs them into object streams),
// and poppler's `pdffonts` / `pdftotext` where the machine has them (CI installs poppler-utils).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export type PdfFont = { name: string; subtype: string; embedded: boolean; subset: boolean };

/** The indirect objects of a PDF: number → the text before its stream (its dictionary). */
function objects(bytes: Uint8Array) {
  const text = Buffer.from(bytes).toString("latin1");
  const found = new Map<number, string>();
  for (const match of text.matchAll(/(?:^|\s)(\d+) 0 obj\b/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const ends = [text.indexOf("endobj", start), text.indexOf("stream", start)].filter(
      (i) => i >= 0,
    );
    found.set(Number(match[1]), text.slice(start, Math.min(...ends)));
  }
  return found;
}

const ref = (dictionary: string, key: string) => {
  const match = new RegExp(`/${key}\\s*\\[?\\s*(\\d+) 0 R`).exec(dictionary);
  return match ? Number(match[1]) : null;
};

/** Every font dictionary in the file, with whether its glyphs are embedded and subset. */
export function readPdfFonts(bytes: Uint8Array): PdfFont[] {
  const all = objects(bytes);
  const fonts: PdfFont[] = [];
  for (const dictionary of all.values()) {
    if (!/\/Type\s*\/Font\b/.test(dictionary)) continue;
    const subtype = /\/Subtype\s*\/(\w+)/.exec(dictionary)?.[1] ?? "";
    if (subtype.startsWith("CIDFontType")) continue; // read through its Type0 parent below
    const name = /\/BaseFont\s*\/([^\s/<>[\]]+)/.exec(dictionary)?.[1] ?? "";
    const descendant = ref(dictionary, "DescendantFonts");
    const owner = descendant !== null ? (all.get(descendant) ?? "") : dictionary;
    const descriptorId = ref(owner, "FontDescriptor");
    const descriptor = descriptorId !== null ? (all.get(descriptorId) ?? "") : "";
    fonts.push({
      name,
      subtype,
      embedded: /\/FontFile[23]?\s+\d+ 0 R/.test(descriptor),
      subset: /^[A-Z]{6}\+/.test(name),
    });
  }
  return fonts;
}

/** The catalog's dictionary and the document information dictionary, as text. */
export function readPdfCatalog(bytes: Uint8Array) {
  const all = objects(bytes);
  const catalog = [...all.values()].find((d) => /\/Type\s*\/Catalog\b/.test(d)) ?? "";
  const viewerPreferences = ref(catalog, "ViewerPreferences");
  const markInfo = ref(catalog, "MarkInfo");
  return {
    catalog,
    viewerPreferences: viewerPreferences !== null ? (all.get(viewerPreferences) ?? "") : "",
    markInfo: markInfo !== null ? (all.get(markInfo) ?? "") : "",
  };
}

function hasTool(tool: string) {
  try {
    execFileSync(tool, ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Runs a poppler tool on the bytes; null when poppler-utils is not installed. */
export function poppler(tool: "pdffonts" | "pdftotext", bytes: Uint8Array): string | null {
  if (!hasTool(tool)) return null;
  const dir = mkdtempSync(path.join(tmpdir(), "pdf-"));
  try {
    const file = path.join(dir, "document.pdf");
    writeFileSync(file, bytes);
    const args = tool === "pdftotext" ? ["-enc", "UTF-8", file, "-"] : [file];
    return execFileSync(tool, args, { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
