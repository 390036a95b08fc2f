import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { membershipTerms, user } from "~/db/schema";
import { setEnv } from "~/lib/env.server";
import { runDueJobs, runSchedulesAsOf } from "~/models/jobs.server";
import { MEMBERSHIP_JOBS } from "~/models/membership/job-kinds";
import {
  acceptSeat,
  applyForMembership,
  approveApplication,
  inviteSeat,
} from "~/models/membership/membership.server";
import { billingToken } from "~/models/membership/renewal-link.server";
import { recordPayment } from "~/models/orders/orders.server";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../../tests/helpers/db";
import { testEnv } from "../../../../tests/helpers/env";
import { sessionCookieFor, signInEachRole } from "../../../../tests/helpers/session";
import { startTestSmtp } from "../../../../tests/helpers/smtp";
import { loader as membersLoader } from "../../admin/members";
import { loader as membersCsvLoader } from "../../admin/members-csv";
import { loader as invoicePdfLoader } from "../../api/membership-billing-invoice-pdf";
import { loader as receiptPdfLoader } from "../../api/membership-billing-receipt-pdf";
import { loader as billingLoader } from "./billing";
import { loader as cardLoader } from "./card";
import { loader as verifyLoader } from "./verify";

// Issue 30 item 5 (decision 0094): a Corporate membership's applicant and billing contact each get
// their own mails, greeted by their own names; the billing contact's links work without an account
// (signed, expiring); a seat holder gets a card and is listed, marked, on /admin/members and its CSV.
wireProcess();

const DAY = 86_400_000;

async function answer(fn: (args: never) => unknown, request: Request, params = {}) {
  try {
    const result = await fn({ request, params, context: {} } as never);
    if (result instanceof Response) return { status: result.status, response: result };
    const init = (result as { init?: ResponseInit }).init;
    if (init) return { status: init.status ?? 200, body: (result as { data: unknown }).data };
    return { status: 200, body: result as Record<string, unknown> };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, response: thrown };
    const init = (thrown as { init?: ResponseInit }).init;
    if (init) return { status: init.status ?? 500, body: (thrown as { data: unknown }).data };
    throw thrown;
  }
}

const anonymous = (path: string) => new Request(`http://localhost:3000${path}`);

