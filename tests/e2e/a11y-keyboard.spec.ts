import type { FileChooser, Page } from "@playwright/test";
import sharp from "sharp";
import { slugify } from "../../app/lib/format";
import { expectVisibleFocus, type FocusReport, press, tabTo } from "./a11y-support";
import {
  expect as baseExpect,
  randomClientIp,
  signIn,
  test,
  untilHydrated,
  waitForMail,
} from "./fixtures";

// Issue 19 item 2: journeys done with the keyboard alone (Tab, Shift+Tab, Enter, Space, Escape,
// arrows; text typed key by key). No mouse event is sent; each step asserts a visible,
// unobscured focus. A file is chosen through the file picker that the keyboard opens.

// The pages themselves are checked with axe by the route sweep (a11y-routes.spec.ts), for every
// role; this journey keeps its own targeted checks.
test.use({ axeOnLoad: false });

const expect = baseExpect.configure({ timeout: 20_000 });
const unique = (label: string) => `${label} ${Date.now().toString(36)}`;

const byLabel = (text: string) => (r: FocusReport) => r.label.replace(/\s*\*$/, "") === text;
const byName = (text: string | RegExp) => (r: FocusReport) =>
  typeof text === "string" ? r.name === text : text.test(r.name);

/** Types text into the focused field, key by key. */
async function type(page: Page, text: string) {
  await page.keyboard.type(text);
}

/** Starts a journey from the top of a page, focus on the document. */
async function start(page: Page, path: string) {
  await page.goto(path);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

test("find an event, open it and download its calendar file", async ({ page }) => {
  await start(page, "/events");
  await tabTo(page, byLabel("Search events"), { step: "to the search box" });
  await type(page, "Data");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/search=Data/);
  const card = await tabTo(page, byName(/^Learn More about /), { step: "to the first result" });
  const title = card.name.replace(/^Learn More about /, "");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await tabTo(page, byName("Download .ics"), { limit: 120, step: "to Download .ics" });
  const download = page.waitForEvent("download");
  await page.keyboard.press("Enter");
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.ics$/);
  const { readFile } = await import("node:fs/promises");
  const text = await readFile((await file.path())!, "utf8");
  expect(text).toContain("BEGIN:VCALENDAR");
  expect(text).toContain(`SUMMARY:${title.slice(0, 20)}`);
});

test("sign up and verify the e-mail address", async ({ page }) => {
  await page.setExtraHTTPHeaders({ "x-forwarded-for": randomClientIp() });
  await start(page, "/auth");
  await tabTo(page, (r) => r.role === "tab" && r.name === "Sign In", {
    step: "to the Sign In tab",
  });
  // Arrow keys move between tabs (roving focus), Enter follows the tab.
  const next = await press(page, "ArrowRight", "ArrowRight to Sign Up");
  expect(next.name).toBe("Sign Up");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/tab=signup/);
  // The URL changes first; the form follows with the tab's panel (Tab before it would leave
  // the page through the footer).
  await expect(page.getByLabel("Full Name")).toBeVisible();
  const email = `keyboard.${Date.now()}@example.test`;
  const password = "Quiet-Harbour-2026!";
  await tabTo(page, byLabel("Full Name"), { step: "to Full Name" });
  await type(page, "Wanjiku Keyboard");
  await tabTo(page, byLabel("Email"), { step: "to Email" });
  await type(page, email);
  await tabTo(page, byLabel("Password"), { step: "to Password" });
  await type(page, password);
  await tabTo(page, byLabel("Confirm Password"), { step: "to Confirm Password" });
  await type(page, password);
  await tabTo(page, byName("Create Account"), { step: "to Create Account" });
  await page.keyboard.press("Enter");
  await expect(page.getByText("Account created!").first()).toBeVisible();
  const mail = await waitForMail(email, /Verify/);
  await page.goto(mail.text.match(/https?:\/\/\S+/)![0]);
  await page.waitForURL((url) => url.pathname === "/");
  await expect(page.getByText("Email verified")).toBeVisible();
});

