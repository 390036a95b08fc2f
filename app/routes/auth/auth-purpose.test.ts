import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_IP_HEADER } from "~/lib/auth.server";
import { setEnv } from "~/lib/env.server";
import { insertEvent } from "~/models/registrations/test-fixtures";
import { useTestDatabase } from "../../../tests/helpers/db";
import { testEnv } from "../../../tests/helpers/env";
import { startTestSmtp } from "../../../tests/helpers/smtp";
import { action, loader } from "./auth";

// Issue 30, "context kept across the account wall": the sign-in page says what the person is
// about to do, and a new account's verification link brings them back to where they started.

describe("the account wall keeps the context", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    setEnv(testEnv({ SMTP_URL: smtp.url }));
  });
  afterAll(async () => {
    await smtp.close();
  });

  const load = (query: string) =>
    loader({
      request: new Request(`http://localhost/auth?${query}`),
      params: {},
      context: {},
    } as never);

  it("names the event, the plan or the invitation the person came from", async () => {
    const event = await insertEvent(database.db, { title: "Records Week Mombasa 2027" });
    const registerPath = `/events/${event.slug}/register?fee=abc`;
    const forEvent = await load(new URLSearchParams({ redirectTo: registerPath }).toString());
    expect(forEvent.purpose).toEqual({
      signIn: "Sign in to register for Records Week Mombasa 2027.",
      signUp:
        "Create an account to register for Records Week Mombasa 2027. We will bring you back here once your e-mail address is verified.",
    });
    const plan = await load("redirectTo=%2Fmembership%2Fapply%2Fprofessional");
    expect(plan.purpose?.signIn).toBe("Sign in to apply for Professional membership.");
    const seat = await load("redirectTo=%2Fmembership%2Fseat%2Fsome-token");
    expect(seat.purpose?.signIn).toBe(
      "Sign in to accept your seat on your organisation's corporate membership.",
    );
    // A draft event is not named; the home page and foreign addresses say nothing special.
    const draft = await insertEvent(database.db, { title: "Secret Draft 2027", status: "draft" });
    const hidden = await load(`redirectTo=${encodeURIComponent(`/events/${draft.slug}/register`)}`);
    expect(hidden.purpose?.signIn).toBe("Sign in to register for this event.");
    expect((await load("")).purpose).toBeNull();
    expect(
      (await load("redirectTo=https%3A%2F%2Fevil.example%2Fevents%2Fx%2Fregister")).purpose,
    ).toBeNull();
  });

  it("sends a new account's verification link back to the page they started from, query kept", async () => {
    const back = "/events/records-week/register?fee=abc&quantity=2";
    const form = new URLSearchParams({
      intent: "sign-up",
      fullName: "Wanjiru Kamau",
      email: "wanjiru.wall@example.test",
      password: "Wall-Test-Pass-2027!",
      confirmPassword: "Wall-Test-Pass-2027!",
      redirectTo: back,
    });
    await action({
      request: new Request("http://localhost/auth?tab=signup", {
        method: "POST",
        body: form,
        headers: { [CLIENT_IP_HEADER]: "203.0.113.90" },
      }),
      params: {},
      context: {},
    } as never);
    const mail = await smtp.waitFor("wanjiru.wall@example.test");
    const link = /https?:\/\/\S+verify-email\S+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    expect(new URL(link as string).searchParams.get("callbackURL")).toBe(back);

    // A foreign address is never a landing: it falls back to the home page.
    form.set("email", "other.wall@example.test");
    form.set("redirectTo", "https://evil.example/steal");
    await action({
      request: new Request("http://localhost/auth?tab=signup", {
        method: "POST",
        body: form,
        headers: { [CLIENT_IP_HEADER]: "203.0.113.91" },
      }),
      params: {},
      context: {},
    } as never);
    const other = await smtp.waitFor("other.wall@example.test");
    const otherLink = /https?:\/\/\S+verify-email\S+/.exec(other.text)?.[0] as string;
    expect(new URL(otherLink).searchParams.get("callbackURL")).toBe("/");
  });
});
