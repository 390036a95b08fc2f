import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { pdfText } from "../helpers/pdf-text";
import {
  expect,
  OWN_PASSWORD,
  randomClientIp,
  signIn,
  test,
  untilHydrated,
  verifiedAccount,
  waitForMail,
} from "./fixtures";

// The job worker polls every few seconds: mail sent by a job arrives within a poll or two.
const MAIL_WAIT_MS = 30_000;

/** A captured attachment's bytes (the e2e mail directory stores Buffers as JSON). */
function attachmentBytes(content: unknown) {
  const json = content as { data?: number[] };
  return Buffer.from(json.data ?? (content as Buffer));
}

async function openFirstUpcomingConference(page: Page) {
  await page.goto("/events?filter=upcoming&type=conference");
  await page
    .getByTestId("event-card")
    .first()
    .getByRole("link", { name: /Learn More/ })
    .click();
  // The list page has an h1 too: wait for the event's own URL before reading it.
  await page.waitForURL((url) => /^\/events\/[^/]+$/.test(url.pathname));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  return new URL(page.url()).pathname;
}

test("a member buys a ticket, pays by M-Pesa, staff record the code, and the order is paid", async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const verifier = await playwright.request.newContext({ baseURL });
  // An account of its own, verified aside: the browser still signs in through the form.
  const member = await verifiedAccount(verifier, "Order Buyer");
  await verifier.dispose();
  await page.setExtraHTTPHeaders({ "x-forwarded-for": randomClientIp() });

  // A visitor's 'Register Now' leads through sign-in and back to the registration page.
  const eventPath = await openFirstUpcomingConference(page);
  await page.getByRole("link", { name: "Register Now" }).click();
  await expect(page).toHaveURL(`/auth?redirectTo=${encodeURIComponent(`${eventPath}/register`)}`);
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password", { exact: true }).fill(OWN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL((url) => url.pathname === `${eventPath}/register`);

  // Registration: a paid ticket, seats, the organisation the invoice is made out to.
  await expect(page.getByRole("heading", { level: 1, name: /^Register for / })).toBeVisible();
  const firstSeat = page.getByRole("group", { name: /^Seat 1: / });
  await expect(firstSeat.getByLabel("E-mail")).toHaveValue(member.email);
  // Two seats of the first ticket: the second names a colleague (decision 0093).
  await untilHydrated(page);
  await page
    .getByLabel(/^Seats of /)
    .first()
    .fill("2");
  const secondSeat = page.getByRole("group", { name: /^Seat 2: / });
  await secondSeat.getByLabel("Name").fill("Colleague of the buyer");
  await secondSeat.getByLabel("E-mail").fill(`colleague.${member.email}`);
  await page.getByLabel("Organisation name").fill("Records Kenya Ltd");
  await page.getByLabel("KRA PIN or VAT number").fill("P051234567X");
  await page.getByRole("button", { name: "Register and Get Invoice" }).click();
  await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);

  // The order page: awaiting payment, M-Pesa Paybill with the invoice's short payment
  // reference as account (issue 34); M-Pesa online adds "Pay with M-Pesa" beside it.
  const heading = page.getByRole("heading", { level: 1, name: /^Order INV-\d{4}-\d{6}$/ });
  await expect(heading).toBeVisible();
  const invoiceNumber = ((await heading.textContent()) ?? "").replace("Order ", "").trim();
  await expect(page.getByText("Awaiting payment", { exact: true })).toBeVisible();
  const mpesa = page.getByRole("region", { name: "M-Pesa", exact: true });
  await expect(mpesa.getByText("174379 (demo number)")).toBeVisible();
  const account = mpesa.locator("dt", { hasText: "Account number" }).locator("+ dd");
  await expect(account).toHaveText(/^\d{10,12}$/);
  const accountNumber = ((await account.textContent()) ?? "").trim();
  await expect(page.getByRole("region", { name: "Pay with M-Pesa" })).toBeVisible();
  const total = (
    (await page
      .getByText(/^(KES|USD|EUR|GBP) [\d,]+\.\d{2}$/)
      .first()
      .textContent()) ?? ""
  ).trim();
  const [currency] = total.split(" ");
  const due = (await page.locator("dt", { hasText: "Balance due" }).locator("+ dd").textContent())!;
  const amount = due.replace(/^[A-Z]{3} /, "").replace(/,/g, "");

  // The invoice arrives by e-mail as a PDF with the payment instructions.
  const invoiceMail = await waitForMail(member.email, new RegExp(invoiceNumber), MAIL_WAIT_MS);
  const invoicePdf = invoiceMail.attachments.find((a) => a.filename === `${invoiceNumber}.pdf`);
  expect(invoicePdf?.contentType).toBe("application/pdf");
  const invoiceText = await pdfText(attachmentBytes(invoicePdf?.content));
  expect(invoiceText).toContain(`Invoice ${invoiceNumber}`);
  // The short payment reference (issue 34): two-digit year, sequence, two check digits.
  expect(invoiceText).toContain(`Account number: ${accountNumber}`);
  expect(invoiceText).toContain("KRA PIN / VAT: P051234567X");

  // An editor records the M-Pesa code on the Payments screen.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, "editor");
  await staff.goto("/admin/payments");
  await expect(staff.getByRole("link", { name: invoiceNumber })).toBeVisible();
  const code = `S${randomBytes(5).toString("hex").toUpperCase().slice(0, 9)}`;
  await staff.getByLabel("Invoice number (account)").fill(invoiceNumber);
  await staff.getByLabel("Reference (M-Pesa code)").fill(code);
  await staff.getByLabel("Amount").fill(amount);
  await staff.getByLabel("Currency").selectOption(currency);
  await staff.getByRole("button", { name: "Record Payment" }).click();
  await expect(staff.getByText("Payment recorded · order paid")).toBeVisible();
  await staffContext.close();

  // The receipt arrives, and the buyer's order shows Paid with the receipt to download.
  // The subject names this order's invoice: a retry must not read the first try's receipt.
  const receiptMail = await waitForMail(
    member.email,
    new RegExp(`^Receipt RCT-\\d{4}-\\d{6} for invoice ${invoiceNumber}$`),
    MAIL_WAIT_MS,
  );
  const receiptText = await pdfText(attachmentBytes(receiptMail.attachments[0].content));
  expect(receiptText).toContain(`Payment reference: ${code}`);
  expect(receiptText).toContain("Balance due: ");
  await page.reload();
  await expect(page.locator("main [data-slot=badge]").first()).toHaveText("Paid");
  await expect(page.getByRole("link", { name: /^Receipt RCT-/ })).toBeVisible();
  await page.goto("/profile");
  await expect(page.getByRole("heading", { name: "My orders" })).toBeVisible();
  await expect(page.locator("#orders").getByText(new RegExp(invoiceNumber))).toBeVisible();
  // Paid, the registration is confirmed: it shows in "My events" with its ticket.
  // One registration per seat, both paid by this invoice.
  const registration = page.locator("#my-events li").filter({ hasText: invoiceNumber });
  await expect(registration).toHaveCount(2);
  await expect(registration.first().getByText("Confirmed")).toBeVisible();
  await expect(registration.first().getByRole("link", { name: "View Ticket" })).toBeVisible();
});
