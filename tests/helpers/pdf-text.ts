import { extractText, getDocumentProxy } from "unpdf";

/** The text of a PDF (all pages, one string), to assert what a document says. */
export async function pdfText(bytes: Uint8Array | Buffer): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}
