/**
 * Request URLs as they are logged: the tokens in reset, verification and invitation links are
 * keys to accounts, so they never reach the logs (an operator without SMTP finds the links in
 * DATA_DIR/outbox/).
 */
const SECRET_PATHS = [/^(\/api\/auth\/reset-password\/)[^/?#]+/, /^(\/invite\/)[^/?#]+/];
const SECRET_PARAMS = ["token", "code", "otp"];

export function redactUrl(url: string | undefined) {
  if (!url) return url;
  const queryAt = url.indexOf("?");
  let path = queryAt < 0 ? url : url.slice(0, queryAt);
  for (const pattern of SECRET_PATHS) path = path.replace(pattern, "$1[redacted]");
  if (queryAt < 0) return path;
  const query = new URLSearchParams(url.slice(queryAt + 1));
  for (const name of SECRET_PARAMS) if (query.has(name)) query.set(name, "[redacted]");
  return `${path}?${query.toString().replaceAll("%5Bredacted%5D", "[redacted]")}`;
}
