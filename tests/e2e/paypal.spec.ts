import type { Page } from "@playwright/test";
import { closeToasts, expect, test, verifiedAccount } from "./fixtures";

// PayPal (issue 31) against the PayPal stand-in the e2e setup starts (playwright.config.ts): a new
// member applies for the Individual plan (USD 99.00), pays the membership order with PayPal —
// approves on the stand-in's page, comes back, confirms — and the order is paid with the capture
// id as its reference; the membership then starts. The return page is checked at 320 px.
const UNLOCK_WAIT_MS = 30_000;

async function fitsAt(page: Page, width: number) {
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll, `no sideways scrolling at ${width} px`).toBeLessThanOrEqual(width);
}

test("a membership paid with PayPal: approve on PayPal, confirm on return, the order is paid and the membership starts", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await verifiedAccount(page.request, "Paypal Member");
  await page.goto("/membership/apply/individual");
  await page.getByRole("button", { name: "Submit Application" }).click();
  await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
  const orderPath = new URL(page.url()).pathname;
  await expect(page.getByText("Awaiting payment", { exact: true })).toBeVisible();
  await closeToasts(page);

  const pay = page.getByRole("region", { name: "Pay with PayPal" });
  await expect(pay).toContainText("You approve USD 99.00 on PayPal's page, then confirm here.");
  await pay.getByRole("button", { name: "Pay with PayPal" }).click();

  // PayPal's page (the stand-in's): approve.
  await page.waitForURL(/\/checkoutnow\?token=[A-Z0-9]+$/);
  await expect(page.getByText("Pay USD 99.00 to Kongamano")).toBeVisible();
  await page.getByRole("button", { name: "Pay now" }).click();

  // Back on the site: nothing is taken until the buyer confirms.
  await page.waitForURL(/\/paypal\/return\?token=[A-Z0-9]+&PayerID=/);
  await expect(
    page.getByRole("heading", { level: 1, name: "Confirm your PayPal payment" }),
  ).toBeVisible();
  await page.setViewportSize({ width: 320, height: 640 });
  await fitsAt(page, 320);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.getByRole("button", { name: "Pay USD 99.00 now" }).click();

  await page.waitForURL((url) => url.pathname === orderPath);
  await expect(page.getByText("Paid with PayPal").first()).toBeVisible();
  await expect(page.locator("main [data-slot=badge]").first()).toHaveText("Paid");
  const payments = page.getByRole("heading", { name: "Payments", level: 2 }).locator("..");
  await expect(payments.getByRole("listitem")).toContainText(/USD 99\.00 · PayPal · [A-Z0-9]{17}/);
  await expect(pay).toHaveCount(0);

  // The paid order unlocks the membership (a job).
  await expect(async () => {
    await page.goto("/profile");
    await expect(page.getByTestId("membership-standing")).toContainText("Active until", {
      timeout: 1_000,
    });
  }).toPass({ timeout: UNLOCK_WAIT_MS });
});
