import { CLIENT_IP_HEADER, getAuth } from "~/lib/auth.server";

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
