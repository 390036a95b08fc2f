import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFObject,
  PDFRef,
  PDFStream,
} from "@cantoo/pdf-lib";
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

const METADATA = PDFName.of("Metadata");
const PIECE_INFO = PDFName.of("PieceInfo");
const TYPE = PDFName.of("Type");
const SUBTYPE = PDFName.of("Subtype");
const ANNOT = PDFName.of("Annot");
const WIDGET = PDFName.of("Widget");
const TITLE_ENTRY = PDFName.of("T");
const NAMES = PDFName.of("Names");
const EMBEDDED_FILES = PDFName.of("EmbeddedFiles");
const ASSOCIATED_FILES = PDFName.of("AF");

/**
 * The manuscript as a reviewer downloads it: the document information dictionary (Author, Creator,
 * Producer, Title, Subject, Keywords, dates) and every XMP metadata stream are gone, as are the
 * applications' private data (PieceInfo), the names on comments (an annotation's /T), attached
 * files, the file identifier, and every object that no longer belongs to the document (earlier
 * revisions of an incrementally saved file). Pages, text and fonts are unchanged.
 */
export async function anonymiseManuscript(bytes: Uint8Array): Promise<Uint8Array> {
  try {
    // The empty password opens files that are only protected against editing or printing.
    const document = await PDFDocument.load(bytes, { updateMetadata: false, password: "" });
    if (!(document.catalog instanceof PDFDict)) throw new Error("no catalog");
    stripIdentity(document);
    return await document.save({
      rewrite: true,
      updateFieldAppearances: false,
      addDefaultPage: false,
    });
  } catch {
    // A file pdf-lib cannot take apart is refused, never served as it came.
    throw new ManuscriptError(MANUSCRIPT_MESSAGES.unreadable);
  }
}

function stripIdentity(document: PDFDocument) {
  const { context } = document;

  const info = context.trailerInfo.Info;
  if (info instanceof PDFRef) context.delete(info);
  context.trailerInfo.Info = undefined;
  context.trailerInfo.ID = undefined;

  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const dict = object instanceof PDFStream ? object.dict : object;
    if (dict instanceof PDFDict && dict.get(TYPE) === METADATA) context.delete(ref);
    else scrub(object);
  }
  const names = document.catalog.lookup(NAMES);
  if (names instanceof PDFDict) names.delete(EMBEDDED_FILES);
  document.catalog.delete(ASSOCIATED_FILES);

  deleteUnreachable(document);
}

/** Removes the identifying entries from an object and the direct objects inside it. */
function scrub(object: PDFObject | undefined) {
  if (object instanceof PDFStream) {
    scrub(object.dict);
  } else if (object instanceof PDFArray) {
    for (const item of object.asArray()) scrub(item);
  } else if (object instanceof PDFDict) {
    object.delete(METADATA);
    object.delete(PIECE_INFO);
    // A comment's /T is its author; a form field's /T (on a widget) is the field's name.
    if (object.get(TYPE) === ANNOT && object.get(SUBTYPE) !== WIDGET) object.delete(TITLE_ENTRY);
    for (const value of object.values()) scrub(value);
  }
}

/** Deletes every indirect object that the trailer's /Root does not lead to. */
function deleteUnreachable(document: PDFDocument) {
  const { context } = document;
  const reachable = new Set<PDFRef>();
  const pending: PDFObject[] = context.trailerInfo.Root ? [context.trailerInfo.Root] : [];
  while (pending.length > 0) {
    const object = pending.pop();
    if (object instanceof PDFRef) {
      if (reachable.has(object)) continue;
      reachable.add(object);
      const target = context.lookup(object);
      if (target) pending.push(target);
    } else if (object instanceof PDFStream) {
      pending.push(object.dict);
    } else if (object instanceof PDFArray) {
      pending.push(...object.asArray());
    } else if (object instanceof PDFDict) {
      pending.push(...object.values());
    }
  }
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (!reachable.has(ref)) context.delete(ref);
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
