// The documents' typeface (decision 0083): Noto Sans Regular and Bold from a kept package, embedded
// as subsets (pdfkit keeps only the glyphs used), so every name prints as typed: "Wanjirũ", "Ngũgĩ",
// "Nyamweya–Ogot". The files are read once per process.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

// Resolved like an import: the built server reads the files from node_modules, as pdfkit does.
const resolveFrom = createRequire(import.meta.url);

const FILES = {
  Body: "@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf",
  Bold: "@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf",
} as const;

export type FontName = keyof typeof FILES;

let loaded: Record<FontName, Buffer> | undefined;

function fontBytes() {
  loaded ??= {
    Body: readFileSync(resolveFrom.resolve(FILES.Body)),
    Bold: readFileSync(resolveFrom.resolve(FILES.Bold)),
  };
  return loaded;
}

/** Makes "Body" and "Bold" available to `doc.font(...)`. */
export function registerFonts(doc: PDFKit.PDFDocument) {
  const bytes = fontBytes();
  for (const name of Object.keys(bytes) as FontName[]) doc.registerFont(name, bytes[name]);
}

/**
 * Characters Noto Sans has no glyph for, and what prints instead. The arrow of "Lipa na M-Pesa →
 * Paybill" (U+2192) lives in Noto Sans Symbols, not Noto Sans; "›" reads the same on a menu path.
 */
const SUBSTITUTES: Record<string, string> = { "→": "›" };
const MISSING = new RegExp(`[${Object.keys(SUBSTITUTES).join("")}]`, "gu");

/** The text as the embedded font can print it: composed accents (NFC), substitutes for the rest. */
export function printable(text: string) {
  return text.normalize("NFC").replace(MISSING, (character) => SUBSTITUTES[character]);
}

/**
 * Text is set glyph by glyph, without OpenType shaping (kerning, ligatures, mark positioning):
 * fontkit's shaping of Noto Sans's large GPOS table took about 15 ms a line and half a second per
 * document, for no gain in Latin text whose accents come precomposed (NFC, above).
 */
export const PLAIN_TEXT = {
  features: Object.fromEntries(
    ["ccmp", "locl", "mark", "mkmk", "kern", "liga", "clig", "calt", "rlig"].map((f) => [f, false]),
  ),
} as unknown as PDFKit.Mixins.TextOptions;
