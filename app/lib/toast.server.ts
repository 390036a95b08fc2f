import { createCookieSessionStorage, redirect } from "react-router";
import { z } from "zod";
import { env } from "./env.server";

export const ToastSchema = z.object({
  type: z.enum(["success", "error", "info"]).default("info"),
  title: z.string(),
  description: z.string().optional(),
});
export type Toast = z.input<typeof ToastSchema>;

type ToastSession = { toast: z.output<typeof ToastSchema> };
let storage: ReturnType<typeof createCookieSessionStorage<ToastSession, ToastSession>> | undefined;
function toastStorage() {
  storage ??= createCookieSessionStorage<ToastSession, ToastSession>({
    cookie: {
      name: "kongamano_toast",
      sameSite: "lax",
      path: "/",
      httpOnly: true,
      secrets: [env().SESSION_SECRET],
      secure: env().BASE_URL.startsWith("https://"),
    },
  });
  return storage;
}

/** A one-time toast carried across a redirect in a signed cookie. */
export async function createToastHeaders(toast: Toast) {
  const session = await toastStorage().getSession();
  session.flash("toast", ToastSchema.parse(toast));
  return new Headers({ "Set-Cookie": await toastStorage().commitSession(session) });
}

export async function redirectWithToast(url: string, toast: Toast, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  for (const cookie of (await createToastHeaders(toast)).getSetCookie()) {
    headers.append("Set-Cookie", cookie);
  }
  return redirect(url, { ...init, headers });
}

/** Reads (and clears) the pending toast; returns the headers that clear it. */
export async function getToast(request: Request) {
  const session = await toastStorage().getSession(request.headers.get("Cookie"));
  const parsed = ToastSchema.safeParse(session.get("toast"));
  const toast = parsed.success ? parsed.data : null;
  const headers = toast
    ? new Headers({ "Set-Cookie": await toastStorage().destroySession(session) })
    : null;
  return { toast, headers };
}
