import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { user } from "~/db/schema";
import { setEnv } from "~/lib/env.server";
import { createOrder, recordPayment } from "~/models/orders/orders.server";
import { getOrderForViewer } from "~/models/orders/queries.server";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { testEnv } from "../../../tests/helpers/env";
import { DEMO_BANK_DETAILS, DEMO_PAYBILL, offlineProvider } from "./offline.server";
import type { PayableOrder, PaymentInstruction, PaymentStart } from "./provider";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

const ORDER: PayableOrder = {
  id: "5b0c7f0e-8d1a-4c55-9a43-3f1f4b7e2a10",
  invoiceNumber: "INV-2026-000042",
  currency: "KES",
  dueMinor: 12_345_67,
  billingEmail: "accounts@records.example",
};

function instructionsOf(start: PaymentStart): PaymentInstruction[] {
  if (start.kind !== "instructions") throw new Error(`expected instructions, got ${start.kind}`);
  return start.instructions;
}

afterEach(() => {
  setEnv(testEnv());
  vi.restoreAllMocks();
});

describe("offlineProvider (the PaymentProvider seam, decision 0026)", () => {
  it("answers createPayment with M-Pesa Paybill (account = invoice number) and bank transfer instructions", async () => {
    setEnv(
      testEnv({
        MPESA_PAYBILL: "522533",
        BANK_DETAILS:
          "Bank: KCB Bank Kenya; Account name: Kongamano Network ;Account number: 1234567890;;Branch: Moi Avenue, Nairobi;SWIFT: KCBLKENX",
      }),
    );
    expect(offlineProvider.id).toBe("offline");
    const start = await offlineProvider.createPayment(ORDER);
    expect(start.kind).toBe("instructions");
    const [mpesa, bank, ...rest] = instructionsOf(start);
    expect(rest).toEqual([]);
    expect(mpesa).toEqual({
      method: "mpesa",
      title: "M-Pesa",
      lines: [
        { label: "Paybill number", value: "522533" },
        { label: "Account number", value: "INV-2026-000042" },
      ],
      note: expect.stringContaining("invoice number as the account number"),
    });
    expect(bank).toEqual({
      method: "bank_transfer",
      title: "Bank transfer",
      lines: [
        { label: "Bank", value: "KCB Bank Kenya" },
        { label: "Account name", value: "Kongamano Network" },
        { label: "Account number", value: "1234567890" },
        { label: "Branch", value: "Moi Avenue, Nairobi" },
        { label: "SWIFT", value: "KCBLKENX" },
        { label: "Payment reference", value: "INV-2026-000042" },
      ],
      note: "Quote the invoice number as the payment reference.",
    });
  });

  it("labels Safaricom's sandbox shortcode and the demo bank details as demo when none is configured", async () => {
    const [mpesa, bank] = instructionsOf(await offlineProvider.createPayment(ORDER));
    expect(DEMO_PAYBILL).toBe("174379");
    expect(mpesa.lines).toEqual([
      { label: "Paybill number", value: "174379 (demo number)" },
      { label: "Account number", value: ORDER.invoiceNumber },
    ]);
    expect(DEMO_BANK_DETAILS).toContain("(demo details)");
    expect(bank.lines[0]).toEqual({ label: "Bank", value: "Demo Bank Kenya (demo details)" });
    expect(bank.lines.at(-1)).toEqual({ label: "Payment reference", value: ORDER.invoiceNumber });
    expect(bank.lines.map((l) => l.label)).toEqual([
      "Bank",
      "Account name",
      "Account number",
      "Branch",
      "SWIFT",
      "Payment reference",
    ]);
  });

  it("keeps bank lines without a label, and values containing a colon, as written", async () => {
    setEnv(
      testEnv({ BANK_DETAILS: "Pay at any Equity branch;IBAN: KE12 3456: 7890; :orphan value" }),
    );
    const [, bank] = instructionsOf(await offlineProvider.createPayment(ORDER));
    expect(bank.lines).toEqual([
      { label: "Details", value: "Pay at any Equity branch" },
      { label: "IBAN", value: "KE12 3456: 7890" },
      { label: "Details", value: ":orphan value" },
      { label: "Payment reference", value: ORDER.invoiceNumber },
    ]);
  });

  it("gives each order its own invoice number as the account, whatever its amount or currency", async () => {
    setEnv(testEnv({ MPESA_PAYBILL: "522533", KES_RATES: "USD=129.50" }));
    const other = await offlineProvider.createPayment({
      ...ORDER,
      invoiceNumber: "INV-2026-000043",
      currency: "USD",
      dueMinor: 1,
    });
    const [mpesa, bank] = instructionsOf(other);
    expect(mpesa.lines[1]).toEqual({ label: "Account number", value: "INV-2026-000043" });
    expect(bank.lines.at(-1)).toEqual({ label: "Payment reference", value: "INV-2026-000043" });
    expect(JSON.stringify(other)).not.toContain("INV-2026-000042");
  });

  it("offers M-Pesa on a foreign-currency order only with a KES rate, saying how many shillings", async () => {
    const usdOrder = { ...ORDER, currency: "USD", dueMinor: 1_000_00 };
    setEnv(testEnv({ MPESA_PAYBILL: "522533", KES_RATES: "USD=129.50" }));
    const [mpesa] = instructionsOf(await offlineProvider.createPayment(usdOrder));
    expect(mpesa.method).toBe("mpesa");
    expect(mpesa.lines.at(-1)).toEqual({
      label: "Amount in KES",
      value: "KES 129,500.00 at 129.50 KES/USD",
    });
    // No rate for USD: M-Pesa cannot pay it, so only the bank transfer is offered.
    setEnv(testEnv({ MPESA_PAYBILL: "522533", KES_RATES: "EUR=141" }));
    const withoutRate = instructionsOf(await offlineProvider.createPayment(usdOrder));
    expect(withoutRate.map((i) => i.method)).toEqual(["bank_transfer"]);
    // A KES order needs no rate and no conversion line.
    const [kes] = instructionsOf(await offlineProvider.createPayment(ORDER));
    expect(kes.lines.map((l) => l.label)).toEqual(["Paybill number", "Account number"]);
  });

  it("has no callbacks: handleCallback answers null, even to a well-formed M-Pesa confirmation", async () => {
    const forged = new Request("http://localhost:3000/api/payments/offline/callback", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        TransID: "SGH7KQ2XYZ",
        TransAmount: "12345.67",
        BillRefNumber: ORDER.invoiceNumber,
        BusinessShortCode: "522533",
      }),
    });
    expect(await offlineProvider.handleCallback(forged)).toBeNull();
    expect(await offlineProvider.handleCallback(new Request("http://localhost:3000/x"))).toBeNull();
  });

  it("cannot ask anyone about a payment: queryStatus answers unknown", async () => {
    expect(await offlineProvider.queryStatus("SGH7KQ2XYZ")).toEqual({ status: "unknown" });
    expect(await offlineProvider.queryStatus("")).toEqual({ status: "unknown" });
  });
});

