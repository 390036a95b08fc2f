// Invoice, receipt and credit note PDFs (pdfkit, decisions 0024 and 0072). Plain data in, bytes out: the orders model
// gathers the data; nothing here reads the database.
import PDFDocument from "pdfkit";
import { ORGANISATION_NAME } from "../constants";
import { formatDate } from "../format";
import { formatMinor } from "../money";
import type { PaymentInstruction } from "../payments/provider";
import { HEADQUARTERS } from "../site-content";

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

function render(title: string, draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    info: { Title: title, Author: ORGANISATION_NAME, Creator: ORGANISATION_NAME },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  draw(doc);
  doc.end();
  return done;
}

function header(doc: PDFKit.PDFDocument, heading: string, number: string) {
  doc.fillColor(PRIMARY).font("Helvetica-Bold").fontSize(20).text(ORGANISATION_NAME);
  doc.fillColor(GREY).font("Helvetica").fontSize(9);
  doc.text(`${HEADQUARTERS.name} · ${HEADQUARTERS.address}`);
  doc.text(`${HEADQUARTERS.phone} · ${HEADQUARTERS.email}`);
  doc.moveDown(1.5);
  doc.fillColor("black").font("Helvetica-Bold").fontSize(16).text(`${heading} ${number}`);
  doc.moveDown(0.5);
}

function party(doc: PDFKit.PDFDocument, label: string, buyer: DocumentParty) {
  doc.font("Helvetica-Bold").fontSize(10).text(label);
  doc.font("Helvetica").fontSize(10);
  doc.text(buyer.name);
  if (buyer.organisationName) doc.text(buyer.organisationName);
  if (buyer.taxId) doc.text(`KRA PIN / VAT: ${buyer.taxId}`);
  doc.text(buyer.email);
  doc.moveDown();
}

function facts(doc: PDFKit.PDFDocument, rows: [string, string][]) {
  doc.fontSize(10);
  for (const [label, value] of rows) {
    doc.font("Helvetica-Bold").text(`${label}: `, { continued: true });
    doc.font("Helvetica").text(value);
  }
  doc.moveDown();
}

function linesTable(doc: PDFKit.PDFDocument, currency: string, lines: DocumentLine[]) {
  const width = doc.page.width - MARGIN * 2;
  const cols = [MARGIN, MARGIN + width * 0.52, MARGIN + width * 0.62, MARGIN + width * 0.8];
  const row = (cells: string[], bold = false) => {
    const y = doc.y;
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(10);
    doc.text(cells[0], cols[0], y, { width: width * 0.5 });
    const bottom = doc.y;
    doc.text(cells[1], cols[1], y, { width: width * 0.1, align: "right" });
    doc.text(cells[2], cols[2], y, { width: width * 0.18, align: "right" });
    doc.text(cells[3], cols[3], y, { width: width * 0.2, align: "right" });
    doc.x = MARGIN;
    doc.y = Math.max(bottom, doc.y) + 4;
  };
  row(["Description", "Qty", `Unit (${currency})`, `Amount (${currency})`], true);
  for (const line of lines) {
    row([
      line.description,
      String(line.quantity),
      formatMinor(line.unitAmountMinor, currency),
      formatMinor(line.lineTotalMinor, currency),
    ]);
  }
  doc.moveDown(0.5);
}

function totals(doc: PDFKit.PDFDocument, currency: string, total: number, paid: number) {
  const rows: [string, string][] = [
    ["Total", formatMinor(total, currency)],
    ["Paid", formatMinor(paid, currency)],
  ];
  if (paid > total) rows.push(["Credit", formatMinor(paid - total, currency)]);
  else rows.push(["Balance due", formatMinor(total - paid, currency)]);
  facts(doc, rows);
}

export function renderInvoicePdf(invoice: InvoiceDocument): Promise<Buffer> {
  return render(`Invoice ${invoice.invoiceNumber}`, (doc) => {
    header(doc, "Invoice", invoice.invoiceNumber);
    facts(doc, [
      ["Invoice date", formatDate(invoice.issuedAt)],
      ["Payment due", formatDate(invoice.dueAt)],
      ["Currency", invoice.currency],
    ]);
    party(doc, "Bill to", invoice.buyer);
    linesTable(doc, invoice.currency, invoice.lines);
    totals(doc, invoice.currency, invoice.totalMinor, invoice.paidMinor);
    doc.font("Helvetica-Bold").fontSize(12).text("How to pay");
    doc.moveDown(0.3);
    for (const instruction of invoice.instructions) {
      doc.font("Helvetica-Bold").fontSize(10).text(instruction.title);
      doc.font("Helvetica");
      for (const line of instruction.lines) doc.text(`${line.label}: ${line.value}`);
      if (instruction.note) doc.fillColor(GREY).text(instruction.note).fillColor("black");
      doc.moveDown(0.5);
    }
  });
}

export function renderReceiptPdf(receipt: ReceiptDocument): Promise<Buffer> {
  return render(`Receipt ${receipt.receiptNumber}`, (doc) => {
    header(doc, "Receipt", receipt.receiptNumber);
    facts(doc, [
      ["Receipt date", formatDate(receipt.issuedAt)],
      ["Invoice", receipt.invoiceNumber],
    ]);
    party(doc, "Received from", receipt.buyer);
    facts(doc, [
      ["Payment method", receipt.method],
      ["Payment reference", receipt.reference],
      ["Payment date", formatDate(receipt.paidAt)],
      ["Amount paid", formatMinor(receipt.amountMinor, receipt.currency)],
    ]);
    linesTable(doc, receipt.currency, receipt.lines);
    totals(doc, receipt.currency, receipt.totalMinor, receipt.paidMinor);
  });
}

export function renderCreditNotePdf(note: CreditNoteDocument): Promise<Buffer> {
  return render(`Credit note ${note.creditNoteNumber}`, (doc) => {
    header(doc, "Credit note", note.creditNoteNumber);
    facts(doc, [
      ["Credit note date", formatDate(note.issuedAt)],
      ["Invoice", note.invoiceNumber],
    ]);
    party(doc, "Refunded to", note.buyer);
    facts(doc, [
      ["Refund method", note.method],
      ["Refund reference", note.reference],
      ["Amount refunded", formatMinor(note.amountMinor, note.currency)],
      ...(note.reason ? ([["Reason", note.reason]] as [string, string][]) : []),
    ]);
    linesTable(doc, note.currency, note.lines);
    facts(doc, [
      ["Invoice total", formatMinor(note.totalMinor, note.currency)],
      ["Paid", formatMinor(note.paidMinor, note.currency)],
      ["Refunded in total", formatMinor(note.refundedMinor, note.currency)],
    ]);
  });
}
