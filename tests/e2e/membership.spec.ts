import { randomBytes } from "node:crypto";
import { expect, randomClientIp, signIn, test, waitForMail } from "./fixtures";

const PASSWORD = "Str0ng!Passw0rd#2026";
const MAIL_WAIT_MS = 30_000;

test("a new member applies, staff record the payment, the card verifies publicly, and admins find the member", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  await page.setExtraHTTPHeaders({ "x-forwarded-for": randomClientIp() });
  const suffix = randomBytes(4).toString("hex");
  const email = `member.${suffix}@example.test`;
  const name = `Wanjiru Test ${suffix}`;

  // 'Start Membership' on a plan: create an account first, then come back to the application.
  await page.goto("/membership");
  await page.getByRole("link", { name: "Start Membership: Individual plan" }).click();
  await page.waitForURL((url) => url.pathname === "/auth");
  await page.getByLabel("Full Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(
    page.getByText("Please check your email to verify your account.").first(),
  ).toBeVisible();
  const verify = await waitForMail(email, /Verify/);
  await page.goto(verify.text.match(/https?:\/\/\S+/)?.[0] as string);
  await page.waitForURL((url) => url.pathname === "/membership/apply/individual");

  // The application knows the person: the name is pre-filled, the e-mail is not asked again.
  await expect(
    page.getByRole("heading", { level: 1, name: "Apply for Individual Membership" }),
  ).toBeVisible();
  await expect(page.getByLabel("Name on your membership card")).toHaveValue(name);
  await expect(page.getByText(email)).toBeVisible();
  await page.getByRole("button", { name: "Submit Application" }).click();
  await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
  const heading = page.getByRole("heading", { level: 1, name: /^Order INV-\d{4}-\d{6}$/ });
  const invoiceNumber = ((await heading.textContent()) ?? "").replace("Order ", "").trim();
  await waitForMail(email, new RegExp(invoiceNumber), MAIL_WAIT_MS);

  await page.goto("/profile");
  await expect(page.getByTestId("membership-standing")).toContainText(
    `Awaiting payment of invoice ${invoiceNumber}`,
  );

  // Staff record the bank transfer on the Payments screen.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await staff.setExtraHTTPHeaders({ "x-forwarded-for": randomClientIp() });
  await signIn(staff, "admin");
  await staff.goto("/admin/payments");
  await staff.getByLabel("Invoice number (account)").fill(invoiceNumber);
  await staff.getByLabel("Reference (M-Pesa code)").fill(`M${suffix.toUpperCase()}X1`);
  await staff.getByLabel("Amount").fill("99.00");
  await staff.getByLabel("Currency").selectOption("USD");
  await staff.getByRole("button", { name: "Record Payment" }).click();
  await expect(staff.getByText("Payment recorded · order paid")).toBeVisible();

  // The member sees where they stand, and their card (the unlock job activates the term).
  await expect(async () => {
    await page.goto("/profile");
    await expect(page.getByTestId("membership-standing")).toContainText("Active until", {
      timeout: 1_000,
    });
  }).toPass({ timeout: MAIL_WAIT_MS });
  await expect(page.getByTestId("membership-standing")).toContainText("renewal opens");
  await expect(page.getByTestId("membership-standing")).toContainText("grace until");
  await page.getByRole("link", { name: "Membership card" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Membership Card" })).toBeVisible();
  await expect(page.getByText(/^Current · valid until/)).toBeVisible();
  await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
  const verifyUrl =
    (await page.getByRole("link", { name: /\/membership\/verify\// }).textContent()) ?? "";

  // Anyone (signed out) can check the card: name, plan and validity only.
  const publicContext = await browser.newContext();
  const visitor = await publicContext.newPage();
  await visitor.goto(new URL(verifyUrl).pathname);
  await expect(visitor.getByText("Current member")).toBeVisible();
  await expect(visitor.getByText(name)).toBeVisible();
  await expect(visitor.getByText("Individual")).toBeVisible();
  await expect(visitor.getByText(email)).toHaveCount(0);
  await publicContext.close();

  // The admin Members screen filters by status and finds the member.
  await staff.goto("/admin/members");
  await staff.getByLabel("Search").fill(suffix);
  await staff.getByLabel("Status").selectOption("active");
  await staff.getByRole("button", { name: "Filter" }).click();
  await staff.waitForURL(/state=active/);
  const row = staff.getByRole("row", { name: new RegExp(name) });
  await expect(row).toBeVisible();
  await expect(row.getByText("Active")).toBeVisible();
  await staff.getByLabel("Status").selectOption("lapsed");
  await staff.getByRole("button", { name: "Filter" }).click();
  await staff.waitForURL(/state=lapsed/);
  await expect(staff.getByRole("row", { name: new RegExp(name) })).toHaveCount(0);
  await expect(staff.getByTestId("missed-notices")).toHaveText("0");
  await staffContext.close();
});
