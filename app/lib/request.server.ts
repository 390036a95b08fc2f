/** Header the Express layer sets to the client address it trusts (socket, or TRUST_PROXY). */
export const CLIENT_IP_HEADER = "x-kongamano-client-ip";

/** The client address the server trusts (socket, or X-Forwarded-For from TRUST_PROXY only). */
export function clientIp(request: Request) {
  return request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
}

export function userAgent(request: Request) {
  return request.headers.get("user-agent")?.slice(0, 400) ?? null;
}

/**
 * A plain form post or link, as a browser without JavaScript sends it (`Sec-Fetch-Dest:
 * document`), rather than a fetch by the app's router. A fetcher's redirect becomes a navigation
 * that interrupts any other in flight, so a side action (the inbox's read toggle, decision 0129)
 * answers fetchers with data and redirects documents only. A client that does not say is treated
 * as a document.
 */
export function isDocumentRequest(request: Request) {
  const dest = request.headers.get("sec-fetch-dest");
  return dest === null || dest === "document";
}
