// The documents as a finance office and third-party tools read them: fonts embedded (read from
// the file's dictionaries, and by poppler's pdffonts where installed), text extracted exactly (by
// PDF.js, and by pdftotext where installed), seller and VAT, PAID, where M-Pesa can pay, tags.
import { getDocumentProxy } from "unpdf";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setEnv } from "~/lib/env.server";
import { offlineInstructions } from "~/lib/payments/offline.server";
import { testEnv } from "../../../tests/helpers/env";
import { poppler, readPdfCatalog, readPdfFonts } from "../../../tests/helpers/pdf-fonts";
import { pdfText } from "../../../tests/helpers/pdf-text";
import {
  type InvoiceDocument,
  renderCreditNotePdf,
  renderInvoicePdf,
  renderReceiptPdf,
} from "./order-documents.server";

const BUYER = {
  name: "Wanjirũ Mũthoni Ngũgĩ",
  email: "wanjiru@example.test",
  organisationName: "Mutua & Wanjirũ Records Ltd",
  taxId: "P051234567X",
};

/** An invoice whose payment instructions are what the site offers for it under the current settings. */
function invoice(overrides: Partial<InvoiceDocument> = {}): InvoiceDocument {
  const document = baseInvoice(overrides);
  return {
    ...document,
    instructions:
      overrides.instructions ??
      offlineInstructions({
        invoiceNumber: document.invoiceNumber,
        currency: document.currency,
        dueMinor: document.totalMinor - document.paidMinor,
      }),
  };
}

function baseInvoice(overrides: Partial<InvoiceDocument>): InvoiceDocument {
  return {
    invoiceNumber: "INV-2027-000042",
    issuedAt: new Date("2027-01-10T08:00:00Z"),
    dueAt: new Date("2027-01-13T08:00:00Z"),
    state: "awaiting_payment",
    buyer: BUYER,
    currency: "KES",
    lines: [
      {
        description: "Data Governance Summit — Conference Only",
        quantity: 2,
        unitAmountMinor: 5_000_00,
        lineTotalMinor: 10_000_00,
        event: {
          startsAt: new Date("2027-03-03T06:00:00Z"),
          endsAt: new Date("2027-03-05T14:00:00Z"),
          timeZone: "Africa/Nairobi",
        },
      },
    ],
    totalMinor: 10_000_00,
    paidMinor: 0,
    instructions: [],
    ...overrides,
  };
}

/** The text by PDF.js and, where poppler is installed, by pdftotext: both must say `expected`. */
async function texts(bytes: Buffer) {
  const all = [await pdfText(bytes)];
  const popplerText = poppler("pdftotext", bytes);
  if (popplerText !== null) all.push(popplerText);
  return all;
}

function configure(settings: Record<string, string> = {}) {
  setEnv(testEnv({ MPESA_PAYBILL: "522533", ...settings }));
}

