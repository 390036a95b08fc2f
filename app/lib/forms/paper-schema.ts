import { z } from "zod";
import { PAPER_STATUSES } from "~/lib/constants";

/**
 * The paper form (spec §5 'Paper'): title required; authors entered comma-separated, trimmed,
 * empty entries dropped, at least one; status draft (default), under review or published;
 * tags editable (design.md §4); the PDF is an upload (checked again on the server by its
 * content, at most 20 MB) or an external link.
 */
export const MAX_PDF_BYTES = 20 * 1024 * 1024;
export const PDF_TOO_LARGE = "Please upload a PDF smaller than 20MB";
export const PDF_INVALID = "Please upload a PDF file";

/** 'Ada Lovelace, , Alan Turing ' → ['Ada Lovelace', 'Alan Turing'] */
export function parseAuthors(value: string) {
  return value
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
}

/** Tags arrive as repeated fields (the tags input) or one comma-separated text (no JavaScript). */
export function parseTags(value: unknown): string[] {
  const raw = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  const tags: string[] = [];
  for (const item of raw) {
    if (typeof item !== "string") continue;
    for (const tag of item.split(",")) {
      const trimmed = tag.trim();
      if (trimmed && !tags.includes(trimmed)) tags.push(trimmed);
    }
  }
  return tags;
}

/** Our own stored files (`/uploads/pdfs/...`) or a web address. */
export function isAcceptablePdfUrl(value: string) {
  if (/^\/uploads\/[a-z0-9-]+\/[A-Za-z0-9_-]+\.pdf$/.test(value)) return true;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((v) => v || null);

export const PaperFormSchema = z.object({
  title: z
    .string({ error: "Title is required" })
    .trim()
    .min(1, "Title is required")
    .max(300, "Title must be at most 300 characters"),
  authors: z
    .string({ error: "At least one author is required" })
    .transform(parseAuthors)
    .pipe(z.array(z.string()).min(1, "At least one author is required")),
  abstract: optionalText(20_000, "Abstract"),
  category: optionalText(100, "Category"),
  tags: z
    .union([z.string(), z.array(z.string().optional())])
    .optional()
    .transform(parseTags)
    .pipe(z.array(z.string().max(50, "Tags must be at most 50 characters"))),
  status: z.enum(PAPER_STATUSES, { error: "Please choose a valid status" }).default("draft"),
  publishedDate: z.iso
    .date({ error: "Please enter a valid date" })
    .optional()
    .transform((v) => v ?? null),
  pdfUrl: z
    .string()
    .trim()
    .refine(isAcceptablePdfUrl, "Please enter a valid URL starting with http:// or https://")
    .optional()
    .transform((v) => v ?? null),
  /** A new PDF to store; replaces pdfUrl. Checked by size here, by content on the server. */
  pdfFile: z
    .instanceof(File, { error: PDF_INVALID })
    .refine((f) => f.size <= MAX_PDF_BYTES, PDF_TOO_LARGE)
    .optional(),
});

export type PaperFormValues = z.output<typeof PaperFormSchema>;
