import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { slugify } from "../../app/lib/format";
import { expect as baseExpect, closeToasts, OWN_ORIGIN, signIn, test } from "./fixtures";

// Saves go through several loaders; on a busy CI machine they need more than the default 10 s.
const expect = baseExpect.configure({ timeout: 20_000 });

const unique = (label: string) =>
  `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** A real PNG larger than 1200x630, so the browser has to resize it. */
async function bigPng() {
  return sharp({
    create: { width: 2400, height: 1400, channels: 3, background: { r: 11, g: 95, b: 255 } },
  })
    .png()
    .toBuffer();
}

const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n");

function toast(page: Page, text: string) {
  return page.locator("[data-sonner-toast]").getByText(text, { exact: true });
}

/** Fills the required fields of the event form (create or edit). */
async function fillRequired(
  page: Page,
  values: { title: string; location?: string; start?: string; end?: string },
) {
  await page.getByLabel("Title", { exact: true }).fill(values.title);
  await page.getByLabel("Location").fill(values.location ?? "Nairobi, Kenya");
  await page.getByLabel("Start Date").fill(values.start ?? "2027-03-10T09:00");
  await page.getByLabel("End Date").fill(values.end ?? "2027-03-12T17:00");
}

/** The name shown beside a checkbox of the speakers/sponsors lists. */
async function optionLabel(box: Locator) {
  return ((await box.locator("xpath=following-sibling::span/span[1]").textContent()) ?? "").trim();
}

async function createDraft(page: Page, title: string) {
  await page.goto("/admin/events/new");
  await fillRequired(page, { title });
  await page.getByRole("button", { name: "Create Event" }).click();
  await expect(page).toHaveURL("/admin/events");
  await expect(toast(page, "Event created successfully")).toBeVisible();
  await closeToasts(page);
}

test.describe("admin events", () => {
  test("an editor creates and publishes an event with image, fees, speakers, sponsor and agenda", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, "editor");
    await page.goto("/admin/events");
    await page.getByRole("link", { name: "Create Event" }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Create Event" })).toBeVisible();
    await expect(
      page.getByText("Save the event first to add fees and pricing options."),
    ).toBeVisible();

    const title = unique("E2E Records Summit");
    await fillRequired(page, { title, location: "Mombasa, Kenya" });
    await page.getByLabel("Description").fill("Three days on records and archives.");
    await page.getByLabel("Theme").fill("Trustworthy records");
    await page.getByLabel("Event Type").selectOption("conference");
    const tags = page.getByLabel("Tags", { exact: true });
    await tags.fill("  archives ");
    await tags.press("Enter");
    await tags.fill("archives");
    await tags.press("Enter"); // duplicate ignored
    await tags.fill("records");
    await tags.press("Enter");
    await tags.press("Backspace"); // empty input: removes the last tag
    await tags.fill("governance");
    await tags.press("Enter");
    await expect(
      page.getByRole("list", { name: "Selected tags" }).getByRole("listitem"),
    ).toHaveText(["archives", "governance"]);

    // Image: resized in the browser, uploaded with progress, previewed.
    await page.getByLabel("Event Image").setInputFiles({
      name: "banner.png",
      mimeType: "image/png",
      buffer: await bigPng(),
    });
    await expect(toast(page, "Image Resized")).toBeVisible();
    await expect(toast(page, "Image uploaded successfully")).toBeVisible();
    await expect(page.getByRole("img", { name: "Preview of the event image" })).toBeVisible();
    const imageUrl = await page.locator('input[name="imageUrl"]').inputValue();
    expect(imageUrl).toMatch(/^\/uploads\/images\/.+\.webp$/);

    // Two speakers and a sponsor.
    const speakers = page.getByRole("group", { name: /^Speakers \(/ }).getByRole("checkbox");
    const speakerNames: string[] = [];
    for (const index of [0, 1]) {
      const box = speakers.nth(index);
      await box.check();
      speakerNames.push(await optionLabel(box));
    }
    const sponsorBox = page
      .getByRole("group", { name: /^Sponsors \(/ })
      .getByRole("checkbox")
      .first();
    await sponsorBox.check();
    const sponsorName = await optionLabel(sponsorBox);

    // Agenda: two items, then the second moved up.
    await page.getByRole("button", { name: "Add agenda item" }).click();
    await page.getByLabel("Item 1 start").fill("2027-03-10T09:00");
    await page.getByLabel("Item 1 title").fill("Opening keynote");
    await page.getByRole("button", { name: "Add agenda item" }).click();
    await page.getByLabel("Item 2 start").fill("2027-03-10T08:30");
    await page.getByLabel("Item 2 end").fill("2027-03-10T09:00");
    await page.getByLabel("Item 2 title").fill("Registration and coffee");
    await page.getByRole("button", { name: "Move agenda item 2 up" }).click();
    await expect(page.getByLabel("Item 1 title")).toHaveValue("Registration and coffee");

    await page.getByLabel("Status").selectOption("published");
    await page.getByRole("switch", { name: "Featured event" }).check();
    await page.getByRole("button", { name: "Create Event" }).click();
    await expect(page).toHaveURL("/admin/events");
    await expect(toast(page, "Event created successfully")).toBeVisible();

    // Fees, in edit mode.
    await page.getByLabel("Search events").fill(title);
    await expect(page).toHaveURL(/search=E2E/);
    const card = page.getByRole("listitem").filter({ hasText: title });
    await expect(card).toHaveCount(1);
    await expect(card.getByText("Published")).toBeVisible();
    await card.getByRole("link", { name: `Edit ${title}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Edit Event" })).toBeVisible();
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue(title);
    await expect(page.getByLabel("Start Date")).toHaveValue("2027-03-10T09:00");

    await page.getByRole("button", { name: "Add Fee" }).click();
    await expect(page.getByLabel("Fee 1 Fee Type")).toHaveValue("conference_only");
    await expect(page.getByLabel("Fee 1 Currency")).toHaveValue("USD");
    await page.getByLabel("Fee 1 Amount").fill("450");
    await page.getByLabel("Fee 1 Description").fill("All sessions");
    await page.getByRole("button", { name: "Add Fee" }).click();
    await page.getByLabel("Fee 2 Fee Type").selectOption("student");
    await page.getByLabel("Fee 2 Amount").fill("120.50");
    await page.getByLabel("Fee 2 Max Quantity").fill("40");
    // A sale start after the fee's last day is refused at the field; one before it is kept.
    await page.getByLabel("Fee 2 Available Until").fill("2027-03-05");
    await page.getByLabel("Fee 2 Sale Starts").fill("2027-03-06T09:00");
    await page.getByRole("button", { name: "Save All Fees" }).click();
    await expect(
      page.getByText("Sale start must be before the end of the Available Until date"),
    ).toBeVisible();
    await page.getByLabel("Fee 2 Sale Starts").fill("2027-03-01T09:00");
    await page.getByRole("button", { name: "Add Fee" }).click();
    await page.getByLabel("Fee 3 Fee Type").selectOption("group");
    await page.getByLabel("Fee 3 Amount").fill("999");
    await page.getByRole("button", { name: "Save All Fees" }).click();
    await expect(toast(page, "Event fees saved successfully")).toBeVisible();
    // Saved rows come back cheapest first; removing a saved one deletes it at once.
    await expect(page.getByLabel("Fee 1 Amount")).toHaveValue("120.50");
    await expect(page.getByLabel("Fee 1 Sale Starts")).toHaveValue("2027-03-01T09:00");
    await expect(page.getByLabel("Fee 3 Amount")).toHaveValue("999.00");
    await page.getByRole("button", { name: "Remove fee 3" }).click();
    await expect(toast(page, "Fee removed successfully")).toBeVisible();
    await expect(page.getByRole("button", { name: "Remove fee 3" })).toHaveCount(0);
    await expect(page.getByLabel("Fee 2 Amount")).toHaveValue("450.00");

    // The public site lists it and shows everything on its page.
    await page.goto(`/events?search=${encodeURIComponent(title)}`);
    await page.getByRole("link", { name: title, exact: true }).click();
    await expect(page).toHaveURL(`/events/${slugify(title)}`);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    for (const name of speakerNames) await expect(page.getByText(name).first()).toBeVisible();
    await expect(page.getByText(sponsorName).first()).toBeVisible();
    await expect(page.getByText("Registration and coffee")).toBeVisible();
    await expect(page.getByText("Opening keynote")).toBeVisible();
    await expect(page.getByText("USD 450.00")).toBeVisible();
    await expect(page.getByText("USD 120.50")).toBeVisible();
    // The student ticket is listed before its sale start, the others are on sale.
    await expect(
      page.getByText("On sale from Mar 1, 2027, 9:00 AM (Africa/Nairobi)"),
    ).toBeVisible();
    await expect(page.getByRole("link", { name: "Register Now" })).toBeVisible();
    await expect(page.locator(`img[src="${imageUrl}"]`).first()).toBeAttached();
  });

  test("a draft stays invisible to the public", async ({ page, playwright, baseURL }) => {
    await signIn(page, "editor");
    const title = unique("E2E Hidden Draft");
    await createDraft(page, title);
    const anonymous = await playwright.request.newContext({ baseURL });
    const detail = await anonymous.get(`/events/${slugify(title)}`);
    expect(detail.status()).toBe(404);
    const listing = await (
      await anonymous.get(`/events?search=${encodeURIComponent(title)}`)
    ).text();
    expect(listing).toContain("No Events Found");
    expect(listing).not.toContain(`href="/events/${slugify(title)}"`);
    await anonymous.dispose();
  });

  test("validation messages appear word for word, with and without JavaScript", async ({
    page,
    browser,
    baseURL,
  }) => {
    await signIn(page, "editor");
    await page.goto("/admin/events/new");
    await page.getByRole("button", { name: "Create Event" }).click();
    for (const message of [
      "Title is required",
      "Location is required",
      "Start date is required",
      "End date is required",
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    await fillRequired(page, {
      title: unique("E2E Order"),
      start: "2027-05-02T10:00",
      end: "2027-05-01T10:00",
    });
    await page.getByRole("button", { name: "Create Event" }).click();
    await expect(
      page.getByText("Start date must be before end date", { exact: true }),
    ).toBeVisible();
    await expect(page).toHaveURL("/admin/events/new");

    // Fees need a saved event.
    const early = await page.request.post("/admin/events/new", {
      headers: OWN_ORIGIN,
      form: { _form: "fees" },
    });
    expect(early.status()).toBe(400);
    expect(await early.text()).toContain("Please save the event first before adding fees");

    // The server says the same when the browser runs no script.
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const noJs = await context.newPage();
    await signIn(noJs, "editor");
    await noJs.goto("/admin/events/new");
    await noJs.getByLabel("Location").fill("Kampala, Uganda");
    await noJs.getByRole("button", { name: "Create Event" }).click();
    await expect(noJs.getByText("Title is required", { exact: true })).toBeVisible();
    await expect(noJs.getByText("Start date is required", { exact: true })).toBeVisible();
    await expect(noJs.getByLabel("Location")).toHaveValue("Kampala, Uganda");
    await context.close();
  });

  test("uploads are refused by type and size, in the browser and on the server", async ({
    page,
    playwright,
    baseURL,
  }) => {
    await signIn(page, "editor");
    await page.goto("/admin/events/new");
    const input = page.getByLabel("Event Image");

    // Title and description read in one look: a toast fades after a few seconds, which a busy
    // machine can spend between two separate checks.
    const toastSaying = (title: string) =>
      page.locator("[data-sonner-toast]").filter({ has: page.getByText(title, { exact: true }) });
    await input.setInputFiles({ name: "poster.png", mimeType: "image/png", buffer: PDF });
    await expect(toastSaying("Invalid file type")).toContainText(
      "Please upload a JPG, PNG, or WEBP image",
    );

    const sixMb = Buffer.concat([await bigPng(), Buffer.alloc(6 * 1024 * 1024)]);
    await input.setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: sixMb });
    await expect(toastSaying("File too large")).toContainText(
      "Please upload an image smaller than 5MB",
    );
    await expect(page.locator('input[name="imageUrl"]')).toHaveValue("");

    // The server decides by content and size too.
    const renamed = await page.request.post("/admin/uploads?kind=image", {
      data: PDF,
      headers: { ...OWN_ORIGIN, "content-type": "image/png" },
    });
    expect(renamed.status()).toBe(400);
    expect(await renamed.json()).toEqual({
      error: { title: "Invalid file type", message: "Please upload a JPG, PNG, or WEBP image" },
    });
    const large = await page.request.post("/admin/uploads?kind=image", {
      data: sixMb,
      headers: { ...OWN_ORIGIN, "content-type": "image/png" },
    });
    expect(large.status()).toBe(413);
    expect((await large.json()).error.title).toBe("File too large");

    const anonymous = await playwright.request.newContext({ baseURL });
    const refused = await anonymous.post("/admin/uploads?kind=image", {
      data: await bigPng(),
      headers: { ...OWN_ORIGIN, "content-type": "image/png" },
    });
    expect(refused.status()).toBe(401);
    await anonymous.dispose();
  });

  test("a duplicate title gets the 23505 message and the typed form survives", async ({ page }) => {
    await signIn(page, "editor");
    const title = unique("E2E Duplicate");
    await createDraft(page, title);

    await page.goto("/admin/events/new");
    await fillRequired(page, { title, location: "Accra, Ghana" });
    await page.getByLabel("Description").fill("Typed before the failure.");
    await page.getByLabel("Theme").fill("Nothing lost");
    await page.getByRole("button", { name: "Create Event" }).click();

    const message = "An event with this title already exists. Please choose a different title.";
    const alert = page.getByRole("alert").filter({ hasText: "Failed to create event" });
    await expect(alert).toContainText(message);
    await expect(toast(page, "Failed to create event")).toBeVisible();
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue(title);
    await expect(page.getByLabel("Location")).toHaveValue("Accra, Ghana");
    await expect(page.getByLabel("Description")).toHaveValue("Typed before the failure.");
    await expect(page.getByLabel("Theme")).toHaveValue("Nothing lost");
    await alert.getByRole("button", { name: "Dismiss" }).click();
    await expect(alert).toBeHidden();
  });

  test("an event is deleted after confirmation, with a toast", async ({ page }) => {
    await signIn(page, "editor");
    const title = unique("E2E Delete Me");
    await createDraft(page, title);

    await page.goto(`/admin/events?search=${encodeURIComponent(title)}&status=draft`);
    await page.getByRole("button", { name: `Delete ${title}` }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog.getByText("Delete event?")).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("heading", { name: title })).toBeVisible();

    await page.getByRole("button", { name: `Delete ${title}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(toast(page, "Event deleted")).toBeVisible();
    await expect(page.getByText(`${title} has been successfully deleted.`)).toBeVisible();
    await expect(page.getByRole("heading", { name: "No events found" })).toBeVisible();
    await expect(page.getByText("Try adjusting your filters or search terms.")).toBeVisible();
    await expect(page).toHaveURL(/status=draft/);
    await closeToasts(page);
  });
});

test.describe("admin layout and dashboard", () => {
  test("an editor sees live counts and no admin-only sections; an admin sees them", async ({
    page,
  }) => {
    await signIn(page, "editor");
    await page.goto("/admin");
    await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
    const main = page.getByRole("main");
    for (const section of ["Events", "Papers", "Speakers", "Sponsors"]) {
      await expect(main.getByRole("heading", { level: 2, name: section })).toBeVisible();
      await expect(main.getByRole("link", { name: `View All ${section}` })).toBeVisible();
    }
    await expect(main.getByRole("heading", { level: 2, name: "Offices" })).toHaveCount(0);
    const nav = page.getByRole("navigation", { name: "Back office" });
    await expect(nav.getByRole("link", { name: "Back to Site" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Security Center" })).toHaveCount(0);

    const eventCount = async () =>
      Number.parseInt((await page.getByTestId("count-events").textContent()) ?? "", 10);
    const before = await eventCount();
    await createDraft(page, unique("E2E Counted"));
    await page.goto("/admin");
    expect(await eventCount()).toBeGreaterThan(before);
    await expect(page.getByRole("region", { name: "Latest activity" })).toContainText(
      "created event",
    );

    await page.context().clearCookies();
    await signIn(page, "admin");
    await page.goto("/admin");
    await expect(main.getByRole("heading", { level: 2, name: "Offices" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Security Center" })).toBeVisible();
  });

  test("on a phone the sidebar collapses into a menu", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await signIn(page, "editor");
    await page.goto("/admin");
    const nav = page.getByRole("navigation", { name: "Back office" });
    await expect(nav).toBeHidden();
    await page.getByText("Admin menu").click();
    await expect(nav).toBeVisible();
    await nav.getByRole("link", { name: "Events" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Manage Events" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Back office" })).toBeHidden();
  });
});
