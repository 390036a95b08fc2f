import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** A figure of the hero by its label (the live counts, decision 0095). */
const heroFigure = (page: Page, label: string) =>
  page
    .locator("dl div", { has: page.locator("dt", { hasText: label }) })
    .locator("dd")
    .first();

/** How the count-up shows a number (thousands as "5k"). */
const compact = (text: string) => {
  const n = Number(text.replace(/,/g, ""));
  return n >= 1000
    ? `${Number.isInteger(n / 1000) ? n / 1000 : (n / 1000).toFixed(1)}k`
    : String(n);
};

// Its tests only read the demo content: they spread over both workers (decision 0088).
test.describe.configure({ mode: "parallel" });

test("the hero promotes the network and leads to membership and conferences", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.headers()["cache-control"]).toBe(
    "public, s-maxage=60, stale-while-revalidate=600",
  );
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("200+", { exact: true })).toBeVisible();
  // Events and members are the live counts every page shows (decision 0095).
  for (const label of ["Events Hosted", "Members"]) {
    await expect(heroFigure(page, label)).toHaveText(/^\d[\d,]*$/);
  }
  await expect(page.getByRole("link", { name: "Join Our Network" })).toHaveAttribute(
    "href",
    "/membership",
  );
  await page.getByRole("link", { name: "View Conferences" }).click();
  await expect(page).toHaveURL(/\/events$/);
});

test("the impact figures count up to their final values when scrolled into view", async ({
  page,
}) => {
  await page.setViewportSize({ width: 400, height: 640 }); // the section starts below the fold
  await page.goto("/");
  // The live member count, as the hero shows it (decision 0095).
  const final = compact((await heroFigure(page, "Members").textContent()) ?? "");
  const impact = page.getByRole("region", { name: "Our Impact" });
  const members = impact.locator("li", { hasText: "Members" }).locator('[data-slot="count-up"]');
  // Sample what is shown on every frame from the scroll until it settles on the final value.
  const seen = await members.evaluate(async (element, final) => {
    element.scrollIntoView({ block: "center" });
    const values: string[] = [];
    const until = performance.now() + 15_000;
    while (performance.now() < until) {
      const value = element.textContent ?? "";
      values.push(value);
      if (value === final && values.some((v) => v !== final)) break;
      await new Promise(requestAnimationFrame);
    }
    return values;
  }, final);
  expect(seen.some((v) => v !== final)).toBe(true); // it moved…
  expect(seen.at(-1)).toBe(final); // …and settled on the final value
  const events = compact((await heroFigure(page, "Events Hosted").textContent()) ?? "");
  for (const [figure, badge] of [
    [events, "+15%"],
    ["90+", "+23%"],
    [final, "+42%"],
    ["18+", "+8%"],
  ]) {
    await expect(impact.getByText(figure, { exact: true }).first()).toBeAttached();
    await expect(impact.getByText(badge)).toBeVisible();
  }
});

test("visitors who prefer reduced motion see the final figures at once", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/");
  const impact = page.getByRole("region", { name: "Our Impact" });
  await impact.scrollIntoViewIfNeeded();
  const events = impact
    .locator("li", { hasText: "Events Hosted" })
    .locator('[data-slot="count-up"]');
  await expect(events).toHaveText(
    compact((await heroFigure(page, "Events Hosted").textContent()) ?? ""),
    {
      timeout: 200,
    },
  );
});

test("featured events, latest papers and offices link to their pages", async ({ page }) => {
  await page.goto("/");
  const featured = page.getByRole("region", { name: "Featured Events" });
  const eventCards = featured.getByTestId("event-card");
  const count = await eventCards.count();
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThanOrEqual(3);
  await expect(featured.getByText("Featured").first()).toBeVisible();

  const papers = page.getByRole("region", { name: "Latest Research Papers" });
  await expect(papers.getByRole("article")).toHaveCount(3);

  const offices = page.getByRole("region", { name: "Our Global Offices" });
  await expect(offices.getByRole("article")).toHaveCount(4);
  // The home page is the same for everyone: no contact details of any office.
  await expect(offices).not.toContainText("@");

  const title = ((await eventCards.first().getByRole("heading").textContent()) ?? "").trim();
  await eventCards.first().getByRole("link", { name: title, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  await page.goto("/");
  const paperLink = papers.getByRole("article").first().getByRole("link");
  const href = await paperLink.getAttribute("href");
  expect(href).toMatch(/^\/papers\/[a-z0-9-]+$/);
});

test("'Why Join' and partnerships lead to membership, sign-in and the contact form", async ({
  page,
}) => {
  await page.goto("/");
  const why = page.getByRole("region", { name: /Why Join/ });
  for (const feature of ["Premium Access", "Global Network", "Career Growth"]) {
    await expect(why.getByRole("heading", { name: feature })).toBeVisible();
  }
  await expect(why.getByRole("link", { name: "Become a Member" })).toHaveAttribute(
    "href",
    "/membership",
  );
  await expect(why.getByRole("link", { name: "Sign In / Create Account" })).toHaveAttribute(
    "href",
    "/auth",
  );
  const partnerships = page.getByRole("region", { name: "Partnerships & Sponsorship" });
  await expect(partnerships.getByRole("link", { name: "Partner with Us" })).toHaveAttribute(
    "href",
    "/contact?topic=partnership",
  );
});
