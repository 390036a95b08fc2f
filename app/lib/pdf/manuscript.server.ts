import { extractText, getDocumentProxy } from "unpdf";
import { isPdf } from "../uploads.server";

/**
 * A call for papers' manuscripts (issue 32, decision 0109): the guidelines on /papers ask for one
 * text-based PDF of at most 10 MB. The server reads its text (a scan without text is refused, and
 * the text is searched for the authors' names before a double-blind submission), and reviewers get
 * a copy without the document information and XMP metadata, under a neutral name.
 */

export const MAX_MANUSCRIPT_BYTES = 10 * 1024 * 1024;
/** Fewer letters than this in the whole file: a scan (or an image export), not a text PDF. */
export const MIN_MANUSCRIPT_LETTERS = 200;

export const MANUSCRIPT_MESSAGES = {
  notPdf: "Please upload your manuscript as a PDF file",
  tooLarge: "Please upload a PDF of at most 10 MB",
  unreadable: "This PDF could not be read. Please export it again from your word processor",
  protected: "This PDF is password-protected. Please upload it without a password",
  noText:
    "This PDF has no text we can read (a scanned document?). Please upload a text-based PDF exported from your word processor",
} as const;

/** A manuscript the site refuses; `message` is what the form shows on the file field. */
export class ManuscriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ManuscriptError";
  }
}

export type ManuscriptText = { pageCount: number; text: string };

/**
 * The text of a manuscript, after checking that it is a PDF of at most 10 MB with readable text.
 * Throws a ManuscriptError with the message for the form otherwise.
 */
export async function readManuscript(bytes: Uint8Array): Promise<ManuscriptText> {
  if (bytes.byteLength > MAX_MANUSCRIPT_BYTES)
    throw new ManuscriptError(MANUSCRIPT_MESSAGES.tooLarge);
  if (!isPdf(bytes)) throw new ManuscriptError(MANUSCRIPT_MESSAGES.notPdf);
  let pageCount: number;
  let text: string;
  try {
    // A copy: PDF.js transfers (detaches) the buffer it is given.
    const pdf = await getDocumentProxy(new Uint8Array(bytes), {
      isEvalSupported: false,
      verbosity: 0,
    });
    try {
      pageCount = pdf.numPages;
      text = (await extractText(pdf, { mergePages: true })).text;
    } finally {
      await pdf.destroy();
    }
  } catch (error) {
    if (error instanceof Error && error.name === "PasswordException") {
      throw new ManuscriptError(MANUSCRIPT_MESSAGES.protected);
    }
    throw new ManuscriptError(MANUSCRIPT_MESSAGES.unreadable);
  }
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters < MIN_MANUSCRIPT_LETTERS) throw new ManuscriptError(MANUSCRIPT_MESSAGES.noText);
  return { pageCount, text };
}

/* ------------------------------------------------------------------------------------------ */
/* Author names in the text (the double-blind warning)                                        */
/* ------------------------------------------------------------------------------------------ */

/** Letters that Unicode does not decompose into a base letter and a mark. */
const FOLD: Record<string, string> = {
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ı: "i",
};

/** Lower-case words without diacritics, separated by single spaces ("Ngũgĩ-Wa Thiong'o" → "ngugi wa thiong o"). */
export function foldForSearch(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[øłđðþßæœı]/g, (char) => FOLD[char] ?? char)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The ways a name is written in a paper: in full, first and last, surname first, with initials. */
function nameForms(name: string): string[] {
  const words = foldForSearch(name);
  if (words.length === 0) return [];
  if (words.length === 1) return words[0].length >= 3 ? [words[0]] : [];
  const first = words[0];
  const last = words[words.length - 1];
  const middle = words.slice(1, -1);
  const initials = words.slice(0, -1).map((word) => word[0]);
  const forms = [
    words.join(" "),
    `${first} ${last}`,
    `${last} ${first}`,
    `${last} ${words.slice(0, -1).join(" ")}`,
    `${first[0]} ${last}`,
    `${initials.join(" ")} ${last}`,
    `${last} ${first[0]}`,
    `${last} ${initials.join(" ")}`,
  ];
  if (middle.length > 0) forms.push(`${first} ${middle.map((word) => word[0]).join(" ")} ${last}`);
  return [...new Set(forms)];
}

/**
 * The authors' names (as given) that the manuscript's text mentions, ignoring case and diacritics
 * and matching whole words: "Wanjirũ Ngũgĩ" is found as "WANJIRU NGUGI", "Ngugi, Wanjiru" and
 * "W. Ngugi", not inside "Ngugino". E-mail addresses and ORCID iDs are looked for too.
 */
export function findAuthorMentions(
  text: string,
  authors: ReadonlyArray<{ name: string; email?: string | null; orcid?: string | null }>,
): string[] {
  const haystack = ` ${foldForSearch(text).join(" ")} `;
  const compact = text.toLowerCase().replace(/\s+/g, "");
  const found: string[] = [];
  for (const author of authors) {
    const byName = nameForms(author.name).some((form) => haystack.includes(` ${form} `));
    const byEmail = !!author.email && compact.includes(author.email.trim().toLowerCase());
    const orcidDigits = author.orcid?.replace(/[^\dX]/gi, "").toLowerCase();
    const byOrcid =
      !!orcidDigits && orcidDigits.length === 16 && compact.replace(/-/g, "").includes(orcidDigits);
    if ((byName || byEmail || byOrcid) && !found.includes(author.name)) found.push(author.name);
  }
  return found;
}

/* ------------------------------------------------------------------------------------------ */
/* The reviewer copy                                                                           */
/* ------------------------------------------------------------------------------------------ */

/**
 * The manuscript as a reviewer downloads it (reviewer-copy.server.ts strips it). pdf-lib is loaded
 * on the first call: every module that reaches the models (and every test file) would otherwise
 * pay for parsing it at start-up.
 */
export async function anonymiseManuscript(bytes: Uint8Array): Promise<Uint8Array> {
  const { stripReviewerCopy } = await import("./reviewer-copy.server");
  try {
    return await stripReviewerCopy(bytes);
  } catch {
    // A file pdf-lib cannot take apart is refused, never served as it came.
    throw new ManuscriptError(MANUSCRIPT_MESSAGES.unreadable);
  }
}

/** The neutral file name of a submission's reviewer copy: `submission-<first 8 of its id>.pdf`. */
export function reviewerCopyFileName(submissionId: string): string {
  const short = submissionId
    .replace(/[^a-zA-Z0-9]/g, "")
    .slice(0, 8)
    .toLowerCase();
  return `submission-${short || "paper"}.pdf`;
}

/** The reviewer copy as a download: neutral name, never cached or sniffed, no referrer. */
export function reviewerCopyResponse(pdf: Uint8Array, submissionId: string): Response {
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.byteLength),
      "Content-Disposition": `attachment; filename="${reviewerCopyFileName(submissionId)}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
    },
  });
}
