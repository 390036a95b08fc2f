// Invoice, receipt and credit note PDFs (pdfkit; decisions 0024, 0072 and 0083). The orders model
// gathers the data; nothing here reads the database. What the documents add from configuration:
// the seller (legal name, KRA PIN, VAT status) and the KES rate that lets M-Pesa pay a foreign-
// currency invoice. Text is set in embedded Noto Sans and the files are tagged (structure, title,
// language) so screen readers and text extraction read them as written.
import PDFDocument from "pdfkit";
import { ORGANISATION_NAME } from "../constants";
import { formatDate, formatDateRange } from "../format";
import { formatMinor } from "../money";
import type { PaymentInstruction } from "../payments/provider";
import { HEADQUARTERS } from "../site-content";
import { type FontName, PLAIN_TEXT, printable, registerFonts } from "./fonts.server";
import { type Seller, sellerDetails } from "./seller.server";
import { vatSplit } from "./vat";

export type DocumentParty = {
  name: string;
  email: string;
  organisationName: string | null;
  taxId: string | null;
};

export type DocumentLine = {
  description: string;
  quantity: number;
  unitAmountMinor: number;
  lineTotalMinor: number;
  /** A ticket's event: its dates print under the line. */
  event?: { startsAt: Date; endsAt: Date; timeZone: string } | null;
  /** A membership term: its dates once set (on payment), else the line says when they are set. */
  term?: { startsAt: Date | null; endsAt: Date | null } | null;
};

export type InvoiceDocument = {
  invoiceNumber: string;
  issuedAt: Date;
  dueAt: Date;
  state: string;
  buyer: DocumentParty;
  currency: string;
  lines: DocumentLine[];
  totalMinor: number;
  paidMinor: number;
  instructions: PaymentInstruction[];
};

export type ReceiptDocument = {
  receiptNumber: string;
  issuedAt: Date;
  invoiceNumber: string;
  buyer: DocumentParty;
  currency: string;
  method: string;
  reference: string;
  paidAt: Date;
  amountMinor: number;
  /** Shillings that arrived against an invoice in another currency, and the rate ("129.50 KES/USD"). */
  received?: { kesMinor: number; rateLabel: string } | null;
  totalMinor: number;
  paidMinor: number;
  lines: DocumentLine[];
};

export type CreditNoteDocument = {
  creditNoteNumber: string;
  issuedAt: Date;
  invoiceNumber: string;
  buyer: DocumentParty;
  currency: string;
  method: string;
  reference: string;
  reason: string | null;
  amountMinor: number;
  totalMinor: number;
  paidMinor: number;
  /** Refunded on the invoice up to and including this credit note. */
  refundedMinor: number;
  lines: DocumentLine[];
};

const MARGIN = 50;
const GREY = "#475569";
const PRIMARY = "#0B5FFF";
const STAMP = "#15803D";

/** One document being drawn: pdfkit's document and the structure element text is tagged under. */
type Page = { doc: PDFKit.PDFDocument; root: PDFKit.PDFStructureElement; seller: Seller };

function render(title: string, draw: (page: Page) => void): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    pdfVersion: "1.7",
    tagged: true,
    lang: "en-KE",
    displayTitle: true,
    info: { Title: title, Author: ORGANISATION_NAME, Creator: ORGANISATION_NAME },
  });
  registerFonts(doc);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const root = doc.struct("Document");
  doc.addStructure(root);
  draw({ doc, root, seller: sellerDetails() });
  root.end();
  doc.end();
  return done;
}

/** Writes text as the embedded font prints it (see PLAIN_TEXT), at the cursor or at (x, y). */
function write(
  doc: PDFKit.PDFDocument,
  text: string,
  options: PDFKit.Mixins.TextOptions = {},
  at?: { x: number; y: number },
) {
  const settings = { ...options, ...PLAIN_TEXT };
  if (at) doc.text(printable(text), at.x, at.y, settings);
  else doc.text(printable(text), settings);
}

/** Text in a font, size and colour, tagged as one structure element of `type` (P, H1, H2…). */
function block(
  { doc, root }: Page,
  type: string,
  style: { font?: FontName; size?: number; color?: string },
  lines: string[],
) {
  root.add(
    doc.struct(type, {}, () => {
      doc
        .font(style.font ?? "Body")
        .fontSize(style.size ?? 10)
        .fillColor(style.color ?? "black");
      for (const line of lines) write(doc, line);
    }),
  );
  doc.fillColor("black");
}