test("an editor creates an event with an image, speakers and fees", async ({ page }) => {
  test.setTimeout(180_000);
  // Listened for from the start: Playwright has Chromium intercept file pickers only once a
  // listener exists, and turns that on without waiting. A key pressed right after the listener
  // can reach the page before it, and the picker then opens natively, unseen (a 3-minute hang).
  const choosers: FileChooser[] = [];
  page.on("filechooser", (chooser) => choosers.push(chooser));
  await signIn(page, "editor");
  await start(page, "/admin/events/new");
  const title = unique("Keyboard Records Forum");

  await tabTo(page, byLabel("Title"), { limit: 120, step: "to Title" });
  await type(page, title);
  await tabTo(page, byLabel("Location"), { step: "to Location" });
  await type(page, "Arusha, Tanzania");
  await tabTo(page, byLabel("Start Date"), { step: "to Start Date" });
  // Month, day, year; Tab to the hour; hour, minute, AM/PM.
  await type(page, "03102027");
  await page.keyboard.press("Tab");
  await type(page, "0900AM");
  await tabTo(page, byLabel("End Date"), { step: "to End Date" });
  await type(page, "03122027");
  await page.keyboard.press("Tab");
  await type(page, "0500PM");
  await expect(page.getByLabel("Start Date")).toHaveValue("2027-03-10T09:00");
  await expect(page.getByLabel("End Date")).toHaveValue("2027-03-12T17:00");

  // The image: the file input takes focus; Space opens the picker (no drag and drop needed).
  await tabTo(page, (r) => r.tag === "input" && /choose a file/i.test(r.label), {
    step: "to the image input",
  });
  await page.keyboard.press("Space");
  await expect.poll(() => choosers.length, { message: "Space opens the file picker" }).toBe(1);
  const png = await sharp({
    create: { width: 800, height: 420, channels: 3, background: { r: 21, g: 128, b: 61 } },
  })
    .png()
    .toBuffer();
  await choosers[0].setFiles({ name: "banner.png", mimeType: "image/png", buffer: png });
  await expect(page.getByRole("img", { name: "Preview of the event image" })).toBeVisible();

  // Two speakers: Tab into the list, Space ticks a box.
  const speakers = page.getByRole("group", { name: /^Speakers \(/ });
  await tabTo(page, (r) => r.tag === "input" && r.role === null && r.name === "speakerIds", {
    step: "to the first speaker",
  });
  await page.keyboard.press("Space");
  await press(page, "Tab", "to the second speaker");
  await page.keyboard.press("Space");
  await expect(speakers).toHaveAccessibleName(/\(2 selected\)/);

  await tabTo(page, byName("Create Event"), { limit: 120, step: "to Create Event" });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL("/admin/events");
  await expect(
    page.locator("[data-sonner-toast]").getByText("Event created successfully"),
  ).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

  // Fees are added on the edit screen.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await tabTo(page, byLabel("Search events"), { limit: 120, step: "to the admin search" });
  await type(page, title);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/search=/);
  await tabTo(page, byName(`Edit ${title}`), { limit: 120, step: "to Edit" });
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Edit Event" })).toBeVisible();
  await tabTo(page, byName("Add Fee"), { limit: 200, step: "to Add Fee" });
  await page.keyboard.press("Enter");
  // The new row appears above the button: Shift+Tab back into it.
  await tabTo(page, byLabel("Fee 1 Amount"), { backwards: true, step: "back to Fee 1 Amount" });
  await type(page, "350");
  await tabTo(page, byName("Save All Fees"), { step: "to Save All Fees" });
  await page.keyboard.press("Enter");
  await expect(
    page.locator("[data-sonner-toast]").getByText("Event fees saved successfully"),
  ).toBeVisible();
  await expect(page.getByLabel("Fee 1 Amount")).toHaveValue("350.00");
  await expect(page.locator('input[name="imageUrl"]')).toHaveValue(/^\/uploads\/images\//);
});

test("an admin changes a user's role from the row menu", async ({ page }) => {
  const name = unique("Keyboard Role Person");
  const signUp = await page.request.post("/api/auth/sign-up/email", {
    data: { name, email: `kb.role.${Date.now()}@example.test`, password: "Sign-up-pass-2026" },
    headers: { "x-forwarded-for": randomClientIp() },
  });
  expect(signUp.ok()).toBe(true);
  await signIn(page, "admin");
  await start(page, `/admin/users?search=${encodeURIComponent(name)}`);
  await tabTo(page, byName(`Actions for ${name}`), { limit: 120, step: "to the row menu" });
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu");
  await expect(menu).toBeVisible();
  // Arrow keys move the highlight; the highlighted item is drawn with a fill.
  for (let i = 0; i < 4; i++) {
    const focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
    if (focused === "Make Editor") break;
    await page.keyboard.press("ArrowDown");
  }
  const item = page.getByRole("menuitem", { name: "Make Editor" });
  await expect(item).toBeFocused();
  await expect(item).toHaveAttribute("data-highlighted", "");
  const fills = await item.evaluate((el) => [
    getComputedStyle(el).backgroundColor,
    getComputedStyle(el.parentElement!).backgroundColor,
  ]);
  expect(fills[0]).not.toBe(fills[1]);
  await page.keyboard.press("Enter");
  await expect(
    page.locator("[data-sonner-toast]").filter({ hasText: "Role updated" }),
  ).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row.getByText("Editor", { exact: true })).toBeVisible();
  // Escape-closing and focus return: open again and leave with Escape.
  await page.getByRole("button", { name: `Actions for ${name}` }).focus();
  await page.keyboard.press("Enter");
  await expect(menu).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(page.getByRole("button", { name: `Actions for ${name}` })).toBeFocused();
  await expectVisibleFocus(page, "row menu button after Escape");
});

