import type { Page } from "@playwright/test";
import { DEMO_ACCOUNTS } from "../../app/models/seed/demo-accounts";
import {
  expect,
  expectNoSeriousA11yViolations,
  randomClientIp,
  signIn,
  test,
  waitForMail,
} from "./fixtures";

const ACCESS_DENIED = "Access Denied: You don't have permission to access this area.";
const unique = (label: string) =>
  `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const uniqueEmail = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

function toast(page: Page, title: string) {
  return page.locator("[data-sonner-toast]").filter({ hasText: title });
}

/**
 * Waits for toasts to close before the page's final accessibility check: sonner's rich colours
 * (shell-wide, app/root.tsx) are below 4.5:1 — reported to the integrator.
 */
async function waitForToastsToClose(page: Page) {
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
}

/** A fresh account created through the public sign-up endpoint; returns its id. */
async function signUpUser(page: Page, name: string, email: string) {
  const response = await page.request.post("/api/auth/sign-up/email", {
    data: { name, email, password: "Sign-up-pass-2026" },
    headers: { "x-forwarded-for": randomClientIp() },
  });
  expect(response.ok(), `sign-up: ${response.status()}`).toBeTruthy();
  const body = (await response.json()) as { user: { id: string } };
  return body.user.id;
}

async function openRowMenu(page: Page, name: string) {
  // The dropdown replaces the no-JavaScript disclosure once the page is interactive.
  const trigger = page.locator(`button[aria-label="Actions for ${name}"]`);
  await expect(trigger).toBeVisible();
  await trigger.click();
}

test.describe("users and roles (admin)", () => {
  test("an admin changes a role, sees it in the table and in the Activity Log", async ({
    page,
  }) => {
    const name = unique("Role Change Person");
    const email = uniqueEmail("role-change");
    const userId = await signUpUser(page, name, email);
    await signIn(page, "admin");

    await page.goto(`/admin/users?search=${encodeURIComponent(name)}`);
    await expect(page.getByRole("heading", { level: 1, name: "User Management" })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row).toHaveCount(1);
    // Masked on the server: the full address is nowhere in the page or its data.
    const local = email.split("@")[0];
    await expect(row).toContainText(
      `${local[0]}${"*".repeat(local.length - 2)}${local.at(-1)}@example.com`,
    );
    expect(await page.content()).not.toContain(email);
    await expect(row.getByText("User", { exact: true })).toBeVisible();

    await openRowMenu(page, name);
    await expect(page.getByRole("menuitem", { name: "Make User" })).toBeDisabled();
    await page.getByRole("menuitem", { name: "Make Editor" }).click();
    const done = toast(page, "Role updated");
    await expect(done).toBeVisible();
    await expect(done).toContainText(`${name}'s role has been changed to Editor.`);
    await expect(row.getByText("Editor", { exact: true })).toBeVisible();

    // The role filter lives in the URL.
    await page.goto("/admin/users?role=editor");
    await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(1);
    await page.goto("/admin/users?role=admin");
    await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);

    await page.goto("/admin/security?tab=activity&action=user.role_change");
    const entry = page.getByRole("row").filter({ hasText: userId });
    await expect(entry).toContainText("Role changed from User to Editor");
    await expect(entry).toContainText(DEMO_ACCOUNTS[0].name);

    const href = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
    expect(href).toContain("action=user.role_change");
    const csv = await page.request.get(href!);
    expect(csv.status()).toBe(200);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    const text = await csv.text();
    expect(text).toContain(`"user.role_change","user","${userId}"`);
    expect(text).not.toContain("auth.sign_in");
  });

  test("the last admin cannot be demoted", async ({ page }) => {
    await signIn(page, "admin");
    const admin = DEMO_ACCOUNTS.find((a) => a.role === "admin")!;
    await page.goto(`/admin/users?search=${encodeURIComponent(admin.name)}`);
    await openRowMenu(page, admin.name);
    await page.getByRole("menuitem", { name: "Make Editor" }).click();
    await expect(toast(page, "Cannot change role")).toContainText("last admin account");
    await expect(
      page.getByRole("row").filter({ hasText: admin.name }).getByText("Admin", { exact: true }),
    ).toBeVisible();
    await waitForToastsToClose(page);
  });
});

