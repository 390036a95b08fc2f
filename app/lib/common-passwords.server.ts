import { createRequire } from "node:module";

/**
 * The most common passwords (NIST SP 800-63B §3.1.1.2: refuse values from breach corpuses), from
 * zxcvbn-ts's kept list of 49,000 passwords seen most often in real breaches. Read from
 * node_modules on first use, never fetched from the network.
 */
export const COMMON_PASSWORD_MESSAGE =
  "This password is too common and easy to guess. Please choose a different password.";

let list: Set<string> | undefined;

function commonPasswords() {
  if (!list) {
    const require = createRequire(import.meta.url);
    const words = require("@zxcvbn-ts/language-common/src/passwords.json") as string[];
    list = new Set(words.map((w) => w.toLowerCase()));
  }
  return list;
}

/**
 * Whether a password is a common one (compared without case, so "Password1" counts as
 * "password1"), or is the account's own e-mail address or its part before the @.
 */
export function isCommonPassword(password: string, email?: string) {
  const value = password.trim().toLowerCase();
  if (commonPasswords().has(value)) return true;
  const address = email?.trim().toLowerCase();
  return Boolean(address && (value === address || value === address.split("@")[0]));
}
