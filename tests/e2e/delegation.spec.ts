import type { Page } from "@playwright/test";
import { slugify } from "../../app/lib/format";
import { closeToasts, expect, test, verifiedAccount, waitForMail } from "./fixtures";

// Orders for delegations (issue 30 item 1, decision 0093), on a phone: several tickets in one
// order, a name and e-mail per seat, the total before submitting, each attendee's own ticket mail.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const MAIL_WAIT_MS = 30_000;
const FREE_EVENT = "Introduction to Data Governance Webinar";
const PAID_EVENT = "Building a Data Catalogue Workshop";

function attachments(mail: { attachments: { filename: string }[] }, ending: string) {
  return mail.attachments.filter((a) => a.filename.endsWith(ending));
}

/** Names seat `n` (1-based) of the delegation form. */
async function nameSeat(page: Page, n: number, name: string, email: string) {
  const seat = page.getByRole("group", { name: new RegExp(`^Seat ${n}: `) });
  await seat.getByLabel("Name").fill(name);
  await seat.getByLabel("E-mail").fill(email);
}

async function fitsThePhone(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, "no sideways scrolling at 390 px").toBeLessThanOrEqual(390);
}

test("a delegation books three seats, each attendee named, and each gets their own ticket", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const lead = await verifiedAccount(page.request, "Delegation Lead");
  const suffix = lead.email.split("@")[0].split(".").pop();
  const delegates = [
    { name: `Achieng Odhiambo ${suffix}`, email: `achieng.${suffix}@example.test` },
    { name: `Baraka Mwangi ${suffix}`, email: `baraka.${suffix}@example.test` },
  ];
  const registerPath = `/events/${slugify(FREE_EVENT)}/register`;
  await page.goto(registerPath);

  // The first seat is the buyer's, until changed (3.3.7 Redundant Entry).
  const first = page.getByRole("group", { name: /^Seat 1: / });
  await expect(first.getByLabel("Name")).toHaveValue(lead.name);
  await expect(first.getByLabel("E-mail")).toHaveValue(lead.email);
  await page
    .getByLabel(/^Seats of /)
    .first()
    .fill("3");
  await expect(page.getByRole("group", { name: /^Seat \d+: / })).toHaveCount(3);
  await nameSeat(page, 2, delegates[0].name, delegates[0].email);
  await nameSeat(page, 3, delegates[1].name, delegates[1].email);
  await expect(page.getByRole("status").filter({ hasText: "Total (3 seats)" })).toContainText(
    "Free",
  );
  await fitsThePhone(page);

  await page.getByRole("button", { name: "Register", exact: true }).click();
  await expect(page.getByText("3 seats registered")).toBeVisible();
  await closeToasts(page);
  const mine = page.getByRole("heading", { name: "Your registrations for this event" });
  await expect(mine).toBeVisible();
  for (const person of [lead, ...delegates]) {
    await expect(page.getByRole("link", { name: new RegExp(`^${person.name}: `) })).toBeVisible();
  }

  // Each attendee: their own mail with one QR code (their seat) and the calendar file.
  for (const person of [lead, ...delegates]) {
    const mail = await waitForMail(
      person.email,
      new RegExp(`^You're registered: ${FREE_EVENT}$`),
      MAIL_WAIT_MS,
    );
    expect(attachments(mail, ".png"), `QR codes mailed to ${person.email}`).toHaveLength(1);
    expect(attachments(mail, ".ics")).toHaveLength(1);
  }
});

test("a delegation orders two kinds of ticket: the total shown before submitting is the invoice's", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const lead = await verifiedAccount(page.request, "Delegation Buyer");
  const suffix = lead.email.split("@")[0].split(".").pop();
  await page.goto(`/events/${slugify(PAID_EVENT)}/register`);

  // Two tickets on sale: one seat of the first (chosen already), two of the second.
  const quantities = page.locator('input[name^="qty."]:enabled');
  expect(await quantities.count(), "tickets on sale").toBeGreaterThanOrEqual(2);
  await expect(quantities.nth(0)).toHaveValue("1");
  const total = page.getByRole("status").filter({ hasText: /^Total \(/ });
  await quantities.nth(1).fill("2");
  await expect(total).toContainText("Total (3 seats)");
  const shown = ((await total.textContent()) ?? "").replace("Total (3 seats)", "").trim();
  expect(shown).toMatch(/^[A-Z]{3} [\d,]+\.\d{2}$/);
  await nameSeat(page, 2, `Chebet Korir ${suffix}`, `chebet.${suffix}@example.test`);
  await nameSeat(page, 3, `Daudi Njoroge ${suffix}`, `daudi.${suffix}@example.test`);
  await page.getByLabel("Organisation name").fill("Records Kenya Ltd");
  await fitsThePhone(page);

  await page.getByRole("button", { name: "Register and Get Invoice" }).click();
  await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
  const heading = page.getByRole("heading", { level: 1, name: /^Order INV-\d{4}-\d{6}$/ });
  await expect(heading).toBeVisible();
  await expect(page.getByText("3 seats held")).toBeVisible();
  // The server priced the order itself; it is what the form showed.
  const due = await page.locator("dt", { hasText: "Balance due" }).locator("+ dd").textContent();
  expect(due?.trim()).toBe(shown);
  const invoiceNumber = ((await heading.textContent()) ?? "").replace("Order ", "").trim();
  // The buyer gets the invoice; the attendees' tickets follow payment.
  await waitForMail(lead.email, new RegExp(invoiceNumber), MAIL_WAIT_MS);
  await fitsThePhone(page);
});
