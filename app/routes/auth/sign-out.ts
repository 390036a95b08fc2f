import { redirect } from "react-router";
import { recordAudit } from "~/lib/audit.server";
import { appendSetCookies, authErrorMessage, getAuth } from "~/lib/auth.server";
import { getOptionalUser } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/sign-out";

// Signing out changes state, so only POST does it; a GET just goes home.
export function loader() {
  return redirect("/");
}

export async function action({ request }: Route.ActionArgs) {
  const user = await getOptionalUser(request);
  try {
    const { headers } = await getAuth().api.signOut({
      headers: request.headers,
      returnHeaders: true,
    });
    if (user) {
      await recordAudit(request, {
        action: "auth.sign_out",
        actorId: user.id,
        entity: "user",
        entityId: user.id,
      });
    }
    return await redirectWithToast(
      "/",
      {
        type: "success",
        title: "Signed out",
        description: "You have been signed out successfully.",
      },
      { headers: appendSetCookies(new Headers(), headers) },
    );
  } catch (error) {
    return redirectWithToast("/", {
      type: "error",
      title: "Sign out failed",
      description: authErrorMessage(error),
    });
  }
}
