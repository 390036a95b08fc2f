import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import QRCode from "qrcode";
import { slugify } from "../../app/lib/format";
import { DEMO_ACCOUNTS } from "../../app/models/seed/demo-accounts";
import {
  closeToasts,
  expect,
  expectNoSeriousA11yViolations,
  randomClientIp,
  signIn,
  test,
  untilHydrated,
} from "./fixtures";

const editor = DEMO_ACCOUNTS.find((a) => a.role === "editor")!;
const member = DEMO_ACCOUNTS.find((a) => a.role === "user")!;
// A free webinar of the demo content: registering needs no payment.
const EVENT = "Introduction to Data Governance Webinar";

/**
 * The webinar starts in a few days, so its door is not open yet: the organiser opens it early
 * (the override a set opening time needs), and the button is gone once it is open.
 */
async function openTheDoor(page: Page) {
  await expect(page.getByText(/^Check-in opens at /)).toBeVisible();
  await page.getByRole("button", { name: "Open check-in now" }).click();
  await expect(page.getByRole("status", { name: "Check-in result" })).toHaveText(
    "Check-in is open.",
  );
  await expect(page.getByRole("button", { name: "Open check-in now" })).toHaveCount(0);
}

// The door staff's phone.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test("an editor finds an event's registrations, exports them and checks people in on a phone", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const attendee = `Check-in Tester ${randomBytes(3).toString("hex")}`;

  // Someone books two seats in that name (a registration each, decision 0093); each ticket page
  // shows its code.
  const memberContext = await browser.newContext();
  const codes = await registerTickets(await memberContext.newPage(), "admin", attendee, 2);
  expect(codes).toHaveLength(2);
  await memberContext.close();

  // Nothing public names who is coming: the event's pages, listings, feeds and calendars.
  const visitor = await browser.newContext();
  const eventPath = `/events/${slugify(EVENT)}`;
  for (const path of [
    eventPath,
    `${eventPath}/calendar.ics`,
    `${eventPath}/register`,
    "/events",
    "/events.ics",
    "/events/rss.xml",
    "/",
    "/sitemap.xml",
  ]) {
    const response = await visitor.request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBeLessThan(400);
    const body = await response.text();
    expect(body, path).not.toContain(attendee);
    expect(body, path).not.toContain(member.email);
    expect(body, path).not.toContain(codes[0]);
  }
  await visitor.close();

  // The editor, on a phone, opens the event's registrations from the events list.
  const staff = page;
  await signIn(staff, "editor");
  await staff.goto(`/admin/events?search=${encodeURIComponent(EVENT)}`);
  await staff.getByRole("link", { name: `Registrations for ${EVENT}` }).click();
  await staff.waitForURL(/\/admin\/events\/[0-9a-f-]{36}\/registrations$/);
  await expect(staff.getByRole("heading", { level: 1, name: "Registrations" })).toBeVisible();
  await expect(staff.getByText("Capacity left")).toBeVisible();

  // Filters live in the URL: search by name, then only confirmed registrations.
  await staff.getByLabel("Search registrations").fill(attendee);
  await staff.waitForURL((url) => url.searchParams.get("search") === attendee);
  await staff.getByLabel("Status").selectOption("confirmed");
  await staff.waitForURL((url) => url.searchParams.get("status") === "confirmed");
  const rows = staff.locator("tbody tr").filter({ hasText: attendee });
  await expect(rows).toHaveCount(2);
  await expect(rows.getByText("Confirmed")).toHaveCount(2);
  await expect(rows.getByText("0 of 1")).toHaveCount(2);

  // The CSV export keeps the filters.
  const downloading = staff.waitForEvent("download");
  await staff.getByRole("link", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/-registrations-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path()) as string, "utf8");
  const lines = csv.trim().split("\r\n");
  expect(lines[0]).toContain('"Name","Email","Ticket","Seats","Status"');
  expect(lines).toHaveLength(3);
  for (const line of lines.slice(1)) {
    expect(line).toContain(`"${attendee}"`);
    expect(line).toContain('"1","Confirmed"');
  }

  // Check-in: the name search finds both seats; the first is checked in from there.
  await staff.getByRole("link", { name: "Check-in" }).click();
  await expect(staff.getByRole("heading", { level: 1, name: "Check-in" })).toBeVisible();
  if (await staff.getByRole("button", { name: "Open check-in now" }).isVisible()) {
    await openTheDoor(staff);
  }
  await staff.getByLabel("Name or e-mail").fill(attendee);
  await staff.getByRole("button", { name: "Search" }).click();
  await staff
    .getByRole("button", { name: `Check in ${attendee}` })
    .first()
    .click();
  const answer = staff.getByRole("status", { name: "Check-in result" });
  await expect(answer).toHaveText(new RegExp(`^Checked in: ${attendee} · [^·]+$`));
  await expect(staff.getByText(/^Ticket · Checked in at .+ by Daniel Otieno$/)).toBeVisible();

  // The second seat by its code, as a handheld scanner types it: the code, then Enter.
  const codeField = staff.getByLabel("Ticket code");
  await codeField.fill(codes[1]);
  await codeField.press("Enter");
  // The answer reads as the first seat's did, so its own mark is the second seat's line in the
  // search results: checked in too. Without it the next scan was typed while this one was still
  // on its way, and went nowhere (the button is disabled meanwhile, so Enter submits nothing).
  await expect(staff.getByText(/^Ticket · Checked in at .+ by Daniel Otieno$/)).toHaveCount(2);
  await expect(answer).toHaveText(new RegExp(`^Checked in: ${attendee} · [^·]+$`));
  await expect(codeField).toHaveValue("");
  await expect(codeField).toBeFocused();

  // The same ticket scanned again: already checked in, when and by whom.
  await codeField.fill(codes[1]);
  await codeField.press("Enter");
  await expect(answer).toHaveText(
    new RegExp(`^Already checked in at \\d{1,2}:\\d{2} [AP]M on .+ by ${editor.name}$`),
  );

  // An unknown code is refused plainly and left selected for the next scan.
  await codeField.fill("not-a-ticket-code");
  await codeField.press("Enter");
  await expect(answer).toHaveText("No ticket has this code. Check the code, or search by name.");
  await expect(codeField).toHaveValue("not-a-ticket-code");

  // With answers shown, the screen still passes axe; nothing on it is wider than the phone.
  await expectNoSeriousA11yViolations(staff);
  const overflow = await staff.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);

  // Back in the list, both seats' rows show them checked in.
  await staff.getByRole("link", { name: "Registrations", exact: true }).click();
  await staff.getByLabel("Search registrations").fill(attendee);
  await expect(
    staff.locator("tbody tr").filter({ hasText: attendee }).getByText("1 of 1"),
  ).toHaveCount(2);
  await closeToasts(staff);
});

