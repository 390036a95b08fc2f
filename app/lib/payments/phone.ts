// Kenyan mobile numbers as people type them (07…, 01…, +2547…, 2547…, with spaces or dashes) and
// as Daraja wants them (2547XXXXXXXX / 2541XXXXXXXX); masked wherever a list or a log shows one.

/** "0712 345 678", "+254712345678", "254 112 345678" → "254712345678"; null when not a Kenyan mobile. */
export function normaliseKenyanPhone(input: string): string | null {
  const digits = input.replace(/[\s\-().]/g, "");
  const match = /^(?:\+?254|0)?([17]\d{8})$/.exec(digits);
  return match ? `254${match[1]}` : null;
}

/** "254712345678" → "2547••••678": enough to recognise one's own number, not to call it. */
export function maskPhone(phone: string | null | undefined): string {
  if (!phone) return "";
  const digits = phone.replace(/\D/g, "");
  if (digits.length < 7) return "•".repeat(digits.length);
  return `${digits.slice(0, 4)}${"•".repeat(digits.length - 7)}${digits.slice(-3)}`;
}

export const PHONE_MESSAGE =
  "Enter the Safaricom number to pay from, such as 0712 345 678 or +254 712 345 678.";
