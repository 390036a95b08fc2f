import { PDFDocument as EditablePdf, PDFHexString, PDFName, PDFString } from "@cantoo/pdf-lib";
import PDFDocument from "pdfkit";
import sharp from "sharp";
import { PLAIN_TEXT, printable, registerFonts } from "../../app/lib/pdf/fonts.server";

/** A paragraph of plausible manuscript text that names nobody (about 600 letters). */
export const NEUTRAL_BODY =
  "Records management in public registries depends on retention schedules that few offices apply " +
  "consistently. We surveyed forty county registries and compared their disposal decisions with the " +
  "national schedule. Most registries kept files far beyond their retention period, while a minority " +
  "destroyed records that the schedule requires them to keep. We discuss why training, storage costs " +
  "and unclear ownership explain both patterns, and we propose a checklist that registry staff can " +
  "apply without specialist help. The checklist was tested in three registries over six months.";

type ManuscriptOptions = {
  /** Text on the pages (default: NEUTRAL_BODY twice). */
  body?: string;
  /** Document information entries (pdfkit's `info`). */
  info?: Partial<
    Record<"Title" | "Author" | "Subject" | "Keywords" | "Creator" | "Producer", string>
  >;
  /** Password needed to open the file. */
  userPassword?: string;
  /** Password that only restricts editing (anyone may open the file). */
  ownerPassword?: string;
};

/** A text PDF as a word processor would export it, written by pdfkit in embedded Noto Sans. */
export function makeManuscriptPdf(options: ManuscriptOptions = {}): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    info: options.info ?? {},
    userPassword: options.userPassword,
    ownerPassword: options.ownerPassword,
    pdfVersion: options.userPassword || options.ownerPassword ? "1.7" : undefined,
  });
  registerFonts(doc);
  doc.font("Body").fontSize(11);
  doc.text(printable(options.body ?? `${NEUTRAL_BODY}\n\n${NEUTRAL_BODY}`), PLAIN_TEXT);
  return collect(doc);
}

/** A "scanned" PDF: one page that is only an image, no text. */
export async function makeScannedPdf(): Promise<Buffer> {
  const image = await sharp({
    create: { width: 200, height: 280, channels: 3, background: { r: 240, g: 240, b: 230 } },
  })
    .png()
    .toBuffer();
  const doc = new PDFDocument({ size: "A4", info: { Creator: "Scanner 3000" } });
  doc.image(image, 50, 50, { width: 495 });
  return collect(doc);
}

function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.end();
  });
}

/** An XMP packet naming the author, as Word and LaTeX (hyperxmp) write them. */
export function xmpPacket(author: string, title: string) {
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
<dc:creator><rdf:Seq><rdf:li>${author}</rdf:li></rdf:Seq></dc:creator>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${title}</rdf:li></rdf:Alt></dc:title>
<pdf:Producer>${author}'s word processor</pdf:Producer>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`;
}

/**
 * Adds what real manuscripts carry besides the document information: an XMP stream on the
 * catalog and on the first page, application data (PieceInfo), a comment signed by its author,
 * and an incremental update whose earlier revision still holds the old information dictionary.
 */
export async function addIdentifyingMetadata(pdf: Uint8Array, author: string): Promise<Uint8Array> {
  const document = await EditablePdf.load(pdf, { updateMetadata: false });
  const { context } = document;
  const xmp = (text: string) =>
    context.register(
      context.stream(new TextEncoder().encode(text), {
        Type: "Metadata",
        Subtype: "XML",
      }),
    );
  document.catalog.set(PDFName.of("Metadata"), xmp(xmpPacket(author, "A study")));
  const page = document.getPage(0);
  page.node.set(PDFName.of("Metadata"), xmp(xmpPacket(author, "Page one")));
  page.node.set(
    PDFName.of("PieceInfo"),
    context.obj({ Word: { Private: PDFHexString.fromText(`Last edited by ${author}`) } }),
  );
  const comment = context.obj({
    Type: "Annot",
    Subtype: "Text",
    Rect: [40, 40, 60, 60],
    T: PDFHexString.fromText(author),
    Contents: PDFString.of("Check this paragraph"),
  });
  page.node.set(PDFName.of("Annots"), context.obj([context.register(comment)]));
  const saved = await document.save({ useObjectStreams: false });

  // An incremental update (as Acrobat saves): a new Info object; the old one stays in the file.
  const revised = await EditablePdf.load(saved, {
    forIncrementalUpdate: true,
    updateMetadata: false,
  });
  const snapshot = revised.takeSnapshot();
  const newInfo = revised.context.obj({
    Title: PDFString.of("Revised"),
    Author: PDFString.of("Anonymous"),
  });
  revised.context.trailerInfo.Info = revised.context.register(newInfo);
  const increment = await revised.saveIncremental(snapshot);
  const result = new Uint8Array(saved.byteLength + increment.byteLength);
  result.set(saved);
  result.set(increment, saved.byteLength);
  return result;
}

/**
 * Every string a PDF holds outside its page content, as text: each dictionary's strings (decoded
 * from PDFDocEncoding or UTF-16) and names, and each stream's decoded bytes except the pages'
 * content streams (which draw glyph ids, not names). What a metadata reader could find.
 */
export async function pdfObjectsText(pdf: Uint8Array): Promise<string> {
  const lib = await import("@cantoo/pdf-lib");
  const document = await EditablePdf.load(pdf, { updateMetadata: false });
  const contents = new Set(
    document.getPages().flatMap((page) => {
      const entry = page.node.get(PDFName.of("Contents"));
      if (entry instanceof lib.PDFArray) return entry.asArray().map(String);
      return entry ? [entry.toString()] : [];
    }),
  );
  const parts: string[] = [];
  const walk = (object: unknown): void => {
    if (object instanceof lib.PDFString || object instanceof lib.PDFHexString) {
      parts.push(object.decodeText());
    } else if (object instanceof lib.PDFName) {
      parts.push(object.decodeText());
    } else if (object instanceof lib.PDFArray) {
      for (const item of object.asArray()) walk(item);
    } else if (object instanceof lib.PDFDict) {
      for (const [key, value] of object.entries()) {
        walk(key);
        walk(value);
      }
    }
  };
  for (const [ref, object] of document.context.enumerateIndirectObjects()) {
    if (object instanceof lib.PDFRawStream) {
      walk(object.dict);
      if (contents.has(ref.toString())) continue;
      try {
        const bytes = Buffer.from(lib.decodePDFRawStream(object).decode());
        parts.push(bytes.toString("latin1"), bytes.toString("utf8"));
      } catch {
        // An image or font filter pdf-lib does not decode: not where names are kept.
      }
    } else {
      walk(object);
    }
  }
  return parts.join("\n");
}