/**
 * `who` registers `seats` seats for EVENT in `attendee`'s name; returns the ticket codes. An
 * account has one registration per ticket (decision 0073): its earlier ones (a previous test or
 * run) are cancelled first. Each test uses its own account, as the spec files run in parallel.
 */
async function registerTickets(
  member: Page,
  who: "admin" | "editor",
  attendee: string,
  seats: number,
) {
  await signIn(member, who);
  const registerPath = `/events/${slugify(EVENT)}/register`;
  await member.goto(registerPath);
  const earlier = member.getByRole("link", { name: / × \d+$/ });
  while ((await earlier.count()) > 0) {
    await earlier.first().click();
    await member.getByRole("button", { name: "Cancel Registration" }).click();
    await member.getByRole("button", { name: "Yes, cancel registration" }).click();
    await expect(member.getByText("Registration cancelled")).toBeVisible();
    await member.goto(registerPath);
  }
  // A seat each (decision 0093), all in the attendee's name.
  await untilHydrated(member);
  await member
    .getByLabel(/^Seats of /)
    .first()
    .fill(String(seats));
  for (let n = 1; n <= seats; n++) {
    const seat = member.getByRole("group", { name: new RegExp(`^Seat ${n}: `) });
    await seat.getByLabel("Name").fill(attendee);
    if (n > 1) {
      await seat
        .getByLabel("E-mail")
        .fill(`${attendee.toLowerCase().replace(/\W+/g, ".")}.${n}@example.test`);
    }
  }
  await member.getByRole("button", { name: "Register", exact: true }).click();
  if (seats === 1) {
    await member.waitForURL(/\/registrations\/[0-9a-f-]{36}$/);
    await expect(member.getByRole("img", { name: "QR code of seat 1" })).toBeVisible();
    return member.locator("main p.font-mono").allTextContents();
  }
  await expect(member.getByText(`${seats} seats registered`)).toBeVisible();
  const links = await member
    .locator('main a[href^="/registrations/"]')
    .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute("href") as string));
  expect(links).toHaveLength(seats);
  const codes: string[] = [];
  for (const link of links) {
    await member.goto(link);
    codes.push(...(await member.locator("main p.font-mono").allTextContents()));
  }
  return codes;
}

