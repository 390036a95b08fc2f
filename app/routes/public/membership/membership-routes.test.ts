import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { membershipSeats, membershipTerms, user } from "~/db/schema";
import { CLIENT_IP_HEADER, getAuth } from "~/lib/auth.server";
import { setEnv } from "~/lib/env.server";
import { runDueJobs, runSchedulesAsOf } from "~/models/jobs.server";
import { MEMBERSHIP_JOBS } from "~/models/membership/job-kinds";
import {
  applyForMembership,
  approveApplication,
  inviteSeat,
  SEAT_EXPIRED,
  SEAT_NOT_FOR_YOU,
} from "~/models/membership/membership.server";
import { renewalToken } from "~/models/membership/renewal-link.server";
import { recordPayment } from "~/models/orders/orders.server";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../../tests/helpers/db";
import { testEnv } from "../../../../tests/helpers/env";
import { startTestSmtp } from "../../../../tests/helpers/smtp";
import { loader as renewalPdfLoader } from "../../api/membership-renewal-invoice-pdf";
import { action as applyAction } from "./apply";
import { action as renewAction, loader as renewLoader } from "./renew";
import { action as seatAction } from "./seat";
import { loader as verifyLoader } from "./verify";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

const DAY = 86_400_000;

async function answer(
  fn: (args: never) => unknown,
  request: Request,
  params: Record<string, string>,
) {
  try {
    const result = await fn({ request, params, context: {} } as never);
    if (result instanceof Response) return { status: result.status, response: result };
    const init = (result as { init?: ResponseInit; data?: unknown }).init;
    if (init) return { status: init.status ?? 200, body: (result as { data: unknown }).data };
    return { status: 200, body: result };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, response: thrown };
    const init = (thrown as { init?: ResponseInit }).init;
    if (init) return { status: init.status ?? 500, body: (thrown as { data: unknown }).data };
    throw thrown;
  }
}

