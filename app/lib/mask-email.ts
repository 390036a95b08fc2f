/**
 * Masks an e-mail for the admin user table (spec §6): the first and last character of the local
 * part are kept, every other character becomes '*'; the domain stays readable.
 * 'jane.doe@example.com' → 'j******e@example.com'. Short local parts never show whole:
 * two characters keep only the first ('jo@…' → 'j*@…'), one character is hidden ('a@…' → '*@…').
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 0) return mask(email);
  return `${mask(email.slice(0, at))}${email.slice(at)}`;
}

function mask(local: string): string {
  const chars = Array.from(local); // code points, so an accented letter is one character
  if (chars.length === 0) return "";
  if (chars.length === 1) return "*";
  if (chars.length === 2) return `${chars[0]}*`;
  return `${chars[0]}${"*".repeat(chars.length - 2)}${chars[chars.length - 1]}`;
}
