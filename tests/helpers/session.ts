import { CLIENT_IP_HEADER, getAuth, upsertUserWithPassword } from "~/lib/auth.server";

/** Signs `email` in through better-auth and returns the session as a `cookie` header value. */
export async function sessionCookie(email: string, password: string, clientIp: string) {
  const result = await getAuth().api.signInEmail({
    body: { email, password },
    headers: new Headers({ [CLIENT_IP_HEADER]: clientIp }),
    returnHeaders: true,
  });
  return result.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

export type RouteRole = "admin" | "editor" | "user" | "anonymous";

/**
 * Creates an admin, an editor and a plain user with a password and signs each in from its own
 * address: their session cookies by role (`anonymous` has none). For route tests.
 */
export async function signInEachRole(): Promise<Record<RouteRole, string>> {
  const password = "Route-test-pass-42";
  const cookies: Record<RouteRole, string> = { admin: "", editor: "", user: "", anonymous: "" };
  let ip = 1;
  for (const [email, role] of [
    ["root@example.com", "admin"],
    ["ed@example.com", "editor"],
    ["jane@example.com", "user"],
  ] as const) {
    await upsertUserWithPassword({ email, name: `Test ${role}`, password, role });
    cookies[role] = await sessionCookie(email, password, `198.51.100.${ip++}`);
  }
  return cookies;
}
