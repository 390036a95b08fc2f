import { env } from "../env.server";
import type { PayableOrder, PaymentInstruction, PaymentProvider } from "./provider";

/** Safaricom's public Daraja sandbox shortcode: never a real account, always labelled as demo. */
export const DEMO_PAYBILL = "174379";
export const DEMO_BANK_DETAILS =
  "Bank: Demo Bank Kenya (demo details);Account name: Kongamano Network;Account number: 0000000000;Branch: Westlands, Nairobi;SWIFT: DEMOKENA";

/** The offline ways to pay an invoice: M-Pesa Paybill (account = invoice number), bank transfer. */
export function offlineInstructions(invoiceNumber: string): PaymentInstruction[] {
  const config = env();
  const paybill = config.MPESA_PAYBILL ?? DEMO_PAYBILL;
  const bank = (config.BANK_DETAILS ?? DEMO_BANK_DETAILS)
    .split(";")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf(":");
      return at > 0
        ? { label: line.slice(0, at).trim(), value: line.slice(at + 1).trim() }
        : { label: "Details", value: line };
    });
  return [
    {
      method: "mpesa",
      title: "M-Pesa",
      lines: [
        {
          label: "Paybill number",
          value: config.MPESA_PAYBILL ? paybill : `${paybill} (demo number)`,
        },
        { label: "Account number", value: invoiceNumber },
      ],
      note: "Lipa na M-Pesa → Paybill. Enter the invoice number as the account number; we record your M-Pesa confirmation code.",
    },
    {
      method: "bank_transfer",
      title: "Bank transfer",
      lines: [...bank, { label: "Payment reference", value: invoiceNumber }],
      note: "Quote the invoice number as the payment reference.",
    },
  ];
}

/**
 * Offline payments: the buyer follows the instructions and staff record what arrived on the
 * Payments screen. There is no provider to call back or to ask.
 */
export const offlineProvider: PaymentProvider = {
  id: "offline",
  async createPayment(order: PayableOrder) {
    return { kind: "instructions", instructions: offlineInstructions(order.invoiceNumber) };
  },
  async handleCallback() {
    return null;
  },
  async queryStatus() {
    return { status: "unknown" };
  },
};