describe("invoice, receipt and credit note PDFs", () => {
  beforeEach(() => configure());
  afterEach(() => configure());

  it("embeds every font as a subset, so Kenyan names print and extract exactly", async () => {
    const documents = [
      await renderInvoicePdf(invoice()),
      await renderReceiptPdf({
        receiptNumber: "RCT-2027-000007",
        issuedAt: new Date("2027-01-11T08:00:00Z"),
        invoiceNumber: "INV-2027-000042",
        buyer: BUYER,
        currency: "KES",
        method: "M-Pesa",
        reference: "SGH7KQ2XYZ",
        paidAt: new Date("2027-01-11T08:00:00Z"),
        amountMinor: 10_000_00,
        totalMinor: 10_000_00,
        paidMinor: 10_000_00,
        lines: invoice().lines,
      }),
      await renderCreditNotePdf({
        creditNoteNumber: "CRN-2027-000003",
        issuedAt: new Date("2027-01-12T08:00:00Z"),
        invoiceNumber: "INV-2027-000042",
        buyer: BUYER,
        currency: "KES",
        method: "M-Pesa",
        reference: "RFD12345",
        reason: "Ngũgĩ could not travel",
        amountMinor: 3_000_00,
        totalMinor: 10_000_00,
        paidMinor: 10_000_00,
        refundedMinor: 3_000_00,
        lines: invoice().lines,
      }),
    ];
    for (const bytes of documents) {
      const fonts = readPdfFonts(bytes);
      expect(fonts.map((f) => f.name.replace(/^[A-Z]{6}\+/, "")).sort()).toEqual([
        "NotoSans-Bold",
        "NotoSans-Regular",
      ]);
      for (const font of fonts) expect(font).toMatchObject({ embedded: true, subset: true });
      const report = poppler("pdffonts", bytes);
      if (report !== null) {
        const rows = report.trim().split("\n").slice(2);
        expect(rows).toHaveLength(2);
        // name, type…, then the emb, sub and uni columns
        for (const row of rows) expect(row).toMatch(/NotoSans-\w+ .* yes\s+yes\s+yes\s+\d+\s+0$/);
      }
      for (const text of await texts(bytes)) {
        expect(text).toContain("Wanjirũ Mũthoni Ngũgĩ");
        expect(text).toContain("Mutua & Wanjirũ Records Ltd");
        expect(text).toContain("Data Governance Summit — Conference Only");
      }
    }
  });

  it("prints an accent typed as a separate mark as the composed letter, and M-Pesa's menu path", async () => {
    const bytes = await renderInvoicePdf(
      invoice({ buyer: { ...BUYER, name: "Wanjiru\u0303 Kamau", organisationName: null } }),
    );
    for (const text of await texts(bytes)) {
      expect(text).toContain("Wanjirũ Kamau");
      expect(text).toContain("Lipa na M-Pesa › Paybill.");
    }
  });

  it("names the seller with its KRA PIN and says it is not VAT-registered when no rate is set", async () => {
    configure({ SELLER_LEGAL_NAME: "Kongamano Network Ltd", SELLER_KRA_PIN: "P052000111Q" });
    for (const text of await texts(await renderInvoicePdf(invoice()))) {
      expect(text).toContain("Kongamano Network Ltd");
      expect(text).toContain("KRA PIN: P052000111Q");
      expect(text).toContain("Not VAT-registered");
      expect(text).not.toContain("VAT at");
      expect(text).toContain("Total: KES 10,000.00");
    }
  });

  it("labels the demo seller and PIN of an unconfigured site as demo", async () => {
    const [text] = await texts(await renderInvoicePdf(invoice()));
    expect(text).toContain("Kongamano Network Ltd (demo legal name)");
    expect(text).toContain("KRA PIN: P000000000A (demo PIN)");
  });

  it("splits VAT-inclusive totals into net, VAT and gross that add up, when VAT-registered", async () => {
    configure({ VAT_RATE: "16", SELLER_KRA_PIN: "P052000111Q" });
    const [invoiceText] = await texts(await renderInvoicePdf(invoice()));
    expect(invoiceText).toContain("VAT-registered: prices include VAT at 16%");
    expect(invoiceText).toContain("Total excluding VAT: KES 8,620.69");
    expect(invoiceText).toContain("VAT at 16%: KES 1,379.31");
    expect(invoiceText).toContain("Total including VAT: KES 10,000.00");
    expect(invoiceText).not.toContain("Not VAT-registered");
    const [noteText] = await texts(
      await renderCreditNotePdf({
        creditNoteNumber: "CRN-2027-000003",
        issuedAt: new Date("2027-01-12T08:00:00Z"),
        invoiceNumber: "INV-2027-000042",
        buyer: BUYER,
        currency: "KES",
        method: "M-Pesa",
        reference: "RFD12345",
        reason: null,
        amountMinor: 3_000_00,
        totalMinor: 10_000_00,
        paidMinor: 10_000_00,
        refundedMinor: 3_000_00,
        lines: invoice().lines,
      }),
    );
    expect(noteText).toContain("Amount refunded excluding VAT: KES 2,586.21");
    expect(noteText).toContain("VAT at 16%: KES 413.79");
  });

  it("stamps a paid invoice PAID and drops the payment instructions", async () => {
    const paid = await renderInvoicePdf(invoice({ state: "paid", paidMinor: 10_000_00 }));
    for (const text of await texts(paid)) {
      expect(text).toMatch(/\bPAID\b/);
      expect(text).not.toContain("How to pay");
      expect(text).not.toContain("Paybill");
      expect(text).not.toContain("Payment due");
      expect(text).toContain("Balance due: KES 0.00");
    }
    const [open] = await texts(await renderInvoicePdf(invoice({ paidMinor: 4_000_00 })));
    expect(open).not.toMatch(/\bPAID\b/);
    expect(open).toContain("How to pay");
    expect(open).toContain("Paybill number: 522533");
    expect(open).toContain("Balance due: KES 6,000.00");
  });

  it("prints the event's dates under a ticket and the term's under a membership", async () => {
    const lines = [
      ...invoice().lines,
      {
        description: "Professional membership — renewal",
        quantity: 1,
        unitAmountMinor: 15_000_00,
        lineTotalMinor: 15_000_00,
        term: {
          startsAt: new Date("2027-02-01T00:00:00Z"),
          endsAt: new Date("2028-01-31T21:00:00Z"),
        },
      },
      {
        description: "Student membership",
        quantity: 1,
        unitAmountMinor: 2_500_00,
        lineTotalMinor: 2_500_00,
        term: { startsAt: null, endsAt: null },
      },
    ];
    for (const text of await texts(await renderInvoicePdf(invoice({ lines })))) {
      expect(text).toContain("Event date: Mar 3, 2027 - Mar 5, 2027");
      expect(text).toContain("Term: Feb 1, 2027 - Feb 1, 2028");
      expect(text).toContain("Term: dated when payment is received");
    }
  });

  it("offers M-Pesa on a USD invoice only with a KES rate, and then says how many shillings", async () => {
    const usd = () => invoice({ currency: "USD", totalMinor: 1_150_00, paidMinor: 150_00 });
    configure({ KES_RATES: "USD=129.50,EUR=141" });
    for (const text of await texts(await renderInvoicePdf(usd()))) {
      expect(text).toContain("Paybill number: 522533");
      expect(text).toContain("Amount in KES: KES 129,500.00 at 129.50 KES/USD");
      expect(text).toContain("Bank transfer");
    }
    configure({ KES_RATES: "EUR=141" });
    for (const text of await texts(await renderInvoicePdf(usd()))) {
      expect(text).toContain("How to pay");
      expect(text).toContain("Bank transfer");
      expect(text).not.toContain("Paybill");
      expect(text).not.toContain("M-Pesa");
      expect(text).not.toContain("Amount in KES");
    }
    const [kes] = await texts(await renderInvoicePdf(invoice()));
    expect(kes).toContain("Paybill number: 522533");
    expect(kes).not.toContain("Amount in KES");
  });

  it("is a tagged PDF with its title shown, its language, and headings, a table and paragraphs", async () => {
    const bytes = await renderInvoicePdf(invoice());
    const { catalog, viewerPreferences, markInfo } = readPdfCatalog(bytes);
    expect(catalog).toMatch(/\/Lang \(en-KE\)/);
    expect(catalog).toMatch(/\/StructTreeRoot \d+ 0 R/);
    expect(markInfo).toMatch(/\/Marked true/);
    expect(viewerPreferences).toMatch(/\/DisplayDocTitle true/);

    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    const { info } = (await pdf.getMetadata()) as unknown as { info: Record<string, unknown> };
    expect(info.Title).toBe("Invoice INV-2027-000042");
    expect(info.Language).toBe("en-KE");
    const page = await pdf.getPage(1);
    const roles = new Set<string>();
    const walk = (node: { role?: string; children?: unknown[] }) => {
      if (node.role) roles.add(node.role);
      for (const child of node.children ?? []) walk(child as typeof node);
    };
    walk((await page.getStructTree()) as { role?: string; children?: unknown[] });
    for (const role of ["Document", "H1", "H2", "P", "Table", "TR", "TH", "TD"]) {
      expect(roles).toContain(role);
    }
  });
});
