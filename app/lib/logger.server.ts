import pino, { type DestinationStream } from "pino";

/**
 * Keys to accounts and orders that travel in links the site mails: the password-reset and
 * invitation tokens, the signed renewal and billing-contact links, the seat invitation, the
 * membership card's verification code, the reviewer invitation and the M-Pesa hooks' unguessable segment sit in a path segment (also when a link is URL-encoded inside another, as in
 * `/auth?redirectTo=%2Fmembership%2Fseat%2F…`); the e-mail verification and reset-page tokens and
 * the waitlist offer sit in the query. A copy in a log line would open the account to whoever
 * reads the logs (issue 26 §6).
 */
const SLASH = String.raw`(?:\/|%2F)`;
const TOKEN_SEGMENT = new RegExp(
  String.raw`(${SLASH}(?:api${SLASH}auth${SLASH}reset-password|api${SLASH}payments${SLASH}hooks|invite|membership${SLASH}(?:renew|seat|verify|billing)|reviews${SLASH}invitation)${SLASH})[^/?#&\s"'\\%<>]+`,
  "gi",
);
const TOKEN_PARAM = /((?:[?&]|%3F|%26)(?:token|offer|code|otp)(?:=|%3D))[^&#\s"'\\%<>]+/gi;

/** Every token of every link type in `text` replaced by `[redacted]` (wherever it appears). */
export function redactSecrets(text: string) {
  return text.replace(TOKEN_SEGMENT, "$1[redacted]").replace(TOKEN_PARAM, "$1[redacted]");
}

/**
 * A URL as it may be logged: the path with its token segment redacted, and never the query
 * (which carries the other tokens). Absolute URLs (Referer, Location) keep their origin.
 */
export function redactUrl(url: string | undefined) {
  if (!url) return url;
  const end = url.search(/[?#]/);
  const withoutQuery = end < 0 ? url : url.slice(0, end);
  return redactSecrets(withoutQuery);
}

/** Request and response headers that carry a URL, which may hold a token. */
const URL_HEADERS = new Set(["referer", "location", "content-location", "refresh"]);
const SECRET_HEADERS = new Set(["cookie", "authorization", "set-cookie", "proxy-authorization"]);

export function redactHeaders(headers: Record<string, unknown> | undefined) {
  if (!headers) return headers;
  const redacted: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (SECRET_HEADERS.has(key)) redacted[name] = "[Redacted]";
    else if (URL_HEADERS.has(key)) redacted[name] = redactUrl(String(value));
    else redacted[name] = value;
  }
  return redacted;
}

export function createLogger(destination?: DestinationStream) {
  return pino(
    {
      level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
      base: { service: "kongamano" },
      redact: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
      // The last check on every line, whatever logged it (an error message naming the URL, a
      // library's warning): a token that reached a field is still not written.
      hooks: { streamWrite: redactSecrets },
    },
    destination,
  );
}

export const logger = createLogger();
