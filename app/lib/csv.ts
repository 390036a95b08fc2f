/**
 * CSV for spreadsheet users (RFC 4180): every field quoted, inner quotes doubled; callers end
 * each record with CRLF. Cells that a spreadsheet would run as a formula (= + - @, and tab/CR that some
 * programs strip before them) get a leading single quote (OWASP "CSV injection").
 */
export type CsvValue = string | number | boolean | Date | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvValue): string {
  let text: string;
  if (value === null || value === undefined) text = "";
  else if (value instanceof Date) text = value.toISOString();
  else text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvRow(values: readonly CsvValue[]): string {
  return values.map(csvCell).join(",");
}