/**
 * A video of a ticket's QR code for Chromium's fake camera (Y4M: raw 4:2:0 frames), so the
 * camera scanner is tested end to end: getUserMedia, frame capture and QR decoding.
 */
async function qrVideo(code: string) {
  const size = 480;
  const qr = QRCode.create(code, { errorCorrectionLevel: "M" });
  const modules = qr.modules.size;
  const scale = Math.floor(size / (modules + 8));
  const offset = Math.floor((size - modules * scale) / 2);
  const luma = Buffer.alloc(size * size, 255);
  for (let y = 0; y < modules * scale; y++) {
    for (let x = 0; x < modules * scale; x++) {
      if (qr.modules.get(Math.floor(y / scale), Math.floor(x / scale))) {
        luma[(offset + y) * size + offset + x] = 0;
      }
    }
  }
  const chroma = Buffer.alloc((size / 2) * (size / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), luma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${size} H${size} F5:1 Ip A1:1 C420jpeg\n`);
  const file = path.join(await mkdtemp(path.join(tmpdir(), "kongamano-camera-")), "qr.y4m");
  await writeFile(file, Buffer.concat([header, frame, frame, frame, frame, frame]));
  return file;
}

test("the door's phone camera reads a ticket's QR code and checks the person in", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const attendee = `Camera Tester ${randomBytes(3).toString("hex")}`;
  const memberContext = await browser.newContext();
  const [code] = await registerTickets(await memberContext.newPage(), "editor", attendee, 1);
  await memberContext.close();

  // The editor finds the event's check-in screen (this page is axe-checked as usual).
  await signIn(page, "editor");
  await page.goto(`/admin/events?search=${encodeURIComponent(EVENT)}`);
  await page.getByRole("link", { name: `Registrations for ${EVENT}` }).click();
  await page.getByRole("link", { name: "Check-in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Check-in" })).toBeVisible();
  if (await page.getByRole("button", { name: "Open check-in now" }).isVisible()) {
    await openTheDoor(page);
  }
  const checkInUrl = page.url();

  // A browser whose camera films the ticket (Chromium's fake capture device).
  const cameraBrowser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-video-capture=${await qrVideo(code)}`,
    ],
  });
  try {
    const phone = await cameraBrowser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      permissions: ["camera"],
      extraHTTPHeaders: { "x-forwarded-for": randomClientIp() },
    });
    const door = await phone.newPage();
    await signIn(door, "editor");
    await door.goto(checkInUrl);
    await door.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
    await door.getByRole("button", { name: "Scan with camera" }).click();
    await expect(door.getByLabel("Camera preview")).toBeVisible();
    const answer = door.getByRole("status", { name: "Check-in result" });
    await expect(answer).toHaveText(new RegExp(`^Checked in: ${attendee} · .+$`), {
      timeout: 20_000,
    });
    await door.getByRole("button", { name: "Stop camera" }).click();
    await expect(door.getByRole("button", { name: "Scan with camera" })).toBeVisible();
  } finally {
    await cameraBrowser.close();
  }
});