describe("membership pages", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let cookie = "";
  const email = "applicant.routes@example.test";
  let member: { id: string; membershipId: string; cardCode: string; endsAt: Date };

  beforeAll(async () => {
    smtp = await startTestSmtp();
    setEnv(testEnv({ SMTP_URL: smtp.url }));
    const headers = new Headers({ [CLIENT_IP_HEADER]: "203.0.113.77" });
    await getAuth().api.signUpEmail({
      body: { email, password: "Member-Test-Pass-1", name: "Achieng Routes" },
      headers,
    });
    await database.db
      .update(user)
      .set({ emailVerified: true })
      .where(sql`${user.email} = ${email}`);
    const signedIn = await getAuth().api.signInEmail({
      body: { email, password: "Member-Test-Pass-1" },
      headers,
      returnHeaders: true,
    });
    cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");

    // Another person is an active member whose renewal is open.
    const otherId = crypto.randomUUID();
    await database.db.insert(user).values({
      id: otherId,
      name: "Baraka Member",
      email: "baraka.routes@example.test",
    });
    const applied = await applyForMembership(
      { id: otherId, name: "Baraka Member", email: "baraka.routes@example.test" },
      { plan: "professional", memberName: "Baraka Member" },
    );
    await recordPayment(
      {
        method: "bank_transfer",
        reference: "FTROUTES01",
        amountMinor: 299_00,
        currency: "USD",
        paidAt: new Date(),
        invoiceNumber: applied.invoiceNumber as string,
      },
      { system: "test" },
    );
    while ((await runDueJobs({ limit: 50 })) > 0) {}
    const [term] = await database.db
      .select()
      .from(membershipTerms)
      .where(sql`${membershipTerms.membershipId} = ${applied.membership.id}`);
    member = {
      id: otherId,
      membershipId: applied.membership.id,
      cardCode: applied.membership.cardCode,
      endsAt: term.endsAt as Date,
    };
  });
  afterAll(async () => {
    await smtp.close();
  });

  /** A verified account, signed in: its id and session cookie. */
  async function signedIn(address: string, name: string) {
    const headers = new Headers({ [CLIENT_IP_HEADER]: "203.0.113.78" });
    await getAuth().api.signUpEmail({
      body: { email: address, password: "Member-Test-Pass-1", name },
      headers,
    });
    await database.db
      .update(user)
      .set({ emailVerified: true })
      .where(sql`${user.email} = ${address}`);
    const session = await getAuth().api.signInEmail({
      body: { email: address, password: "Member-Test-Pass-1" },
      headers,
      returnHeaders: true,
    });
    const [row] = await database.db
      .select({ id: user.id })
      .from(user)
      .where(sql`${user.email} = ${address}`);
    const sessionCookie = session.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return { id: row.id, cookie: sessionCookie };
  }

  /** A paid membership of `plan` for the person (Corporate approved by staff first). */
  async function paidMembership(
    who: { id: string; name: string; email: string },
    plan: "individual" | "corporate",
  ) {
    const applied = await applyForMembership(who, {
      plan,
      memberName: who.name,
      ...(plan === "corporate"
        ? {
            organisationName: "Seat Routes Ltd",
            taxId: "P051234567X",
            billingContactEmail: who.email,
          }
        : {}),
    });
    const invoice =
      plan === "corporate"
        ? (await approveApplication(applied.membership.id, { system: "test" })).invoiceNumber
        : applied.invoiceNumber;
    await recordPayment(
      {
        method: "bank_transfer",
        reference: `FT${crypto.randomUUID().slice(0, 10)}`,
        amountMinor: plan === "corporate" ? 999_00 : 99_00,
        currency: "USD",
        paidAt: new Date(),
        invoiceNumber: invoice as string,
      },
      { system: "test" },
    );
    while ((await runDueJobs({ limit: 50 })) > 0) {}
    return applied.membership.id;
  }

  function post(path: string, form: FormData, sessionCookie = "") {
    return new Request(`http://localhost:3000${path}`, {
      method: "POST",
      body: form,
      headers: { cookie: sessionCookie, origin: "http://localhost:3000" },
    });
  }

  it("takes an active member's Corporate application as an upgrade for review, with the same required fields", async () => {
    const address = "upgrader.routes@example.test";
    const account = await signedIn(address, "Upgrader Routes");
    const membershipId = await paidMembership(
      { id: account.id, name: "Upgrader Routes", email: address },
      "individual",
    );
    const form = new FormData();
    form.set("plan", "corporate");
    form.set("memberName", "Upgrader Routes");
    form.set("organisationName", "Upgrader Ltd");
    const missing = await answer(
      applyAction as never,
      post("/membership/apply/corporate", form, account.cookie),
      { plan: "corporate" },
    );
    expect(missing.status).toBe(400);
    const reply = (
      missing.body as {
        result: { error: Record<string, string[]>; initialValue: Record<string, string> };
      }
    ).result;
    expect(reply.error.taxId).toEqual(["Enter the KRA PIN or VAT number"]);
    expect(reply.error.billingContactEmail).toEqual(["Enter the billing contact's e-mail address"]);
    expect(reply.initialValue.organisationName).toBe("Upgrader Ltd");

    form.set("taxId", "P051234567X");
    form.set("billingContactEmail", "accounts@upgrader.example.test");
    const requested = await answer(
      applyAction as never,
      post("/membership/apply/corporate", form, account.cookie),
      { plan: "corporate" },
    );
    expect(requested.status).toBe(302);
    expect(requested.response?.headers.get("location")).toBe("/profile#membership");
    // Waiting for staff: no upgrade invoice yet.
    const terms = await database.db
      .select()
      .from(membershipTerms)
      .where(sql`${membershipTerms.membershipId} = ${membershipId}`);
    expect(terms.map((t) => t.kind)).toEqual(["join"]);
  });

  it("tells a wrong signed-in account only that the seat is not theirs, and refuses an expired one", async () => {
    const contact = {
      id: crypto.randomUUID(),
      name: "Seat Contact",
      email: "seat.contact.routes@example.test",
    };
    await database.db.insert(user).values(contact);
    const membershipId = await paidMembership(contact, "corporate");
    const invited = "invited.colleague.routes@example.test";
    await inviteSeat(membershipId, invited, { id: contact.id, role: "user" });
    while ((await runDueJobs({ limit: 50 })) > 0) {}
    const mail = await smtp.waitFor(invited, /added you to its Kongamano membership/);
    const token = mail.text.match(/\/membership\/seat\/(\S+)/)?.[1] as string;

    const wrong = await answer(
      seatAction as never,
      post(`/membership/seat/${token}`, new FormData(), cookie),
      { token },
    );
    expect(wrong.status).toBe(403);
    expect((wrong.body as { error: string }).error).toBe(SEAT_NOT_FOR_YOU);
    expect(JSON.stringify(wrong.body)).not.toContain(invited);

    const colleague = await signedIn(invited, "Invited Colleague");
    await database.db
      .update(membershipSeats)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(sql`${membershipSeats.email} = ${invited}`);
    const expired = await answer(
      seatAction as never,
      post(`/membership/seat/${token}`, new FormData(), colleague.cookie),
      { token },
    );
    expect(expired.status).toBe(410);
    expect((expired.body as { error: string }).error).toBe(SEAT_EXPIRED);
  });

  it("opens the renewal invoice from the reminder's link without signing in", async () => {
    await runSchedulesAsOf(new Date(member.endsAt.getTime() - 30 * DAY), [MEMBERSHIP_JOBS.sweep]);
    while ((await runDueJobs({ limit: 50 })) > 0) {}
    const mail = await smtp.waitFor("baraka.routes@example.test", /ends in 30 days/);
    const token = mail.text.match(/\/membership\/renew\/(\S+)/)?.[1] as string;
    const page = await answer(
      renewLoader as never,
      new Request(`http://localhost:3000/membership/renew/${token}`),
      { token },
    );
    expect(page.status).toBe(200);
    const body = page.body as { invoice: { number: string; due: string; instructions: unknown[] } };
    expect(body.invoice.number).toMatch(/^INV-\d{4}-\d{6}$/);
    expect(body.invoice.due).toBe("USD 299.00");
    const pdf = await answer(renewalPdfLoader as never, new Request("http://localhost:3000/x"), {
      token,
    });
    expect(pdf.response?.headers.get("content-type")).toBe("application/pdf");

    const tampered = await answer(renewLoader as never, new Request("http://localhost:3000/x"), {
      token: `${token.slice(0, -3)}abc`,
    });
    expect(tampered.status).toBe(404);
    const expired = renewalToken(member.membershipId, new Date(Date.now() - 1000));
    const old = await answer(renewLoader as never, new Request("http://localhost:3000/x"), {
      token: expired,
    });
    expect(old.status).toBe(410);

    // A well-signed link whose membership no longer exists is refused, not a server error.
    const orphan = renewalToken(crypto.randomUUID(), new Date(Date.now() + DAY));
    const posted = await answer(
      renewAction as never,
      post(`/membership/renew/${orphan}`, new FormData()),
      { token: orphan },
    );
    expect(posted.status).toBe(404);
  });

  it("verifies a card publicly with name, plan and validity only", async () => {
    const page = await answer(verifyLoader as never, new Request("http://localhost:3000/x"), {
      code: member.cardCode,
    });
    expect(page.status).toBe(200);
    expect(Object.keys(page.body as object).sort()).toEqual([
      "current",
      "inGrace",
      "memberName",
      "plan",
      "seatOf",
      "validUntil",
    ]);
    expect(page.body).toMatchObject({
      memberName: "Baraka Member",
      plan: "Professional",
      current: true,
    });
    const unknown = await answer(verifyLoader as never, new Request("http://localhost:3000/x"), {
      code: "not-a-card",
    });
    expect(unknown.status).toBe(404);
  });

  it("answers a Corporate application without an organisation with 400, keeping what was typed", async () => {
    const form = new FormData();
    form.set("plan", "corporate");
    form.set("memberName", "Achieng Routes");
    form.set("billingContactName", "Accounts Desk");
    const result = await answer(
      applyAction as never,
      new Request("http://localhost:3000/membership/apply/corporate", {
        method: "POST",
        body: form,
        headers: { cookie, origin: "http://localhost:3000" },
      }),
      { plan: "corporate" },
    );
    expect(result.status).toBe(400);
    const reply = (
      result.body as {
        result: { error: Record<string, string[]>; initialValue: Record<string, string> };
      }
    ).result;
    expect(reply.error.organisationName).toEqual(["Enter the organisation's name"]);
    expect(reply.initialValue.billingContactName).toBe("Accounts Desk");
  });

  it("creates the invoice for an Individual application", async () => {
    const form = new FormData();
    form.set("plan", "individual");
    form.set("memberName", "Achieng Routes");
    const result = await answer(
      applyAction as never,
      new Request("http://localhost:3000/membership/apply/individual", {
        method: "POST",
        body: form,
        headers: { cookie, origin: "http://localhost:3000" },
      }),
      { plan: "individual" },
    );
    expect(result.status).toBe(302);
    expect(result.response?.headers.get("location")).toMatch(/^\/orders\/[0-9a-f-]{36}$/);
  });
});
