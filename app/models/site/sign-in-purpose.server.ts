// What a person is about to do when the account wall stops them (issue 30, "context kept across
// the account wall"): the sign-in page names it ("Sign in to register for …") instead of a bare
// "Welcome", read from the page they are sent back to afterwards.
import { and, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { events } from "~/db/schema";
import { PLAN_IDS, PLAN_NAMES } from "~/models/membership/plans";

export type SignInPurpose = { signIn: string; signUp: string };

const purpose = (what: string): SignInPurpose => ({
  signIn: `Sign in to ${what}.`,
  signUp: `Create an account to ${what}. We will bring you back here once your e-mail address is verified.`,
});

/**
 * The purpose of the page at `path` (an already safe, same-origin path), or null when it says
 * nothing worth telling (the home page, unknown pages). Only published events are named.
 */
export async function signInPurpose(path: string): Promise<SignInPurpose | null> {
  const { pathname } = new URL(path, "http://kongamano.invalid");
  const register = /^\/events\/([^/]+)\/register\/?$/.exec(pathname);
  if (register) {
    const slug = decodeURIComponent(register[1]).slice(0, 200);
    const [event] = await getDb()
      .select({ title: events.title })
      .from(events)
      .where(and(eq(events.slug, slug), eq(events.status, "published")))
      .limit(1);
    return purpose(event ? `register for ${event.title}` : "register for this event");
  }
  const apply = /^\/membership\/apply\/([^/]+)\/?$/.exec(pathname);
  if (apply) {
    const plan = PLAN_IDS.find((id) => id === apply[1].toLowerCase());
    return purpose(plan ? `apply for ${PLAN_NAMES[plan]} membership` : "apply for membership");
  }
  if (/^\/membership\/seat\/[^/]+\/?$/.test(pathname)) {
    return purpose("accept your seat on your organisation's corporate membership");
  }
  if (/^\/membership\/renew\//.test(pathname)) return purpose("renew your membership");
  if (pathname === "/membership/card") return purpose("see your membership card");
  if (/^\/orders\/[^/]+\/?$/.test(pathname)) return purpose("see your order and pay for it");
  if (/^\/registrations\/[^/]+\/?$/.test(pathname))
    return purpose("see your registration and tickets");
  if (pathname.startsWith("/profile")) return purpose("see your profile");
  if (pathname === "/offices" || pathname === "/contact") {
    return purpose("see our offices' contact details");
  }
  if (pathname.startsWith("/admin")) {
    return {
      signIn: "Sign in to the back office.",
      signUp: "Staff accounts are created by invitation.",
    };
  }
  return null;
}
