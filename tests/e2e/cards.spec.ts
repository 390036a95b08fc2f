import type { Page } from "@playwright/test";
import { slugify } from "../../app/lib/format";
import { closeToasts, expect, signIn, test, verifiedAccount } from "./fixtures";

// Cards through Paystack (issue 31) against the Paystack stand-in the e2e setup starts
// (playwright.config.ts): a new account books a USD ticket, pays by card on the stand-in's
// checkout page and comes back to a paid order (verified before it says so; the signed webhook
// arrives too, and one payment is recorded); an admin then refunds half and the rest through
// Paystack from the Payments screen, and the buyer sees both credit notes.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

// A Toronto event (priced in USD) that no other spec books.
const USD_EVENT = "Retention Schedules in Practice Workshop";

async function fitsThePhone(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, "no sideways scrolling at 390 px").toBeLessThanOrEqual(390);
}

test("a USD ticket paid by card, then refunded half and the rest through Paystack", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await verifiedAccount(page.request, "Card Payer");
  await page.goto(`/events/${slugify(USD_EVENT)}/register`);
  for (const quantity of await page.locator('input[name^="qty."]:enabled').all()) {
    await quantity.fill("0");
  }
  await page
    .locator("[data-ticket-row]")
    .filter({ hasText: /USD [1-9]/ })
    .locator('input[name^="qty."]:enabled')
    .first()
    .fill("1");
  await page.getByRole("button", { name: "Register and Get Invoice" }).click();
  await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
  const orderPath = new URL(page.url()).pathname;
  const orderId = orderPath.split("/").pop() ?? "";
  const due = (
    (await page.locator("dt", { hasText: "Balance due" }).locator("+ dd").textContent()) ?? ""
  ).trim();
  expect(due).toMatch(/^USD [\d,]+\.00$/);
  await closeToasts(page);

  const card = page.getByRole("region", { name: "Pay by card" });
  await expect(card).toContainText(`You pay ${due} and come back here.`);
  await fitsThePhone(page);
  await card.getByRole("button", { name: "Pay by card" }).click();

  // Paystack's page (the stand-in's): the test card is filled in.
  await page.waitForURL(/\/checkout\/[0-9a-f]+$/);
  await expect(page.getByRole("heading", { name: `Pay ${due}` })).toBeVisible();
  await page.getByRole("button", { name: `Pay ${due}` }).click();

  // Back on the order: verified, then paid.
  await page.waitForURL((url) => url.pathname === orderPath);
  await expect(page.getByText("Card payment received")).toBeVisible();
  await expect(page.locator("main [data-slot=badge]").first()).toHaveText("Paid");
  const payments = page.getByRole("heading", { name: "Payments", level: 2 }).locator("..");
  await expect(payments.getByRole("listitem")).toHaveCount(1);
  await expect(payments.getByRole("listitem")).toContainText(`${due} · Card`);

  // An admin refunds half, then the rest, through Paystack.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, "admin");
  const amount = Number(due.replace(/^USD /, "").replace(/,/g, ""));
  for (const [part, toast] of [
    [amount / 2, "Refunded through Paystack"],
    [amount / 2, "Refunded through Paystack · order refunded"],
  ] as const) {
    await staff.goto(`/admin/payments?refund=${orderId}#refund`);
    const form = staff.locator("#refund");
    await expect(form.getByText(/via Paystack/)).toBeAttached();
    await form.getByLabel("Amount to refund").fill(String(part));
    await form.getByRole("button", { name: "Refund Online" }).click();
    await expect(staff.getByText(toast, { exact: true })).toBeVisible();
  }
  await staffContext.close();

  // The buyer sees the order refunded with both credit notes.
  await page.reload();
  await expect(page.locator("main [data-slot=badge]").first()).toHaveText("Refunded");
  await expect(page.getByRole("link", { name: /^Credit note CN-/ })).toHaveCount(2);
  await fitsThePhone(page);
});
