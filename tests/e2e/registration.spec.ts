import type { Page } from "@playwright/test";
import { slugify } from "../../app/lib/format";
import {
  closeToasts,
  expect,
  signIn,
  test,
  untilHydrated,
  verifiedAccount,
  waitForMail,
} from "./fixtures";

// The job worker polls every few seconds: mail sent by a job arrives within a poll or two.
const MAIL_WAIT_MS = 30_000;

const FREE_EVENT = "Introduction to Data Governance Webinar";
const PAID_EVENT = "Building a Data Catalogue Workshop"; // 30 seats in the demo content
const SMALL_EVENT = "Young Information Professionals Meetup"; // 12 seats in the demo content

function attachmentBytes(content: unknown) {
  const json = content as { data?: number[] };
  return Buffer.from(json.data ?? (content as Buffer));
}

test("a member registers for a free event, gets the ticket by e-mail with .ics and QR, and cancels", async ({
  page,
}) => {
  test.setTimeout(90_000);
  // Accounts of the tests' own (fixtures.ts): one registration per account and ticket and five
  // registration actions a minute (decision 0073) would couple a retry, or the specs running
  // alongside, to the demo member's bookings.
  const member = await verifiedAccount(page.request, "Free Registrant");
  const eventPath = `/events/${slugify(FREE_EVENT)}`;
  // The old checkout address leads to registration.
  await page.goto(`${eventPath}/checkout`);
  await expect(page).toHaveURL(`${eventPath}/register`);
  await page.goto(eventPath);
  await page.getByRole("link", { name: "Register Now" }).click();
  await page.waitForURL((url) => url.pathname === `${eventPath}/register`);
  // The first seat is the member's own (a delegation names the other seats, delegation.spec.ts).
  await expect(page.getByRole("group", { name: /^Seat 1: / }).getByLabel("Name")).toHaveValue(
    member.name,
  );
  await page.getByRole("button", { name: "Register", exact: true }).click();

  await page.waitForURL(/\/registrations\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: FREE_EVENT })).toBeVisible();
  await expect(page.getByText("Confirmed", { exact: true })).toBeVisible();
  await expect(page.getByRole("img", { name: "QR code of seat 1" })).toBeVisible();
  await closeToasts(page);

  const mail = await waitForMail(
    member.email,
    new RegExp(`^You're registered: ${FREE_EVENT}$`),
    MAIL_WAIT_MS,
  );
  const ics = mail.attachments.find((a) => a.filename.endsWith(".ics"));
  expect(ics?.contentType).toMatch(/^text\/calendar/);
  expect(attachmentBytes(ics?.content).toString()).toContain(`SUMMARY:${FREE_EVENT}`);
  const qr = mail.attachments.find((a) => a.filename === `${slugify(FREE_EVENT)}-ticket-1.png`);
  expect(qr?.contentType).toBe("image/png");
  expect(attachmentBytes(qr?.content).subarray(1, 4).toString()).toBe("PNG");

  // Self-service cancellation frees the seat.
  await page.getByRole("button", { name: "Cancel Registration" }).click();
  // Irreversible, so asked twice: the question says what happens to the seats.
  await expect(page.getByRole("heading", { name: "Cancel this registration?" })).toBeVisible();
  await page.getByRole("button", { name: "Yes, cancel registration" }).click();
  await expect(page.getByText("Registration cancelled")).toBeVisible();
  await expect(page.locator("main [data-slot=badge]").first()).toHaveText("Cancelled");
  await closeToasts(page);
  await page.goto("/profile");
  const myEvents = page.locator("#my-events");
  await expect(myEvents.getByRole("heading", { name: "My events" })).toBeVisible();
  await expect(myEvents.getByText(FREE_EVENT).first()).toBeVisible();
});

test("a member registers for a paid event: seats held by an order with its invoice", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const member = await verifiedAccount(page.request, "Paid Registrant");
  await page.goto(`/events/${slugify(PAID_EVENT)}/register`);
  await page.getByLabel("Organisation name").fill("Records Kenya Ltd");
  await page.getByRole("button", { name: "Register and Get Invoice" }).click();
  await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
  const heading = page.getByRole("heading", { level: 1, name: /^Order INV-\d{4}-\d{6}$/ });
  await expect(heading).toBeVisible();
  const invoiceNumber = ((await heading.textContent()) ?? "").replace("Order ", "").trim();
  await expect(page.getByText("Awaiting payment", { exact: true })).toBeVisible();
  const invoiceMail = await waitForMail(member.email, new RegExp(invoiceNumber), MAIL_WAIT_MS);
  expect(invoiceMail.attachments.some((a) => a.filename === `${invoiceNumber}.pdf`)).toBe(true);
  await closeToasts(page);

  // "My events" shows it awaiting payment, with the invoice; cancelling cancels the order too.
  await page.goto("/profile");
  const entry = page.locator("#my-events li").filter({ hasText: invoiceNumber });
  await expect(entry.getByText("Awaiting payment")).toBeVisible();
  await expect(entry.getByRole("link", { name: "Pay Invoice" })).toBeVisible();
  await entry.getByRole("button", { name: `Cancel registration for ${PAID_EVENT}` }).click();
  await page.getByRole("button", { name: "Yes, cancel registration" }).click();
  await expect(page.getByText("Registration cancelled")).toBeVisible();
  await page.goto("/profile");
  await expect(
    page.locator("#orders li").filter({ hasText: invoiceNumber }).getByText("Cancelled"),
  ).toBeVisible();
});

