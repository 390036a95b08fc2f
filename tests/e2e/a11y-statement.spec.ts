import { expectVisibleFocus, tabTo } from "./a11y-support";
import { expect, randomClientIp, signIn, test, waitForMail } from "./fixtures";

// Issue 19 item 6: the accessibility statement, linked in the footer, and its contact route to
// the staff inbox with its own topic. Also item 3: the confirmation toast is announced.

// The pages themselves are checked with axe by the route sweep (a11y-routes.spec.ts), for every
// role; this journey keeps its own targeted checks.
test.use({ axeOnLoad: false });

const STAFF = "staff@kongamano.test";

test("the statement is linked in the footer and says standard, scope, testing and limits", async ({
  page,
}) => {
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Accessibility" }).click();
  await expect(page).toHaveURL("/accessibility");
  await expect(
    page.getByRole("heading", { level: 1, name: "Accessibility Statement" }),
  ).toBeVisible();
  for (const heading of [
    "Standard and compliance status",
    "Scope",
    "How we tested",
    "Known limits",
    "Feedback and contact",
  ]) {
    await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
  }
  await expect(page.getByText(/WCAG\) 2\.2/)).toBeVisible();
  await expect(page.getByText("partially conformant")).toBeVisible();
  await expect(page.getByText(/back office/).first()).toBeVisible();
  await expect(page.getByText(/axe-core 4\.13/)).toBeVisible();
  await expect(
    page.locator('link[rel="canonical"], meta[property="og:url"]').first(),
  ).toBeAttached();
  const sitemap = await (await page.request.get("/sitemap.xml")).text();
  expect(sitemap).toContain("/accessibility</loc>");
});

test("reporting a barrier reaches the staff inbox under its own topic, announced politely", async ({
  page,
}) => {
  await page.setExtraHTTPHeaders({ "x-forwarded-for": randomClientIp() });
  await page.goto("/accessibility");
  // Keyboard only: Tab to the report link and follow it.
  await tabTo(page, (r) => r.name === "Report an accessibility barrier", { limit: 60 });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/contact\?topic=accessibility/);
  const subject = page.getByLabel("Subject", { exact: true });
  await expect(subject).toHaveValue("Accessibility Feedback");

  const detail = `The date picker cannot be used with a switch device ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill("Amani Barasa");
  await page.getByLabel("Email", { exact: true }).fill("amani@example.com");
  await page.getByLabel("Message", { exact: true }).fill(detail);
  await page.getByRole("button", { name: "Send Message" }).focus();
  await expectVisibleFocus(page, "send button");
  await page.keyboard.press("Enter");

  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Message sent!" });
  await expect(toast).toBeVisible();
  // The toast is inside sonner's polite live region, so screen readers announce it.
  await expect(toast.locator("xpath=ancestor::section[@aria-live='polite']")).toHaveCount(1);

  const mail = await waitForMail(STAFF, /Accessibility Feedback/);
  expect(mail.subject).toBe("[Contact] Accessibility Feedback");
  expect(mail.text).toContain(detail);

  await signIn(page, "admin");
  await page.goto("/admin/messages");
  const row = page.getByRole("listitem").filter({ hasText: "Accessibility Feedback" }).first();
  await expect(row).toBeVisible();
  await expect(page.getByText(detail).first()).toBeAttached();
});