test.describe("invitations", () => {
  test("an editor invitation arrives by mail and its link creates an editor account once", async ({
    page,
    browser,
  }) => {
    await signIn(page, "admin");
    await page.goto("/admin/security?tab=users");
    await page.getByRole("button", { name: "Send Invitation" }).click();
    await expect(page.getByText("Please enter an email address")).toBeVisible();

    const email = uniqueEmail("invitee");
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Role").selectOption("editor");
    await page.getByRole("button", { name: "Send Invitation" }).click();
    await expect(toast(page, "Invitation sent")).toContainText(email);
    const pending = page.getByRole("list", { name: "Pending invitations" });
    await expect(pending.getByRole("listitem").filter({ hasText: email })).toContainText("Editor");

    const mail = await waitForMail(email, /invited/);
    const link = mail.text.match(/https?:\/\/\S+\/invite\/[A-Za-z0-9_-]+/)?.[0];
    expect(link, mail.text).toBeTruthy();

    const context = await browser.newContext();
    const guest = await context.newPage();
    await guest.setExtraHTTPHeaders({ "x-forwarded-for": randomClientIp() });
    const opened = await guest.goto(link!);
    expect(opened?.status()).toBe(200);
    await expect(guest.getByRole("heading", { level: 1, name: "Join Kongamano" })).toBeVisible();
    await expect(guest.getByLabel("Email", { exact: true })).toHaveValue(email);
    await expectNoSeriousA11yViolations(guest);
    await guest.getByLabel("Full name").fill("Invited Editor");
    await guest.getByLabel("Password", { exact: true }).fill("Invited-pass-2026");
    await guest.getByLabel("Confirm password").fill("Invited-pass-2026");
    await guest.getByRole("button", { name: "Create Account" }).click();

    // An editor lands in the back office, signed in, with the invited role.
    await expect(guest).toHaveURL(/\/admin$/);
    await expect(toast(guest, "Welcome to Kongamano!")).toBeVisible();
    await expect(guest.getByRole("link", { name: "Messages" })).toBeVisible();
    await expect(guest.getByRole("link", { name: "Security Center" })).toHaveCount(0);

    // The link works once.
    const again = await guest.goto(link!);
    expect(again?.status()).toBe(410);
    await expect(guest.getByRole("heading", { name: "Invitation already used" })).toBeVisible();
    await context.close();

    await page.reload();
    await expect(pending.getByRole("listitem").filter({ hasText: email })).toHaveCount(0);
    await page.goto("/admin/security?tab=activity&action=invitation.accepted");
    await expect(page.getByRole("row").filter({ hasText: "Invited Editor" })).toContainText(
      "Invitation accepted",
    );
  });

  test("a revoked invitation link no longer works", async ({ page, browser }) => {
    await signIn(page, "admin");
    await page.goto("/admin/security?tab=users");
    const email = uniqueEmail("revoked");
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Send Invitation" }).click();
    await expect(toast(page, "Invitation sent")).toBeVisible();
    const link = (await waitForMail(email)).text.match(
      /https?:\/\/\S+\/invite\/[A-Za-z0-9_-]+/,
    )![0];

    await page.getByRole("button", { name: `Revoke the invitation for ${email}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke" }).click();
    await expect(toast(page, "Invitation revoked")).toBeVisible();

    const context = await browser.newContext();
    const guest = await context.newPage();
    const response = await guest.goto(link);
    expect(response?.status()).toBe(410);
    await expect(guest.getByRole("heading", { name: "Invitation withdrawn" })).toBeVisible();
    const unknown = await guest.goto(`${link.slice(0, -4)}AAAA`);
    expect(unknown?.status()).toBe(404);
    await context.close();
  });
});

test.describe("security centre dashboard", () => {
  test("shows live figures, system status and failed sign-ins with a risk level", async ({
    page,
  }) => {
    const target = uniqueEmail("nobody");
    const failed = await page.request.post("/api/auth/sign-in/email", {
      data: { email: target, password: "wrong-password-1" },
      headers: { "x-forwarded-for": randomClientIp() },
    });
    expect(failed.status()).toBe(401);
    await signIn(page, "admin");
    await page.goto("/admin/security");
    const tabs = page.getByRole("navigation", { name: "Security Center sections" });
    await expect(tabs.getByRole("link", { name: "Dashboard" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    for (const title of ["Active Users", "Failed Logins", "Security Events", "Database Queries"]) {
      await expect(page.getByRole("heading", { name: title })).toBeVisible();
    }
    await expect(page.getByText("Healthy")).toBeVisible();
    await expect(page.getByRole("heading", { name: "System Status" })).toBeVisible();
    const recent = page.getByRole("listitem").filter({ hasText: "Failed sign-in" }).first();
    await expect(recent).toContainText(/Medium|High/);
  });
});

test.describe("scheduled jobs", () => {
  test("admins open them from the sidebar; editors neither see nor reach them", async ({
    page,
  }) => {
    await signIn(page, "admin");
    await page.goto("/admin");
    await page
      .getByRole("navigation", { name: "Back office" })
      .getByRole("link", { name: "Scheduled Jobs" })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "Scheduled Jobs" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: /^Failed \(\d+\)$/ })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: /^Pending \(\d+\)$/ })).toBeVisible();

    await page.context().clearCookies();
    await signIn(page, "editor");
    await page.goto("/admin");
    await expect(
      page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Events" }),
    ).toBeVisible();
    await expect(page.getByRole("link", { name: "Scheduled Jobs" })).toHaveCount(0);
    await page.goto("/admin/jobs");
    await expect(page).toHaveURL(/\/$/);
    await expect(toast(page, ACCESS_DENIED)).toBeVisible();
    await waitForToastsToClose(page);
  });
});

test.describe("inbox", () => {
  test("a message sent through /contact is read, answered by mail and deleted", async ({
    page,
  }) => {
    await page.setExtraHTTPHeaders({ "x-forwarded-for": randomClientIp() });
    const subject = unique("Question about the summit");
    await page.goto("/contact");
    await page.getByLabel("Name", { exact: true }).fill("Halima Yusuf");
    await page.getByLabel("Email", { exact: true }).fill("halima@example.com");
    await page.getByLabel("Subject", { exact: true }).fill(subject);
    await page.getByLabel("Message", { exact: true }).fill("Is the summit hybrid this year?");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(toast(page, "Message sent!")).toBeVisible();

    await signIn(page, "editor");
    await page.goto("/admin/messages?filter=unread");
    const item = page.getByRole("listitem").filter({ hasText: subject });
    await expect(item).toContainText("Unread");
    await page.goto("/admin/messages");
    await item.getByText(subject).click();
    await expect(item.getByText("Is the summit hybrid this year?")).toBeVisible();
    await expect(item.getByRole("link", { name: "Reply" })).toHaveAttribute(
      "href",
      `mailto:halima@example.com?subject=${encodeURIComponent(`Re: ${subject}`)}`,
    );
    // Opening it marked it read; the toggle marks it unread again.
    await expect(item.getByRole("button", { name: "Mark as unread" })).toBeVisible();
    await expect(item.getByText("Unread", { exact: true })).toHaveCount(0);
    await item.getByRole("button", { name: "Mark as unread" }).click();
    await expect(item.getByText("Unread", { exact: true })).toBeVisible();

    await item.getByRole("button", { name: `Delete the message "${subject}"` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(toast(page, "Message deleted")).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: subject })).toHaveCount(0);
  });
});
