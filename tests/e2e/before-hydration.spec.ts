// Controls a person can press before the page's scripts have run (issue 17 §6). The scripts are
// held back for the whole test, so every press below is one a visitor on a slow phone makes
// between the first paint and hydration; plain @playwright/test, because the shared fixture's
// goto waits for hydration.
import { expect, type Page, test } from "@playwright/test";

// Its tests only read the demo content: they spread over both workers (decision 0088).
test.describe.configure({ mode: "parallel" });

async function openWithoutScripts(page: Page, path: string) {
  await page.route(/\/assets\/[^/]+\.js$/, (route) => route.abort());
  await page.goto(path, { waitUntil: "domcontentloaded" });
}

test.afterEach(async ({ page }) => {
  // Nothing hydrated: the presses were answered by HTML alone.
  expect(await page.evaluate(() => document.documentElement.hasAttribute("data-hydrated"))).toBe(
    false,
  );
});

test("the Sign Up tab opens the sign-up form before hydration", async ({ page }) => {
  await openWithoutScripts(page, "/auth");
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await expect(page).toHaveURL(/[?&]tab=signup/);
  await expect(page.getByRole("tab", { name: "Sign Up" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("button", { name: "Create Account" })).toBeVisible();
});

test("an advertising tab shows its packages before hydration", async ({ page }) => {
  await openWithoutScripts(page, "/advertising");
  await expect(page.getByText("Website Banner", { exact: true })).toBeHidden();
  await page.getByRole("tab", { name: "Digital Advertising" }).click();
  await expect(page).toHaveURL(/[?&]tab=digital/);
  await expect(page.getByText("Website Banner", { exact: true })).toBeVisible();
  await page.getByRole("tab", { name: "Event Sponsorship" }).click();
  await expect(page.getByText("Website Banner", { exact: true })).toBeHidden();
});

test("a membership FAQ answer opens and closes before hydration, one at a time", async ({
  page,
}) => {
  await openWithoutScripts(page, "/membership");
  const cancel = page.getByText("Can I cancel my membership at any time?");
  const answer = page.getByText("You can cancel at any time", { exact: false });
  await expect(answer).toBeHidden();
  await cancel.click();
  await expect(answer).toBeVisible();
  // Opening another question closes the first.
  await page.getByText("Do you offer discounts for students?").click();
  await expect(answer).toBeHidden();
  await cancel.click();
  await expect(answer).toBeVisible();
  await cancel.click();
  await expect(answer).toBeHidden();
});
