import { appendSetCookies, getAuth } from "~/lib/auth.server";
import { env } from "~/lib/env.server";
import { requireRole } from "~/lib/permissions.server";
import { createToastHeaders, type Toast } from "~/lib/toast.server";
import type { Route } from "./+types/auth";

/**
 * better-auth answers over HTTP only what the site needs from a browser or a script (decision
 * 0016); everything else (admin, account, session, two-factor endpoints…) is a 404 here and is
 * reached only through the app's own actions, which apply the audit log, the last-admin rule,
 * e-mail masking and the admin two-factor requirement. Rate limits, the common-password rule, the
 * TOTP replay guard and the sign-in audit run inside better-auth (hooks), so they apply here and
 * to the app's actions alike.
 */
const OPEN_ENDPOINTS: { method: "GET" | "POST"; path: RegExp }[] = [
  { method: "GET", path: /^\/verify-email$/ }, // the link in verification mails
  { method: "GET", path: /^\/reset-password\/[^/]+$/ }, // the link in reset mails
  { method: "POST", path: /^\/sign-in\/email$/ }, // the same rules as the /auth form
  { method: "POST", path: /^\/sign-up\/email$/ },
  { method: "GET", path: /^\/error$/ }, // where better-auth sends a failed link
];
/** Only with ALLOW_IMPERSONATION: admins (with two-factor when required), audited. */
const IMPERSONATION_ENDPOINTS = [
  { method: "POST", path: /^\/admin\/impersonate-user$/, admin: true },
  { method: "POST", path: /^\/admin\/stop-impersonating$/, admin: false },
];

export function loader({ request }: Route.LoaderArgs) {
  return handle(request);
}

export function action({ request }: Route.ActionArgs) {
  return handle(request);
}

async function handle(request: Request) {
  const url = new URL(request.url);
  const path = url.pathname.replace(/^\/api\/auth/, "");
  const allowed = (e: { method: string; path: RegExp }) =>
    e.method === request.method && e.path.test(path);
  if (!OPEN_ENDPOINTS.some(allowed)) {
    const impersonation = env().ALLOW_IMPERSONATION && IMPERSONATION_ENDPOINTS.find(allowed);
    if (!impersonation) return new Response("Not Found", { status: 404 });
    // Starting needs an admin who passes the back office's own gate (role and two-factor).
    if (impersonation.admin) await requireRole(request, "admin");
  }
  const response = await getAuth().handler(request);
  if (path === "/sign-in/email" && response.status === 403)
    return withUnverifiedAsInvalid(response);
  if (path === "/verify-email" && isRedirect(response)) {
    return withVerificationToast(response, url);
  }
  return response;
}

/**
 * The sign-in hook answers an unverified account like a wrong password; over HTTP better-auth
 * keeps the first error's status (403) with the replaced body, so the status is set here.
 */
async function withUnverifiedAsInvalid(response: Response) {
  const body = await response.text();
  const code = (JSON.parse(body || "{}") as { code?: string }).code;
  const status = code === "INVALID_EMAIL_OR_PASSWORD" ? 401 : response.status;
  return new Response(body, { status, headers: response.headers });
}

function isRedirect(response: Response) {
  return response.status >= 300 && response.status < 400 && response.headers.has("location");
}

/** The verification link lands on a page that says what happened. */
async function withVerificationToast(response: Response, url: URL) {
  const target = new URL(response.headers.get("location") ?? "/", url);
  const failed = target.searchParams.has("error");
  const toast: Toast = failed
    ? {
        type: "error",
        title: "Verification failed",
        description: "This verification link is invalid or has expired. Sign in to get a new one.",
      }
    : target.pathname === "/profile"
      ? {
          type: "success",
          title: "Email updated",
          description: "Your new email address is verified and now in use.",
        }
      : {
          type: "success",
          title: "Email verified",
          description: "Your email address is verified and you are signed in.",
        };
  const headers = new Headers(response.headers);
  appendSetCookies(headers, await createToastHeaders(toast));
  if (failed) headers.set("location", "/auth");
  return new Response(null, { status: response.status, headers });
}
