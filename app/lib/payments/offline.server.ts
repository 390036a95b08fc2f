import { env } from "../env.server";
import { formatKesRate, kesRate, toKesMinor } from "../exchange-rates.server";
import { formatMinor, isCurrency } from "../money";
import type { PayableOrder, PaymentInstruction, PaymentProvider } from "./provider";

/** Safaricom's public Daraja sandbox shortcode: never a real account, always labelled as demo. */
export const DEMO_PAYBILL = "174379";
export const DEMO_BANK_DETAILS =
  "Bank: Demo Bank Kenya (demo details);Account name: Kongamano Network;Account number: 0000000000;Branch: Westlands, Nairobi;SWIFT: DEMOKENA";

/**
 * Whether M-Pesa can pay this order, and with how many shillings: M-Pesa moves shillings, so it
 * pays a KES invoice, or a foreign-currency one when the operator has set a KES rate for its
 * currency (`KES_RATES`); without a rate it is not offered (issue 29).
 */
function mpesaAmountLine(order: Pick<PayableOrder, "currency" | "dueMinor">) {
  if (order.currency === "KES") return { payable: true, line: null } as const;
  const rate = isCurrency(order.currency) ? kesRate(order.currency) : null;
  if (!rate || !isCurrency(order.currency)) return { payable: false, line: null } as const;
  const kes = formatMinor(toKesMinor(order.dueMinor, order.currency, rate), "KES");
  return {
    payable: true,
    line: { label: "Amount in KES", value: `${kes} at ${formatKesRate(rate, order.currency)}` },
  } as const;
}

/**
 * The offline ways to pay an invoice: M-Pesa Paybill (account = invoice number) where M-Pesa can
 * pay it, and bank transfer. The order page, the e-mails and the invoice PDF all read these.
 */
export function offlineInstructions(
  order: Pick<PayableOrder, "invoiceNumber" | "paymentReference" | "currency" | "dueMinor">,
): PaymentInstruction[] {
  const { invoiceNumber } = order;
  // The short reference fits Daraja's 12-character account (issue 34); older callers: the number.
  const account = order.paymentReference ?? invoiceNumber;
  const mpesa = mpesaAmountLine(order);
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
  const mpesaInstruction: PaymentInstruction = {
    method: "mpesa",
    title: "M-Pesa",
    lines: [
      {
        label: "Paybill number",
        value: config.MPESA_PAYBILL ? paybill : `${paybill} (demo number)`,
      },
      { label: "Account number", value: account },
      ...(mpesa.line ? [mpesa.line] : []),
    ],
    note:
      account === invoiceNumber
        ? "Lipa na M-Pesa → Paybill. Enter the invoice number as the account number; we record your M-Pesa confirmation code."
        : "Lipa na M-Pesa → Paybill. Enter the account number above; we record your M-Pesa confirmation code.",
  };
  return [
    ...(mpesa.payable ? [mpesaInstruction] : []),
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
    return { kind: "instructions", instructions: offlineInstructions(order) };
  },
  async handleCallback() {
    return null;
  },
  async queryStatus() {
    return { status: "unknown" };
  },
};
