// The reviewer copy of a manuscript (issue 32, decision 0109), loaded on demand by
// anonymiseManuscript (manuscript.server.ts), which turns any failure into the form's message.
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFObject,
  PDFRef,
  PDFStream,
} from "@cantoo/pdf-lib";

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
 * revisions of an incrementally saved file). Pages, text and fonts are unchanged. Throws when pdf-lib cannot take the file apart.
 */
export async function stripReviewerCopy(bytes: Uint8Array): Promise<Uint8Array> {
  // The empty password opens files that are only protected against editing or printing.
  const document = await PDFDocument.load(bytes, { updateMetadata: false, password: "" });
  if (!(document.catalog instanceof PDFDict)) throw new Error("no catalog");
  stripIdentity(document);
  return await document.save({
    rewrite: true,
    updateFieldAppearances: false,
    addDefaultPage: false,
  });
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
