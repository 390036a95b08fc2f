import type { Page } from "@playwright/test";
import { slugify } from "../../app/lib/format";
import { closeToasts, expect, test, verifiedAccount } from "./fixtures";

// M-Pesa online (issue 34 item 8) on a phone, against the Daraja stand-in the e2e setup starts
// (playwright.config.ts, as README's "Try M-Pesa locally"): the push completes by itself about a
// second after it is sent, its outcome chosen by the phone's last four digits (…1032 cancelled,
// anything else paid). Callbacks are only hints: the payment counts once the site's job has asked
// the stand-in's STK query about it.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

// A Nairobi event (priced in KES) that no other spec books.
const KES_EVENT = "Kongamano Excellence Awards Gala";
// Callback, job poll (500 ms), STK query, then the page's own poll (every 3 s).
const OUTCOME_WAIT_MS = 30_000;

async function fitsThePhone(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, "no sideways scrolling at 390 px").toBeLessThanOrEqual(390);
}

/** Books one seat of the first paid ticket on sale to anyone and opens the order page. */
async function bookKesTicket(page: Page) {
  await page.goto(`/events/${slugify(KES_EVENT)}/register`);
  for (const quantity of await page.locator('input[name^="qty."]:enabled').all()) {
    await quantity.fill("0");
  }
  await page
    .locator("[data-ticket-row]")
    .filter({ hasText: /KES [1-9]/ })
    .locator('input[name^="qty."]:enabled')
    .first()
    .fill("1");
  await page.getByRole("button", { name: "Register and Get Invoice" }).click();
  await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
  await expect(page.getByText("Awaiting payment", { exact: true })).toBeVisible();
  const due = (await page.locator("dt", { hasText: "Balance due" }).locator("+ dd").textContent())!;
  expect(due.trim()).toMatch(/^KES [\d,]+\.00$/);
  return { orderPath: new URL(page.url()).pathname, due: due.trim() };
}

/** Sends the push from the order page with the phone typed as people type it. */
async function payWithMpesa(page: Page, phone: string, due: string) {
  const pay = page.getByRole("region", { name: "Pay with M-Pesa" });
  await expect(pay).toContainText(`We send a payment request for ${due} to your phone.`);
  await pay.getByLabel("M-Pesa phone number").fill(phone);
  await fitsThePhone(page);
  await pay.getByRole("button", { name: "Pay with M-Pesa" }).click();
  await expect(pay.getByRole("status")).toContainText("Check your phone");
  await expect(pay.getByRole("status")).toContainText(`enter your M-Pesa PIN to pay ${due}`);
  await closeToasts(page);
  return pay;
}

/** A mark that survives only while the document does: gone after any reload or navigation. */
async function markDocument(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });
}

async function sameDocument(page: Page) {
  return page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere === true);
}

test("paying an order from the phone: the page turns to paid by itself and shows the M-Pesa receipt", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await verifiedAccount(page.request, "Mpesa Payer");
  const { orderPath, due } = await bookKesTicket(page);

  const pay = await payWithMpesa(page, "0712 345 678", due);
  await markDocument(page);

  // No reload: the page follows the push until Daraja (the stand-in) confirms it.
  const payments = page.getByRole("heading", { name: "Payments", level: 2 }).locator("..");
  await expect(payments.getByRole("listitem")).toContainText(/M-Pesa receipt T[A-Z0-9]{9}/, {
    timeout: OUTCOME_WAIT_MS,
  });
  await expect(page.locator("main [data-slot=badge]").first()).toHaveText("Paid");
  await expect(pay).toHaveCount(0); // nothing left to pay
  expect(await sameDocument(page), "the page updated without a reload").toBe(true);
  expect(new URL(page.url()).pathname).toBe(orderPath);
  const line = (await payments.getByRole("listitem").first().textContent()) ?? "";
  expect(line).toContain(due);
  await fitsThePhone(page);

  // The receipt stays on the order after a fresh load.
  const receipt = line.match(/M-Pesa receipt (T[A-Z0-9]{9})/)![1];
  await page.reload();
  await expect(page.getByText(new RegExp(`M-Pesa receipt ${receipt}`))).toBeVisible();
  await expect(page.getByText("Awaiting payment", { exact: true })).toHaveCount(0);
});

test("a push cancelled on the phone says so, records nothing and offers to try again", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await verifiedAccount(page.request, "Mpesa Canceller");
  const { due } = await bookKesTicket(page);

  // The stand-in cancels pushes to phones ending 1032 (ResultCode 1032).
  const pay = await payWithMpesa(page, "0712 341 032", due);
  await markDocument(page);

  await expect(pay.getByRole("status")).toHaveText(
    "The request was cancelled on the phone. Nothing was paid.",
    { timeout: OUTCOME_WAIT_MS },
  );
  await expect(pay.getByRole("button", { name: "Try again" })).toBeVisible();
  expect(await sameDocument(page), "the page updated without a reload").toBe(true);
  await expect(page.getByText("Awaiting payment", { exact: true })).toBeVisible();
  await expect(page.getByText("No payment recorded yet.")).toBeVisible();
  await fitsThePhone(page);
});
