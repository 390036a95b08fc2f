import type { Page } from "@playwright/test";
import { slugify } from "../../app/lib/format";
import { expect as baseExpect, closeToasts, signIn, test } from "./fixtures";

// Issue 18: events in their own time zone, share images, the editor that never loses work,
// and event proposals (the contact form's error in view below the sticky header is checked by
// a11y-wcag22.spec.ts, decision 0088).
const expect = baseExpect.configure({ timeout: 20_000 });

const unique = (label: string) =>
  `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function createTorontoEvent(page: Page, title: string) {
  await page.goto("/admin/events/new");
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Location").fill("Toronto, Canada");
  await page.getByLabel("Time Zone").fill("America/Toronto");
  await page.getByLabel("Start Date").fill("2027-01-12T09:00");
  await page.getByLabel("End Date").fill("2027-01-12T17:00");
  await page.getByLabel("Status").selectOption("published");
  await page.getByRole("button", { name: "Create Event" }).click();
  await expect(page).toHaveURL("/admin/events");
  await closeToasts(page);
}

async function openEditor(page: Page, title: string) {
  await page.goto(`/admin/events?search=${encodeURIComponent(title)}`);
  await page.getByRole("link", { name: `Edit ${title}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit Event" })).toBeVisible();
}

test.describe("events in their own time zone", () => {
  test("a Toronto event entered at 09:00 shows 9:00 AM EST, 14:00Z in its .ics, -05:00 in JSON-LD, and a share image", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await signIn(page, "editor");
    const title = unique("Toronto Records Workshop");
    await createTorontoEvent(page, title);

    await openEditor(page, title);
    await expect(page.getByLabel("Time Zone")).toHaveValue("America/Toronto");
    await expect(page.getByLabel("Start Date")).toHaveValue("2027-01-12T09:00");

    const path = `/events/${slugify(title)}`;
    await page.goto(path);
    await expect(page.getByText("9:00 AM - 5:00 PM EST (GMT-5, Toronto time)")).toBeVisible();

    const ics = await (await page.request.get(`${path}/calendar.ics`)).text();
    expect(ics).toContain("DTSTART:20270112T140000Z");

    const ld = JSON.parse(
      (await page.locator('script[type="application/ld+json"]').first().textContent()) ?? "{}",
    );
    expect(ld.startDate).toBe("2027-01-12T09:00:00-05:00");

    const ogImage = await page.locator('meta[property="og:image"]').getAttribute("content");
    expect(ogImage).toMatch(/\/og\.png\?v=/);
    expect(await page.locator('meta[name="twitter:image"]').getAttribute("content")).toBe(ogImage);
    expect(ld.image).toEqual([ogImage]);
    const image = await page.request.get(new URL(ogImage!).pathname + new URL(ogImage!).search);
    expect(image.status()).toBe(200);
    expect(image.headers()["content-type"]).toBe("image/png");
  });

  test("a paper page has a share image that answers", async ({ page }) => {
    await page.goto("/papers");
    await page
      .locator('a[href^="/papers/"]')
      .filter({ hasNotText: /download/i })
      .first()
      .click();
    await expect(page).toHaveURL(/\/papers\/[a-z0-9-]+$/);
    const ogImage = await page.locator('meta[property="og:image"]').getAttribute("content");
    const image = await page.request.get(new URL(ogImage!).pathname + new URL(ogImage!).search);
    expect(image.status()).toBe(200);
    expect(image.headers()["content-type"]).toBe("image/png");
  });
});

test.describe("the event editor never loses work", () => {
  test("details edited before 'Save All Fees' are saved with the fees; leaving asks first", async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await signIn(page, "editor");
    const title = unique("Editor Flow Summit");
    await createTorontoEvent(page, title);
    await openEditor(page, title);

    const renamed = `${title} (renamed)`;
    await page.getByLabel("Title", { exact: true }).fill(renamed);
    await page.getByRole("button", { name: "Add Fee" }).click();
    await page.getByLabel("Fee 1 Amount").fill("300");
    await page.getByRole("button", { name: "Save All Fees" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Save the event details and the fees?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Save details and fees" }).click();
    await expect(page).toHaveURL("/admin/events");
    await closeToasts(page);

    await openEditor(page, renamed);
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue(renamed);
    await expect(page.getByLabel("Fee 1 Amount")).toHaveValue("300.00");

    // Leaving with unsaved details asks; staying keeps what was typed.
    await page.getByLabel("Theme").fill("Unsaved theme");
    await page.getByRole("link", { name: "Events", exact: true }).first().click();
    const leave = page.getByRole("alertdialog", { name: "Leave without saving?" });
    await expect(leave).toBeVisible();
    await leave.getByRole("button", { name: "Stay on this page" }).click();
    await expect(page.getByLabel("Theme")).toHaveValue("Unsaved theme");
    await expect(page).toHaveURL(/\/edit$/);

    // Reloading asks the browser's own question.
    let asked = "";
    page.once("dialog", async (d) => {
      asked = d.type();
      await d.dismiss();
    });
    await page.reload({ timeout: 3_000 }).catch(() => {});
    expect(asked).toBe("beforeunload");
    await expect(page.getByLabel("Theme")).toHaveValue("Unsaved theme");

    // Saving fees alone (details unchanged) asks nothing.
    await page.getByLabel("Theme").fill("");
    await page.getByRole("button", { name: "Add Fee" }).click();
    await page.getByLabel("Fee 2 Amount").fill("50");
    await page.getByRole("button", { name: "Save All Fees" }).click();
    await expect(
      page.locator("[data-sonner-toast]").getByText("Event fees saved successfully"),
    ).toBeVisible();
    await closeToasts(page);
  });
});

test.describe("forms for first-time users", () => {
  test("a signed-in member proposes an event: name and e-mail are filled in", async ({ page }) => {
    await signIn(page, "user");
    await page.goto("/events");
    await page.getByRole("link", { name: "Propose an Event" }).click();
    await expect(page).toHaveURL("/events/propose");
    await expect(page.getByLabel("Your email")).toHaveValue("member@kongamano.org");
    await page.getByLabel("Event title").fill(unique("Records Week Mombasa"));
    await page.getByLabel("Proposed dates").fill("May 2027");
    await page.getByLabel("Location").fill("Mombasa, Kenya");
    await page.getByLabel("Description").fill("Three days of records management.");
    await page.getByRole("button", { name: "Send Proposal" }).click();
    await expect(page).toHaveURL("/events");
    await expect(
      page.locator("[data-sonner-toast]").getByText("Thank you for your proposal!"),
    ).toBeVisible();
    await closeToasts(page);

    await page.goto("/contact?topic=membership");
    await expect(page.getByRole("textbox", { name: "Email" })).toHaveValue("member@kongamano.org");
  });
});
