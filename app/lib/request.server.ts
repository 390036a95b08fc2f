/** Header the Express layer sets to the client address it trusts (socket, or TRUST_PROXY). */
export const CLIENT_IP_HEADER = "x-kongamano-client-ip";

/** The client address the server trusts (socket, or X-Forwarded-For from TRUST_PROXY only). */
export function clientIp(request: Request) {
  return request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
}

export function userAgent(request: Request) {
  return request.headers.get("user-agent")?.slice(0, 400) ?? null;
}