function header(page: Page, heading: string, number: string, stamp?: string) {
  const { doc, seller } = page;
  block(page, "P", { font: "Bold", size: 20, color: PRIMARY }, [ORGANISATION_NAME]);
  block(page, "P", { size: 9, color: GREY }, [
    seller.legalName,
    `${HEADQUARTERS.name} · ${HEADQUARTERS.address}`,
    `${HEADQUARTERS.phone} · ${HEADQUARTERS.email}`,
    `KRA PIN: ${seller.kraPin}`,
    seller.vatRate
      ? `VAT-registered: prices include VAT at ${seller.vatRate}%`
      : "Not VAT-registered",
  ]);
  doc.moveDown(1.5);
  const top = doc.y;
  block(page, "H1", { font: "Bold", size: 16 }, [`${heading} ${number}`]);
  if (stamp) paidStamp(page, stamp, top);
  doc.moveDown(0.5);
}

/** The stamp a finance office looks for, top right beside the heading. */
function paidStamp(page: Page, label: string, top: number) {
  const { doc, root } = page;
  const width = 110;
  const x = doc.page.width - MARGIN - width;
  const y = top - 6;
  const { x: keepX, y: keepY } = doc;
  root.add(
    doc.struct("P", {}, () => {
      doc.save().lineWidth(2.5).strokeColor(STAMP).roundedRect(x, y, width, 34, 4).stroke();
      doc.font("Bold").fontSize(20).fillColor(STAMP);
      write(doc, label, { width, align: "center", lineBreak: false }, { x, y: y + 6 });
      doc.restore();
    }),
  );
  doc.fillColor("black");
  doc.x = keepX;
  doc.y = keepY;
}

function party(page: Page, label: string, buyer: DocumentParty) {
  block(page, "H2", { font: "Bold" }, [label]);
  block(page, "P", {}, [
    buyer.name,
    ...(buyer.organisationName ? [buyer.organisationName] : []),
    ...(buyer.taxId ? [`KRA PIN / VAT: ${buyer.taxId}`] : []),
    buyer.email,
  ]);
  page.doc.moveDown();
}

/** "Label: value" rows, each one paragraph. */
function facts(page: Page, rows: [string, string][]) {
  const { doc, root } = page;
  for (const [label, value] of rows) {
    root.add(
      doc.struct("P", {}, () => {
        doc.fontSize(10).font("Bold");
        write(doc, `${label}: `, { continued: true });
        doc.font("Body");
        write(doc, value);
      }),
    );
  }
  doc.moveDown();
}

/** What a line covers beyond its description: the event's dates or the membership term's. */
function lineDetail(line: DocumentLine): string | null {
  if (line.event) {
    const { startsAt, endsAt, timeZone } = line.event;
    return `Event date: ${formatDateRange(startsAt, endsAt, timeZone)}`;
  }
  if (line.term) {
    const { startsAt, endsAt } = line.term;
    return startsAt && endsAt
      ? `Term: ${formatDate(startsAt)} - ${formatDate(endsAt)}`
      : "Term: dated when payment is received";
  }
  return null;
}

function linesTable(page: Page, currency: string, lines: DocumentLine[]) {
  const { doc, root } = page;
  const width = doc.page.width - MARGIN * 2;
  const columns = [
    { x: MARGIN, width: width * 0.5, align: "left" as const },
    { x: MARGIN + width * 0.52, width: width * 0.1, align: "right" as const },
    { x: MARGIN + width * 0.62, width: width * 0.18, align: "right" as const },
    { x: MARGIN + width * 0.8, width: width * 0.2, align: "right" as const },
  ];
  const table = doc.struct("Table");
  root.add(table);
  const row = (cells: string[], detail: string | null, heading = false) => {
    const tr = doc.struct("TR");
    table.add(tr);
    const y = doc.y;
    let bottom = y;
    cells.forEach((cell, index) => {
      const column = columns[index];
      tr.add(
        doc.struct(heading ? "TH" : "TD", {}, () => {
          doc
            .font(heading ? "Bold" : "Body")
            .fontSize(10)
            .fillColor("black");
          write(doc, cell, { width: column.width, align: column.align }, { x: column.x, y });
          if (index === 0 && detail) {
            doc.fontSize(8.5).fillColor(GREY);
            write(doc, detail, { width: column.width });
            doc.fillColor("black");
          }
        }),
      );
      bottom = Math.max(bottom, doc.y);
    });
    tr.end();
    doc.x = MARGIN;
    doc.y = bottom + 4;
  };
  row(["Description", "Qty", `Unit (${currency})`, `Amount (${currency})`], null, true);
  for (const line of lines) {
    row(
      [
        line.description,
        String(line.quantity),
        formatMinor(line.unitAmountMinor, currency),
        formatMinor(line.lineTotalMinor, currency),
      ],
      lineDetail(line),
    );
  }
  table.end();
  doc.moveDown(0.5);
}

/** The VAT in `grossMinor` as rows, when the seller is VAT-registered; nothing otherwise. */
function vatRows(seller: Seller, grossMinor: number, currency: string, what: string) {
  if (!seller.vatRate) return [];
  const { netMinor, vatMinor } = vatSplit(grossMinor, seller.vatRate);
  return [
    [`${what} excluding VAT`, formatMinor(netMinor, currency)],
    [`VAT at ${seller.vatRate}%`, formatMinor(vatMinor, currency)],
  ] as [string, string][];
}

