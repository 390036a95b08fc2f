/**
 * A small, valid one-page PDF (PDF 1.4, Helvetica, correct cross-reference table) showing a
 * paper's title, authors and abstract. Demo content only: real papers are uploaded files.
 */
export function buildPaperPdf(paper: { title: string; authors: string[]; abstract: string }) {
  const lines: { size: number; text: string }[] = [
    ...wrap(paper.title, 60).map((text) => ({ size: 18, text })),
    { size: 11, text: "" },
    ...wrap(paper.authors.join(", "), 90).map((text) => ({ size: 11, text })),
    { size: 11, text: "" },
    { size: 13, text: "Abstract" },
    ...wrap(paper.abstract, 90).map((text) => ({ size: 11, text })),
    { size: 11, text: "" },
    { size: 9, text: "Kongamano Research Papers Library - demo document" },
  ];
  let y = 770;
  const operations = lines.map(({ size, text }) => {
    const op = `BT /F1 ${size} Tf 56 ${y} Td (${escapePdfText(text)}) Tj ET`;
    y -= size + 8;
    return op;
  });
  const stream = operations.join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Title (${escapePdfText(paper.title)}) /Author (${escapePdfText(paper.authors.join(", "))}) /Producer (Kongamano) >>`,
  ];
  let body = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** ASCII only (accents stripped), with PDF string delimiters escaped. */
function escapePdfText(text: string) {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7E]/g, "?")
    .replace(/[\\()]/g, (c) => `\\${c}`);
}

function wrap(text: string, width: number) {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      out.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) out.push(line);
  return out;
}
