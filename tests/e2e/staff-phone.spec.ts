import { readFileSync } from "node:fs";
import path from "node:path";
import { slugify } from "../../app/lib/format";
import routes from "../../app/routes";
import { makeManuscriptPdf, NEUTRAL_BODY } from "../helpers/manuscript-pdf";
import { horizontalOverflow } from "./a11y-support";
import { openCall, submitPaper } from "./cfp-support";
import { expect, signIn, test, verifiedAccount } from "./fixtures";

// Issue 30 item 8 (decision 0095): every back-office screen fits a 390 px phone without
// sideways scrolling — check-in runs on phones at the door. Loaded at that width (not resized
// after a desktop load), as an admin, with demo ids: the screens are read from app/routes.ts
// (a route with parameters gets the first matching link found on the screens without), so a
// new screen is checked without anyone adding it here. A wide table may scroll inside its own
// labelled region; the page itself may not.

type Entry = { path?: string; file: string; children?: Entry[] };

function flatten(entries: readonly Entry[], parent = ""): { path: string; file: string }[] {
  return entries.flatMap((entry) => {
    const full = `/${[parent, entry.path ?? ""].filter(Boolean).join("/")}`.replace(/\/+/g, "/");
    if (entry.children?.length) return flatten(entry.children, full);
    return [{ path: full.length > 1 ? full.replace(/\/$/, "") : full, file: entry.file }];
  });
}

const SCREENS = flatten(routes as Entry[]).filter(
  ({ path: p, file }) =>
    p.startsWith("/admin") &&
    /^export default /m.test(readFileSync(path.resolve(process.cwd(), "app", file), "utf8")),
);

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
// The accessibility sweep (a11y-routes.spec.ts) runs axe on these screens; this test is width.
test.use({ axeOnLoad: false });

/** A free event of the demo content: booked first, so its registrations table has a row. */
const FREE_EVENT = "Introduction to Data Governance Webinar";

test("every back-office screen fits a 390 px phone without sideways scrolling", async ({
  page,
}) => {
  test.setTimeout(240_000);
  // The demo content has no call for papers: one of the test's own, so the call and submission
  // screens have links to them and content to measure, whatever ran before.
  const call = `Phone Width Call ${Date.now().toString(36)}`;
  await signIn(page, "admin");
  await openCall(page, call);
  await page.context().clearCookies();
  // A registration (the table that was 705 px wide) and a submission to the call, by an account
  // of the test's own; then the same browser signs in as the admin.
  const { email } = await verifiedAccount(page.request, "Phone Width Registrant");
  await page.goto(`/events/${slugify(FREE_EVENT)}/register`);
  await page.getByRole("button", { name: "Register", exact: true }).click();
  await page.waitForURL(/\/registrations\/[0-9a-f-]{36}$/);
  await submitPaper(page, {
    call,
    title: `Registers on small screens ${Date.now().toString(36)}`,
    abstract: NEUTRAL_BODY,
    keywords: "records, registries, phones",
    author: { name: "Phone Width Author", affiliation: "Records Office", email },
    manuscript: { name: "registers.pdf", buffer: await makeManuscriptPdf({ body: NEUTRAL_BODY }) },
  });
  await page.context().clearCookies();

  await signIn(page, "admin");
  await page.goto(`/admin/events?search=${encodeURIComponent(FREE_EVENT)}`);
  const booked = await page.locator("a[href$='/registrations']").first().getAttribute("href");
  expect(booked, "the booked event's registrations link").toBeTruthy();
  const links = new Set<string>();
  const visited: string[] = [];
  const wide: string[] = [];
  const check = async (url: string) => {
    const response = await page.goto(url);
    // A screen that is off in this configuration (404, e.g. without M-Pesa) must fit too.
    expect(response?.status(), url).toBeLessThan(500);
    await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
    visited.push(url);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 390)
      wide.push(`${url}: ${width} px ${JSON.stringify(await horizontalOverflow(page))}`);
    // A table wider than the phone scrolls in its own labelled region.
    for (const table of await page.locator("main table").all()) {
      const box = await table.boundingBox();
      if (!box || box.width <= 390) continue;
      const region = table.locator(
        "xpath=ancestor::*[(@role='region' or local-name()='section') and (@aria-label or @aria-labelledby)][1]",
      );
      await expect(region, `${url}: a wide table scrolls in a labelled region`).toHaveCount(1);
    }
    for (const href of await page
      .locator("a[href^='/admin/']")
      .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""))) {
      links.add(href.split(/[?#]/)[0]);
    }
  };
  for (const { path: p } of SCREENS.filter((s) => !s.path.includes(":"))) await check(p);
  const missing: string[] = [];
  for (const { path: p } of SCREENS.filter((s) => s.path.includes(":"))) {
    const pattern = new RegExp(`^${p.replace(/:[a-zA-Z]+/g, "[^/]+")}$`);
    const url =
      booked && pattern.test(booked) ? booked : [...links].find((href) => pattern.test(href));
    if (url) await check(url);
    else missing.push(p);
  }
  expect(missing, "screens with no demo link to open them").toEqual([]);
  expect(visited.length).toBe(SCREENS.length);
  expect(wide, "screens wider than 390 px").toEqual([]);
  // The booked event's table was there to be measured.
  await page.goto(booked as string);
  await expect(
    page.getByRole("region", { name: "Registrations" }).locator("tbody tr"),
  ).not.toHaveCount(0);
});
