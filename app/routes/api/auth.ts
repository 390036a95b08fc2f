import { appendSetCookies, getAuth } from "~/lib/auth.server";
import { createToastHeaders, type Toast } from "~/lib/toast.server";
import type { Route } from "./+types/auth";

// better-auth's endpoints (/api/auth/*): sign-in, sign-up, verification, reset, two-factor, ...
// Rate limits, the TOTP replay guard and the sign-in audit run inside better-auth (hooks), so
// they apply here and to the /auth form actions alike.
export function loader({ request }: Route.LoaderArgs) {
  return handle(request);
}

export function action({ request }: Route.ActionArgs) {
  return handle(request);
}

async function handle(request: Request) {
  const response = await getAuth().handler(request);
  const url = new URL(request.url);
  if (url.pathname === "/api/auth/verify-email" && isRedirect(response)) {
    return withVerificationToast(response, url);
  }
  return response;
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