describe("Corporate membership: applicant, billing contact and seats", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let adminCookie = "";
  const applicant = {
    id: randomUUID(),
    name: "Wanjiru Applicant",
    email: "wanjiru.applicant@example.test",
  };
  const billing = { name: "Otieno Billing", email: "accounts@acme-corporate.example.test" };
  let membershipId = "";
  let invoiceNumber = "";
  let orderId = "";

  beforeAll(async () => {
    smtp = await startTestSmtp();
    setEnv(testEnv({ SMTP_URL: smtp.url }));
    adminCookie = (await signInEachRole()).admin;
    await database.db.insert(user).values(applicant);
    const applied = await applyForMembership(applicant, {
      plan: "corporate",
      // The name on the card is the organisation's: nobody is greeted by it.
      memberName: "Acme Records Ltd",
      organisationName: "Acme Records Ltd",
      taxId: "P051234567X",
      billingContactName: billing.name,
      billingContactEmail: billing.email,
    });
    membershipId = applied.membership.id;
    const approved = await approveApplication(membershipId, { system: "test" });
    invoiceNumber = approved.invoiceNumber;
    orderId = approved.orderId;
    while ((await runDueJobs({ limit: 50 })) > 0) {}
  });
  afterAll(async () => {
    await smtp.close();
  });

  const linkIn = (text: string) => text.match(/\/membership\/billing\/(\S+)/)?.[1] as string;

  it("mails the approval to the applicant and to the billing contact, each by their own name", async () => {
    const own = await smtp.waitFor(applicant.email, /application is approved/);
    expect(own.text).toContain(`Dear ${applicant.name},`);
    expect(own.text).not.toContain("Acme Records Ltd,");
    expect(own.text).toContain("/profile#membership");

    const theirs = await smtp.waitFor(billing.email, /Membership approved for Acme Records Ltd/);
    expect(theirs.text).toContain(`Dear ${billing.name},`);
    expect(theirs.text).toContain("You are its billing contact.");
    expect(theirs.text).not.toContain("/profile");
    expect(linkIn(theirs.text)).toBeTruthy();

    // The invoice itself goes to the billing contact, by name, with the signed link.
    const invoice = await smtp.waitFor(billing.email, new RegExp(`Invoice ${invoiceNumber}`));
    expect(invoice.text).toContain(`Dear ${billing.name},`);
    expect(invoice.text).not.toContain(`/orders/${orderId}`);
    expect(invoice.attachments[0]?.filename).toBe(`${invoiceNumber}.pdf`);
    expect(smtp.messages.filter((m) => m.to.includes(applicant.email))).toHaveLength(1);
  });

  it("opens the invoice and, once paid, the receipt from the billing contact's link without an account", async () => {
    const invoiceMail = await smtp.waitFor(billing.email, new RegExp(`Invoice ${invoiceNumber}`));
    const token = linkIn(invoiceMail.text);
    const page = await answer(billingLoader as never, anonymous(`/membership/billing/${token}`), {
      token,
    });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      member: "Acme Records Ltd",
      plan: "Corporate",
      invoice: { number: invoiceNumber, due: "USD 999.00" },
      receipts: [],
    });
    const pdf = await answer(invoicePdfLoader as never, anonymous("/x"), { token });
    expect(pdf.response?.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.response?.headers.get("content-disposition")).toContain(`${invoiceNumber}.pdf`);

    await recordPayment(
      {
        method: "bank_transfer",
        reference: "FT-CORP-0001",
        amountMinor: 999_00,
        currency: "USD",
        paidAt: new Date(),
        invoiceNumber,
      },
      { system: "test" },
    );
    while ((await runDueJobs({ limit: 50 })) > 0) {}
    const receiptMail = await smtp.waitFor(billing.email, /^Receipt /);
    expect(receiptMail.text).toContain(`Dear ${billing.name},`);
    const receiptToken = linkIn(receiptMail.text);
    const paid = await answer(
      billingLoader as never,
      anonymous(`/membership/billing/${receiptToken}`),
      { token: receiptToken },
    );
    const { receipts } = paid.body as { receipts: { id: string; number: string }[] };
    expect(receipts).toHaveLength(1);
    const receiptPdf = await answer(receiptPdfLoader as never, anonymous("/x"), {
      token: receiptToken,
      receiptId: receipts[0].id,
    });
    expect(receiptPdf.response?.headers.get("content-type")).toBe("application/pdf");
    const otherReceipt = await answer(receiptPdfLoader as never, anonymous("/x"), {
      token: receiptToken,
      receiptId: randomUUID(),
    });
    expect(otherReceipt.status).toBe(404);
  });

  it("answers an expired link with 410 and the next step, a tampered one with 404", async () => {
    const expired = billingToken(orderId, new Date(Date.now() - 1000));
    const old = await answer(billingLoader as never, anonymous("/x"), { token: expired });
    expect(old.status).toBe(410);
    expect(old.body).toMatchObject({
      title: "This billing link has expired",
      next: [{ href: "/contact", label: "Ask for a fresh link" }, { href: "/auth" }],
    });
    const expiredPdf = await answer(invoicePdfLoader as never, anonymous("/x"), {
      token: expired,
    });
    expect(expiredPdf.status).toBe(410);

    const valid = billingToken(orderId, new Date(Date.now() + DAY));
    for (const token of [
      `${valid.slice(0, -3)}abc`,
      // The same order id and expiry under the renewal link's signature: another purpose.
      valid.replace(orderId, randomUUID()),
      "not-a-token",
    ]) {
      const tampered = await answer(billingLoader as never, anonymous("/x"), { token });
      expect(tampered.status, token).toBe(404);
      expect(tampered.body).toMatchObject({ title: "This billing link is not valid" });
    }
    // A well-signed link to an order that is not a membership's opens nothing.
    const stranger = billingToken(randomUUID(), new Date(Date.now() + DAY));
    expect(
      (await answer(billingLoader as never, anonymous("/x"), { token: stranger })).status,
    ).toBe(404);
  });

  it("sends the renewal notice to both, each greeted by their own name", async () => {
    const [term] = await database.db
      .select({ endsAt: membershipTerms.endsAt })
      .from(membershipTerms)
      .where(eq(membershipTerms.membershipId, membershipId));
    await runSchedulesAsOf(new Date((term.endsAt as Date).getTime() - 30 * DAY), [
      MEMBERSHIP_JOBS.sweep,
    ]);
    while ((await runDueJobs({ limit: 50 })) > 0) {}
    const own = await smtp.waitFor(applicant.email, /ends in 30 days/);
    expect(own.text).toContain(`Dear ${applicant.name},`);
    expect(own.text).toContain("Your Corporate membership ends on");
    const theirs = await smtp.waitFor(billing.email, /ends in 30 days/);
    expect(theirs.text).toContain(`Dear ${billing.name},`);
    expect(theirs.text).toContain(
      `The Corporate membership of Acme Records Ltd (${applicant.name}) ends on`,
    );
    expect(theirs.text).toMatch(/\/membership\/renew\/\S+/);
  });

  it("gives a seat holder a card, and lists the seat, marked, on /admin/members and its CSV", async () => {
    const colleague = { id: randomUUID(), name: "Kamau Seat", email: "kamau.seat@example.test" };
    await database.db.insert(user).values({ ...colleague, emailVerified: true });
    await inviteSeat(membershipId, colleague.email, { id: applicant.id, role: "user" });
    while ((await runDueJobs({ limit: 50 })) > 0) {}
    const invitation = await smtp.waitFor(colleague.email, /added you/);
    const seatToken = invitation.text.match(/\/membership\/seat\/(\S+)/)?.[1] as string;
    const seat = await acceptSeat(seatToken, colleague);
    expect(seat.cardCode).toBeTruthy();

    const cookie = await sessionCookieFor(colleague.id);
    const card = await answer(
      cardLoader as never,
      new Request("http://localhost:3000/membership/card", { headers: { cookie } }),
    );
    expect(card.status).toBe(200);
    expect(card.body).toMatchObject({
      memberName: colleague.name,
      plan: "Corporate",
      seatOf: "Acme Records Ltd",
      current: true,
    });
    const verified = await answer(verifyLoader as never, anonymous("/x"), {
      code: seat.cardCode as string,
    });
    expect(verified.body).toMatchObject({
      memberName: colleague.name,
      plan: "Corporate",
      seatOf: "Acme Records Ltd",
      current: true,
    });

    const admin = (path: string) =>
      new Request(`http://localhost:3000${path}`, { headers: { cookie: adminCookie } });
    const page = await answer(membersLoader as never, admin("/admin/members"));
    const rows = (page.body as { members: { memberName: string; seatOf: string | null }[] })
      .members;
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ memberName: colleague.name, seatOf: "Acme Records Ltd" }),
        expect.objectContaining({ memberName: "Acme Records Ltd", seatOf: null }),
      ]),
    );
    const searched = await answer(membersLoader as never, admin("/admin/members?q=kamau"));
    expect((searched.body as { members: { memberName: string }[] }).members).toEqual([
      expect.objectContaining({ memberName: colleague.name, seatOf: "Acme Records Ltd" }),
    ]);
    const csv = await (
      (await membersCsvLoader({
        request: admin("/admin/members.csv?state=renewal_open"),
        params: {},
        context: {},
      } as never)) as Response
    ).text();
    const lines = csv
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toContain('"Since","Seat of"');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^"Kamau Seat","kamau\.seat@example\.test","Corporate","Renewal open",.*,"Acme Records Ltd"$/,
        ),
        expect.stringMatching(/^"Acme Records Ltd","wanjiru\.applicant@example\.test",.*,""$/),
      ]),
    );
  });
});