function totals(page: Page, currency: string, total: number, paid: number) {
  const rows: [string, string][] = [
    ...vatRows(page.seller, total, currency, "Total"),
    [page.seller.vatRate ? "Total including VAT" : "Total", formatMinor(total, currency)],
    ["Paid", formatMinor(paid, currency)],
  ];
  if (paid > total) rows.push(["Credit", formatMinor(paid - total, currency)]);
  else rows.push(["Balance due", formatMinor(total - paid, currency)]);
  facts(page, rows);
}

/** Paid in full: the invoice carries a PAID stamp and no longer asks for money. */
function isPaid(invoice: InvoiceDocument) {
  return (
    invoice.state === "paid" ||
    (invoice.state === "awaiting_payment" && invoice.paidMinor >= invoice.totalMinor)
  );
}

function howToPay(page: Page, instructions: PaymentInstruction[]) {
  if (instructions.length === 0) return;
  block(page, "H2", { font: "Bold", size: 12 }, ["How to pay"]);
  page.doc.moveDown(0.3);
  for (const instruction of instructions) {
    block(page, "H3", { font: "Bold" }, [instruction.title]);
    block(
      page,
      "P",
      {},
      instruction.lines.map((line) => `${line.label}: ${line.value}`),
    );
    if (instruction.note) block(page, "P", { color: GREY }, [instruction.note]);
    page.doc.moveDown(0.5);
  }
}

export function renderInvoicePdf(invoice: InvoiceDocument): Promise<Buffer> {
  const paid = isPaid(invoice);
  return render(`Invoice ${invoice.invoiceNumber}`, (page) => {
    header(page, "Invoice", invoice.invoiceNumber, paid ? "PAID" : undefined);
    facts(page, [
      ["Invoice date", formatDate(invoice.issuedAt)],
      ...(paid ? [] : ([["Payment due", formatDate(invoice.dueAt)]] as [string, string][])),
      ["Currency", invoice.currency],
    ]);
    party(page, "Bill to", invoice.buyer);
    linesTable(page, invoice.currency, invoice.lines);
    totals(page, invoice.currency, invoice.totalMinor, invoice.paidMinor);
    if (!paid) {
      const _due = Math.max(invoice.totalMinor - invoice.paidMinor, 0);
      // Only the ways that can pay it (offlineInstructions: M-Pesa for KES, or with a KES rate).
      howToPay(page, invoice.instructions);
    }
  });
}

export function renderReceiptPdf(receipt: ReceiptDocument): Promise<Buffer> {
  return render(`Receipt ${receipt.receiptNumber}`, (page) => {
    header(page, "Receipt", receipt.receiptNumber);
    facts(page, [
      ["Receipt date", formatDate(receipt.issuedAt)],
      ["Invoice", receipt.invoiceNumber],
    ]);
    party(page, "Received from", receipt.buyer);
    facts(page, [
      ["Payment method", receipt.method],
      ["Payment reference", receipt.reference],
      ["Payment date", formatDate(receipt.paidAt)],
      ["Amount paid", formatMinor(receipt.amountMinor, receipt.currency)],
      ...(receipt.received
        ? [
            [
              "Received in KES",
              `${formatMinor(receipt.received.kesMinor, "KES")} at ${receipt.received.rateLabel}`,
            ] as [string, string],
          ]
        : []),
      ...vatRows(page.seller, receipt.amountMinor, receipt.currency, "Amount paid"),
    ]);
    linesTable(page, receipt.currency, receipt.lines);
    totals(page, receipt.currency, receipt.totalMinor, receipt.paidMinor);
  });
}

export function renderCreditNotePdf(note: CreditNoteDocument): Promise<Buffer> {
  return render(`Credit note ${note.creditNoteNumber}`, (page) => {
    header(page, "Credit note", note.creditNoteNumber);
    facts(page, [
      ["Credit note date", formatDate(note.issuedAt)],
      ["Invoice", note.invoiceNumber],
    ]);
    party(page, "Refunded to", note.buyer);
    facts(page, [
      ["Refund method", note.method],
      ["Refund reference", note.reference],
      ["Amount refunded", formatMinor(note.amountMinor, note.currency)],
      ...vatRows(page.seller, note.amountMinor, note.currency, "Amount refunded"),
      ...(note.reason ? ([["Reason", note.reason]] as [string, string][]) : []),
    ]);
    linesTable(page, note.currency, note.lines);
    facts(page, [
      ["Invoice total", formatMinor(note.totalMinor, note.currency)],
      ["Paid", formatMinor(note.paidMinor, note.currency)],
      ["Refunded in total", formatMinor(note.refundedMinor, note.currency)],
    ]);
  });
}
