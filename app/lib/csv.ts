/**
 * The one CSV writer of every export, for spreadsheet users (RFC 4180): a UTF-8 byte-order mark
 * first (Excel otherwise reads "Wanjirũ" as Windows-1252), every field quoted with inner quotes
 * doubled, each record ended by CRLF. Cells that a spreadsheet would run as a formula (= + - @,
 * and tab/CR that some programs strip before them) get a leading single quote (OWASP "CSV
 * injection"). Headers follow the spec's words ("Email", as in its user table).
 */
export type CsvValue = string | number | boolean | Date | null | undefined;

/** Written once, before the header. */
export const CSV_BOM = "\uFEFF";

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvValue): string {
  let text: string;
  if (value === null || value === undefined) text = "";
  else if (value instanceof Date) text = value.toISOString();
  else text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** One record with its CRLF. */
export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

/** The start of a file: the byte-order mark and the header record (streamed exports go on with csvRecord). */
export function csvStart(header: readonly string[]): string {
  return `${CSV_BOM}${csvRecord(header)}`;
}

/** A whole file: byte-order mark, header, one record per row. */
export function csvDocument(header: readonly string[], rows: readonly (readonly CsvValue[])[]) {
  return csvStart(header) + rows.map(csvRecord).join("");
}

/** The download response of an export: never cached, never sniffed, saved as `filename`. */
export function csvResponse(body: string | ReadableStream<Uint8Array>, filename: string) {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename.replace(/[^\w.-]+/g, "-")}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/**
 * The one CSV reader (uploads such as the M-Pesa statement): RFC 4180 records with quoted fields,
 * doubled quotes, CRLF or LF line ends and a leading byte-order mark; blank lines are left out.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const body = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && body[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((cell) => cell.trim() !== ""));
}