// A free evening of the demo content that no other test books (80 seats).
const KEYBOARD_EVENT = "Nairobi Data Professionals Mixer";
const keyboardEventPath = `/events/${slugify(KEYBOARD_EVENT)}`;

/**
 * A verified account of this test's own, signed in on `page` (the verification link signs the
 * person in): specs run side by side, and the demo member's registrations and per-account rate
 * limit belong to the specs that need that member.
 */
async function ownAccount(page: Page, label: string) {
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const name = `Keyboard ${label} ${suffix}`;
  const email = `kb.${label.toLowerCase()}.${suffix}@example.test`;
  const signUp = await page.request.post("/api/auth/sign-up/email", {
    data: { name, email, password: "Quiet-Harbour-2026!" },
    headers: { "x-forwarded-for": randomClientIp() },
  });
  expect(signUp.ok()).toBe(true);
  const verify = await waitForMail(email, /Verify/);
  await page.goto(verify.text.match(/https?:\/\/\S+/)![0]);
  await page.waitForURL((url) => url.pathname === "/");
  return { name, email };
}

test("a member registers for an event and cancels, the form knowing who they are", async ({
  page,
}) => {
  const member = await ownAccount(page, "Member");
  await start(page, keyboardEventPath);
  await tabTo(page, byName("Register Now"), { limit: 120, step: "to Register Now" });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`${keyboardEventPath}/register`);
  // 3.3.7 Redundant Entry: the first seat is the signed-in member's unless changed.
  const firstSeat = page.getByRole("group", { name: /^Seat 1: / });
  await expect(firstSeat.getByLabel("Name")).toHaveValue(member.name);
  await expect(firstSeat.getByLabel("E-mail")).toHaveValue(member.email);

  // Two seats of the first ticket (a delegation, decision 0093), the second named by keyboard.
  const seats = await tabTo(page, (r) => /^Seats of /.test(r.label || r.name), {
    limit: 60,
    step: "to the first ticket's seats",
  });
  expect(seats.label || seats.name).not.toBe("");
  await page.keyboard.press("Control+A");
  await type(page, "2");
  await tabTo(page, byLabel("E-mail"), { step: "to seat 1's e-mail" });
  await tabTo(page, byLabel("Name"), { step: "to seat 2's name" });
  await type(page, "Keyboard Colleague");
  await tabTo(page, byLabel("E-mail"), { step: "to seat 2's e-mail" });
  await type(page, `colleague.${member.email}`);
  await tabTo(page, byName("Register"), { step: "to Register" });
  await page.keyboard.press("Enter");
  await expect(page.getByText("2 seats registered")).toBeVisible();
  const mine = page.getByRole("link", { name: new RegExp(`^${member.name}: `) });
  await mine.focus();
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/registrations\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: KEYBOARD_EVENT })).toBeVisible();
  await expect(page.getByRole("img", { name: "QR code of seat 1" })).toBeVisible();

  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await tabTo(page, byName("Cancel Registration"), { limit: 120, step: "to Cancel Registration" });
  await page.keyboard.press("Enter");
  // The question takes the focus; its confirming button is the next stop.
  await expect(page.getByRole("heading", { name: "Cancel this registration?" })).toBeFocused();
  await tabTo(page, byName("Yes, cancel registration"), { step: "to Yes, cancel registration" });
  await page.keyboard.press("Enter");
  await expect(page.getByText("Registration cancelled").first()).toBeVisible();
  await expect(page.locator("main [data-slot=badge]").first()).toHaveText("Cancelled");
});

