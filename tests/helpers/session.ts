import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { session, user } from "~/db/schema";
import {
  authCookieName,
  CLIENT_IP_HEADER,
  getAuth,
  upsertUserWithPassword,
} from "~/lib/auth.server";
import { env } from "~/lib/env.server";
import { twoFactorRequiredFor } from "~/lib/permissions.server";
import { normaliseRole } from "~/lib/roles";

/**
 * A session cookie for `userId` as better-auth writes it after a completed sign-in (the second
 * factor included): a session row and its token signed with the auth secret. No password hash
 * is checked, so a test can open many sessions quickly.
 */
export async function sessionCookieFor(userId: string, clientIp = "198.51.100.250") {
  const token = randomBytes(24).toString("base64url");
  await getDb()
    .insert(session)
    .values({
      id: randomUUID(),
      token,
      userId,
      ipAddress: clientIp,
      expiresAt: new Date(Date.now() + 14 * 24 * 3600 * 1000),
    });
  const { secret } = await getAuth().$context;
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signature = Buffer.from(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(token)),
  ).toString("base64");
  return `${authCookieName(env(), "session_token")}=${encodeURIComponent(`${token}.${signature}`)}`;
}

/**
 * Signs `email` in through better-auth and returns the session as a `cookie` header value.
 * Staff whose role must enrol two-factor (REQUIRE_EDITOR_MFA is on by default) come back
 * enrolled, as they would be after the enrolment step: the first sign-in marks the account as
 * enrolled, a later one (which better-auth stops at the second factor) gets the session the
 * factor would have opened.
 */
export async function sessionCookie(email: string, password: string, clientIp: string) {
  const result = await getAuth().api.signInEmail({
    body: { email, password },
    headers: new Headers({ [CLIENT_IP_HEADER]: clientIp }),
    returnHeaders: true,
  });
  const [account] = await getDb()
    .select({ id: user.id, role: user.role, twoFactorEnabled: user.twoFactorEnabled })
    .from(user)
    .where(eq(user.email, email.trim().toLowerCase()));
  if ("twoFactorRedirect" in result.response && result.response.twoFactorRedirect) {
    return sessionCookieFor(account.id, clientIp);
  }
  if (account && !account.twoFactorEnabled && twoFactorRequiredFor(normaliseRole(account.role))) {
    await getDb().update(user).set({ twoFactorEnabled: true }).where(eq(user.id, account.id));
  }
  return result.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

export type RouteRole = "admin" | "editor" | "user" | "anonymous";

/**
 * Creates an admin, an editor and a plain user with a password and signs each in from its own
 * address: their session cookies by role (`anonymous` has none). For route tests. The editor
 * (and the admin, when REQUIRE_ADMIN_MFA is on) has two-factor enrolled, as the back office asks.
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

/**
 * Whom a route test's next requests come from: `as("editor")` puts that role's real session
 * cookie on them (signInEachRole, signed in on first use, once per file); "anonymous", none.
 */
export function routeVisitor() {
  let cookies: Promise<Record<RouteRole, string>> | undefined;
  let role: RouteRole = "anonymous";
  return {
    as(next: RouteRole) {
      role = next;
    },
    async headers(init?: HeadersInit) {
      const headers = new Headers(init);
      if (role !== "anonymous") {
        cookies ??= signInEachRole();
        headers.set("cookie", (await cookies)[role]);
      }
      return headers;
    },
  };
}