/** Seats left of the ticket the registration page shows ("12 seats left", or sold out). */
async function seatsLeft(page: Page) {
  const status = page.getByText(/^(\d+) seats? left$|^Sold out: join the waitlist$/).first();
  const text = (await status.textContent()) ?? "";
  return Number(text.match(/^\d+/)?.[0] ?? 0);
}

/**
 * Books `seats` seats of the first ticket on the registration page that is open, one registration
 * per seat (decision 0093), naming the other seats; returns the first seat's ticket page.
 */
async function book(page: Page, seats: number) {
  await untilHydrated(page); // its own browser context's page: goto returns before hydration
  await page
    .getByLabel(/^Seats of /)
    .first()
    .fill(String(seats));
  for (let n = 2; n <= seats; n++) {
    const seat = page.getByRole("group", { name: new RegExp(`^Seat ${n}: `) });
    const tag = `${Date.now().toString(36)}.${n}`;
    await seat.getByLabel("Name").fill(`Colleague ${tag}`);
    await seat.getByLabel("E-mail").fill(`colleague.${tag}@example.test`);
  }
  await page.getByRole("button", { name: "Register", exact: true }).click();
  if (seats === 1) {
    await page.waitForURL(/\/registrations\/[0-9a-f-]{36}$/);
    return page.url();
  }
  await expect(page.getByText(`${seats} seats registered`)).toBeVisible();
  const first = page.locator('main a[href^="/registrations/"]').first();
  return new URL((await first.getAttribute("href")) as string, page.url()).toString();
}

test("a full event takes a waitlist; a cancelled seat is offered by e-mail and claimed", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const registerPath = `/events/${slugify(SMALL_EVENT)}/register`;

  // Two people book the seats that are left, the second of them two seats (one when only one is
  // left); each with an account of the test's own (a retry books what an earlier try left).
  const bookerContext = await browser.newContext();
  const booker = await bookerContext.newPage();
  await verifiedAccount(booker.request, "Waitlist Booker");
  await booker.goto(registerPath);
  const left = await seatsLeft(booker);
  expect(left, "seats left of the small event").toBeGreaterThanOrEqual(1);
  const held = Math.min(2, left);
  if (left > held) await book(booker, left - held);
  await bookerContext.close();
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await verifiedAccount(staff.request, "Waitlist Holder");
  await staff.goto(registerPath);
  const secondRegistration = await book(staff, held);

  // The member finds it full: the event page offers the waitlist, not 'Register Now'.
  const member = await verifiedAccount(page.request, "Waitlist Member");
  await page.goto(`/events/${slugify(SMALL_EVENT)}`);
  await expect(page.getByText("This event is sold out.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Register Now" })).toHaveCount(0);
  await page.getByRole("link", { name: "Join Waitlist" }).click();
  await expect(page).toHaveURL(registerPath);
  await expect(page.getByText("Sold out: join the waitlist").first()).toBeVisible();
  await page.getByRole("button", { name: "Join Waitlist" }).click();
  await expect(page.getByText("You are number 1 on the waitlist")).toBeVisible();
  // The position is also announced: the toast saying it sits in a polite live region.
  await expect(
    page.locator('[aria-live="polite"]').filter({ hasText: "You are number 1." }),
  ).toHaveCount(1);
  await closeToasts(page);

  // The holder cancels their seats: the first person waiting is offered one.
  await staff.goto(secondRegistration);
  await staff.getByRole("button", { name: "Cancel Registration" }).click();
  await staff.getByRole("button", { name: "Yes, cancel registration" }).click();
  await expect(staff.getByText("Registration cancelled")).toBeVisible();
  await staffContext.close();

  const offer = await waitForMail(
    member.email,
    new RegExp(`^A seat is free for you: ${SMALL_EVENT}$`),
    MAIL_WAIT_MS,
  );
  const link = offer.text.match(/https?:\/\/\S+\/register\?offer=[0-9a-f-]{36}/)?.[0];
  expect(link, offer.text).toBeTruthy();
  await page.goto(new URL(link as string).pathname + new URL(link as string).search);
  await expect(page.getByText(/is held for you until/)).toBeVisible();
  await page.getByRole("button", { name: "Register", exact: true }).click();
  await page.waitForURL(/\/registrations\/[0-9a-f-]{36}$/);
  await expect(page.getByText("Confirmed", { exact: true })).toBeVisible();
  await expect(page.getByRole("img", { name: "QR code of seat 1" })).toBeVisible();
});

test("a past event shows its badge and takes no registrations", async ({ page }) => {
  const past = "Women in Data Leadership Gala";
  await page.goto(`/events/${slugify(past)}`);
  await expect(page.getByText("Past event").first()).toBeVisible();
  await expect(page.getByText("This is a past event; it takes no registrations.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Register Now" })).toHaveCount(0);
  // The listing shows what is to come first; the past event is further on, with its badge.
  await page.goto("/events");
  await expect(page.getByTestId("event-card").first().getByText("Past event")).toHaveCount(0);
  await page.goto(`/events?search=${encodeURIComponent(past)}`);
  const card = page.getByTestId("event-card").filter({ hasText: past });
  await expect(card.getByText("Past event")).toBeVisible();
  await signIn(page, "user");
  await page.goto(`/events/${slugify(past)}/register`);
  await expect(page.getByText(/takes no registrations/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Register", exact: true })).toHaveCount(0);
});