test("a signed-in visitor applies for a membership", async ({ page }) => {
  // A verified account without a membership.
  const suffix = Date.now().toString(36);
  const name = `Keyboard Member ${suffix}`;
  const email = `kb.member.${suffix}@example.test`;
  const password = "Quiet-Harbour-2026!";
  const signUp = await page.request.post("/api/auth/sign-up/email", {
    data: { name, email, password },
    headers: { "x-forwarded-for": randomClientIp() },
  });
  expect(signUp.ok()).toBe(true);
  const verify = await waitForMail(email, /Verify/);
  // The verification link signs the person in.
  await page.goto(verify.text.match(/https?:\/\/\S+/)![0]);
  await page.waitForURL((url) => url.pathname === "/");

  await start(page, "/membership");
  await tabTo(page, byName("Start Membership: Individual plan"), {
    limit: 120,
    step: "to Start Membership",
  });
  await page.keyboard.press("Enter");
  await expect(
    page.getByRole("heading", { level: 1, name: "Apply for Individual Membership" }),
  ).toBeVisible();
  // 3.3.7: the name is filled in and the e-mail is not asked again.
  await expect(page.getByLabel("Name on your membership card")).toHaveValue(name);
  await expect(page.getByLabel("Email", { exact: true })).toHaveCount(0);
  await tabTo(page, byLabel("Plan"), { limit: 120, step: "to Plan" });
  await tabTo(page, byName("Submit Application"), { limit: 40, step: "to Submit Application" });
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
  await expect(
    page.getByRole("heading", { level: 1, name: /^Order INV-\d{4}-\d{6}$/ }),
  ).toBeVisible();
});

test("door staff check an attendee in by name search", async ({ page, browser }) => {
  // Someone registers two seats (set up with the mouse in a separate browser context).
  const attendee = `Keyboard Guest ${Date.now().toString(36)}`;
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await ownAccount(member, "Booker");
  await member.goto(`${keyboardEventPath}/register`);
  await untilHydrated(member);
  // Two seats in the attendee's name: a registration (and ticket) each (decision 0093).
  await member
    .getByLabel(/^Seats of /)
    .first()
    .fill("2");
  for (const n of [1, 2]) {
    const seat = member.getByRole("group", { name: new RegExp(`^Seat ${n}: `) });
    await seat.getByLabel("Name").fill(attendee);
    if (n === 2)
      await seat.getByLabel("E-mail").fill(`guest.${Date.now().toString(36)}@example.test`);
  }
  await member.getByRole("button", { name: "Register", exact: true }).click();
  await expect(member.getByText("2 seats registered")).toBeVisible();
  await memberContext.close();

  await signIn(page, "editor");
  await start(page, `/admin/events?search=${encodeURIComponent(KEYBOARD_EVENT)}`);
  await tabTo(page, byName(`Registrations for ${KEYBOARD_EVENT}`), {
    limit: 120,
    step: "to the event's registrations",
  });
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Registrations" })).toBeVisible();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await tabTo(page, byName("Check-in"), { limit: 120, step: "to Check-in" });
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Check-in" })).toBeVisible();
  // The event is days away, so its door is not open yet: the organiser opens it by keyboard.
  if (await page.getByRole("button", { name: "Open check-in now" }).isVisible()) {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, byName("Open check-in now"), { limit: 120, step: "to Open check-in now" });
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status", { name: "Check-in result" })).toHaveText(
      "Check-in is open.",
    );
  }

  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await tabTo(page, byLabel("Name or e-mail"), { limit: 120, step: "to the name search" });
  await type(page, attendee);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("list", { name: "People found" })).toContainText(attendee);
  await tabTo(page, byName(`Check in ${attendee}`), { step: "to the first seat" });
  await page.keyboard.press("Enter");
  // The result is announced by a polite live region; the focus is not dropped to the page but
  // returns to the search field, for the next name.
  const answer = page.getByRole("status", { name: "Check-in result" });
  await expect(answer).toHaveAttribute("aria-live", "polite");
  await expect(answer).toHaveText(new RegExp(`^Checked in: ${attendee} · [^·]+$`));
  await expect(page.getByLabel("Name or e-mail")).toBeFocused();
  await expectVisibleFocus(page, "back on the name search");
  await tabTo(page, byName(`Check in ${attendee}`), { step: "to the second seat" });
  await page.keyboard.press("Enter");
  await expect(answer).toHaveText(new RegExp(`^Checked in: ${attendee} · [^·]+$`));
  await expect(page.getByRole("button", { name: `Check in ${attendee}` })).toHaveCount(0);
  await expect(page.getByLabel("Name or e-mail")).toBeFocused();
});
