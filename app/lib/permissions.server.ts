import { redirect } from "react-router";
import { authCookieName, getAuth, type SessionUser } from "./auth.server";
import { env } from "./env.server";
import { logger } from "./logger.server";
import { queueResponseCookies } from "./response-cookies.server";
import { hasRole, normaliseRole, type Role } from "./roles";
import { redirectWithToast } from "./toast.server";

export const ACCESS_DENIED = "Access Denied: You don't have permission to access this area.";
export const ADMIN_MFA_REQUIRED =
  "Set up two-factor authentication on your profile before opening the admin area.";

/** Whether this role must enrol two-factor before the back office opens (REQUIRE_*_MFA). */
export function twoFactorRequiredFor(role: Role) {
  const config = env();
  return (
    (role === "admin" && config.REQUIRE_ADMIN_MFA) ||
    (role === "editor" && config.REQUIRE_EDITOR_MFA)
  );
}

// One session read per request, however many loaders ask (root + route + layout).
const sessionReads = new WeakMap<Request, Promise<SessionUser | null>>();

/** The signed-in user, or null. A failed read counts as signed out; a failed role read as `user`. */
export function getOptionalUser(request: Request): Promise<SessionUser | null> {
  let read = sessionReads.get(request);
  if (!read) {
    read = readSessionUser(request);
    sessionReads.set(request, read);
  }
  return read;
}

async function readSessionUser(request: Request): Promise<SessionUser | null> {
  // Without a session cookie there is no session: anonymous requests skip better-auth entirely.
  const cookies = request.headers.get("Cookie");
  if (!cookies?.includes(authCookieName(env(), "session_token"))) return null;
  try {
    const { headers, response: result } = await getAuth().api.getSession({
      headers: request.headers,
      returnHeaders: true,
    });
    // A session in use is renewed once a day (or cleared when it ended): pass the cookie on.
    queueResponseCookies(request, headers.getSetCookie());
    if (!result) return null;
    const u = result.user as Record<string, unknown>;
    const twoFactorEnabled = Boolean(u.twoFactorEnabled);
    return {
      id: String(u.id),
      email: String(u.email),
      name: String(u.name ?? ""),
      role: normaliseRole(u.role),
      emailVerified: Boolean(u.emailVerified),
      twoFactorEnabled,
      // Sign-in always asks for the second factor once one is enrolled, and enrolling proves it.
      aal: twoFactorEnabled ? "aal2" : "aal1",
      createdAt: new Date(u.createdAt as string),
      updatedAt: new Date(u.updatedAt as string),
    };
  } catch (error) {
    logger.warn({ err: error }, "session read failed");
    return null;
  }
}

function isMutation(request: Request) {
  return request.method !== "GET" && request.method !== "HEAD";
}

function signInUrl(request: Request) {
  const url = new URL(request.url);
  return `/auth?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
}

/** Signed-in user or a redirect to /auth (GET) / 401 (mutations). */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getOptionalUser(request);
  if (user) return user;
  if (isMutation(request)) throw new Response("Authentication required", { status: 401 });
  throw redirect(signInUrl(request));
}

/**
 * Editor/admin gate for every admin loader and action (spec §6).
 * Anonymous: → `anonymousTo` (default `/`; the dashboard passes `/auth`); mutations get 401.
 * Signed in without the role: GET → `/` with the Access Denied toast; mutations → 403.
 * An admin (REQUIRE_ADMIN_MFA, on by default) or editor (REQUIRE_EDITOR_MFA) without two-factor
 * is sent to enrol it first.
 */
export async function requireRole(
  request: Request,
  role: Role | readonly Role[],
  options: { anonymousTo?: string } = {},
): Promise<SessionUser> {
  const user = await getOptionalUser(request);
  if (!user) {
    if (isMutation(request)) throw new Response("Authentication required", { status: 401 });
    const to = options.anonymousTo ?? "/";
    throw redirect(to === "/auth" ? signInUrl(request) : to);
  }
  if (!hasRole(user.role, role)) {
    if (isMutation(request)) throw new Response("Forbidden", { status: 403 });
    throw await redirectWithToast("/", { type: "error", title: ACCESS_DENIED });
  }
  if (!user.twoFactorEnabled && twoFactorRequiredFor(user.role)) {
    if (isMutation(request)) throw new Response(ADMIN_MFA_REQUIRED, { status: 403 });
    throw await redirectWithToast("/profile#two-factor", {
      type: "info",
      title: "Two-factor authentication required",
      description: ADMIN_MFA_REQUIRED,
    });
  }
  return user;
}

export { hasRole, normaliseRole };
