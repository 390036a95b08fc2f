import { describe, expect, it } from "vitest";
import { CSV_BOM, csvCell, csvDocument, csvRecord, csvResponse, csvStart, parseCsv } from "./csv";

const toCsv = (header: string[], rows: string[][]) => csvDocument(header, rows).slice(1);

describe("csvCell", () => {
  it("quotes every field", () => {
    expect(csvCell("plain")).toBe('"plain"');
    expect(csvCell(42)).toBe('"42"');
    expect(csvCell(true)).toBe('"true"');
  });

  it("doubles quotes inside a field", () => {
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  });

  it("keeps commas and line breaks inside the quotes", () => {
    expect(csvCell("a,b\nc\r\nd")).toBe('"a,b\nc\r\nd"');
  });

  it("writes empty fields for null and undefined, ISO text for dates", () => {
    expect(csvCell(null)).toBe('""');
    expect(csvCell(undefined)).toBe('""');
    expect(csvCell(new Date("2026-01-02T03:04:05.000Z"))).toBe('"2026-01-02T03:04:05.000Z"');
  });

  it.each([
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ["+1+2", '"\'+1+2"'],
    ["-2+3", '"\'-2+3"'],
    ["@SUM(A1)", '"\'@SUM(A1)"'],
    ["\t=1", '"\'\t=1"'],
    ["\r=1", '"\'\r=1"'],
  ])("neutralises the formula %j", (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it("leaves numbers alone (a negative amount is data, not a formula)", () => {
    expect(csvCell(-5)).toBe('"-5"');
  });
});

describe("csvDocument", () => {
  it("starts with the UTF-8 byte-order mark, so a spreadsheet reads Wanjirũ as written", () => {
    const text = csvDocument(["Name", "Email"], [["Wanjirũ", "w@example.test"]]);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(Buffer.from(text, "utf8").subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(text.slice(1)).toBe('"Name","Email"\r\n"Wanjirũ","w@example.test"\r\n');
  });

  it("is what a streamed export writes piece by piece", () => {
    const rows = [
      ["a", "=1"],
      ["b", null],
    ] as const;
    expect(csvStart(["X", "Y"]) + rows.map(csvRecord).join("")).toBe(csvDocument(["X", "Y"], rows));
  });

  it("writes a header and rows, each ended by CRLF", () => {
    const text = toCsv(
      ["Time", "Action"],
      [
        ["t1", "user.role_change"],
        ["t2", 'a "b"'],
      ],
    );
    expect(text).toBe('"Time","Action"\r\n"t1","user.role_change"\r\n"t2","a ""b"""\r\n');
  });

  it("parses back to the same values with a standard reader", () => {
    const values = ["x,y", 'q"uote', "multi\nline", ""];
    const text = toCsv(["a", "b", "c", "d"], [values]);
    expect(parseCsv(text)).toEqual([["a", "b", "c", "d"], values]);
  });

  it("reads an upload with a byte-order mark, LF line ends and blank lines", () => {
    expect(parseCsv('\uFEFFReceipt No.,Paid In\n\nTKA1,"1,500.00"\n\n')).toEqual([
      ["Receipt No.", "Paid In"],
      ["TKA1", "1,500.00"],
    ]);
  });
});

describe("csvResponse", () => {
  it("downloads under a safe name, never cached or sniffed", async () => {
    const response = csvResponse(csvDocument(["A"], [["1"]]), 'Records "Summit"/2027.csv');
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(
      'attachment; filename="Records-Summit-2027.csv"',
    );
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    // The bytes keep their byte-order mark (Response.text() would strip it).
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });
});