describe("the order page asks the provider with the exact amount due in minor units", () => {
  const database = useTestDatabase();
  const buyer = {
    id: "6f1d2c3b-0a9e-4d8c-b7a6-5f4e3d2c1b0a",
    name: "Achieng Buyer",
    email: "achieng.buyer@example.test",
  };
  const admin = { id: "admin-seam-test", role: "admin" as const };

  beforeAll(async () => {
    await database.db.insert(user).values([
      { ...buyer, role: "user" },
      { id: admin.id, name: "Seam Admin", email: "seam.admin@example.test", role: "admin" },
    ]);
  });

  async function order(currency: "KES" | "USD", unitAmountMinor: number, quantity = 1) {
    return createOrder({
      buyer,
      currency,
      holdMs: 72 * 3_600_000,
      lines: [
        {
          kind: "event_ticket",
          referenceId: crypto.randomUUID(),
          description: "Digital Preservation Day — Member",
          quantity,
          unitAmountMinor,
        },
      ],
    });
  }

  const pay = (
    invoiceNumber: string,
    reference: string,
    amountMinor: number,
    currency: "KES" | "USD",
  ) =>
    recordPayment(
      { method: "mpesa", reference, amountMinor, currency, paidAt: new Date(), invoiceNumber },
      admin,
    );

  it("passes total minus paid, to the cent, with the invoice number, currency and billing e-mail", async () => {
    const created = await order("KES", 3_333_33, 3); // KES 9,999.99
    await pay(created.invoiceNumber, "SEAMPART01", 4_000_01, "KES");
    const createPayment = vi.spyOn(offlineProvider, "createPayment");
    const detail = await getOrderForViewer(created.order.id, { id: buyer.id, role: "user" });
    expect(createPayment).toHaveBeenCalledTimes(1);
    const reference = detail?.invoice.paymentReference;
    expect(reference).toMatch(/^\d{10}$/);
    expect(createPayment).toHaveBeenCalledWith({
      id: created.order.id,
      invoiceNumber: created.invoiceNumber,
      // The short payment reference is the M-Pesa account (issue 34).
      paymentReference: reference,
      currency: "KES",
      dueMinor: 5_999_98,
      billingEmail: buyer.email,
    });
    expect(detail?.dueMinor).toBe(5_999_98);
    expect(detail?.instructions.map((i) => i.method)).toEqual(["mpesa", "bank_transfer"]);
    expect(detail?.instructions[0].lines[1]).toEqual({
      label: "Account number",
      value: reference,
    });

    const usd = await order("USD", 150_00);
    await pay(usd.invoiceNumber, "SEAMUSD001", 149_99, "USD");
    createPayment.mockClear();
    await getOrderForViewer(usd.order.id, { id: buyer.id, role: "user" });
    expect(createPayment).toHaveBeenCalledWith(
      expect.objectContaining({ currency: "USD", dueMinor: 1 }),
    );
  });

  it("does not ask for instructions once the order is paid", async () => {
    const created = await order("KES", 2_500_00);
    await pay(created.invoiceNumber, "SEAMPAID01", 2_500_00, "KES");
    const createPayment = vi.spyOn(offlineProvider, "createPayment");
    const detail = await getOrderForViewer(created.order.id, { id: buyer.id, role: "user" });
    expect(detail?.order.state).toBe("paid");
    expect(detail?.instructions).toEqual([]);
    expect(createPayment).not.toHaveBeenCalled();
  });
});
