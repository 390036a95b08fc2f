import type { Page } from "@playwright/test";
import { expectVisibleFocus, press, tabTo } from "./a11y-support";
import { expect, signIn, test } from "./fixtures";

// Issue 19 items 3 and 5: reduced motion, forced colours, live regions and dialogs.

// The pages themselves are checked with axe by the route sweep (a11y-routes.spec.ts), for every
// role; this journey keeps its own targeted checks.
test.use({ axeOnLoad: false });

async function upcomingEventPath(page: Page) {
  await page.goto("/events?filter=upcoming");
  const href = await page
    .getByTestId("event-card")
    .first()
    .getByRole("link")
    .first()
    .getAttribute("href");
  return href!;
}

const digits = (page: Page) =>
  page
    .getByRole("timer")
    .evaluate((timer) =>
      Array.from(timer.children).map((unit) => unit.firstElementChild?.textContent ?? ""),
    );

test.describe("prefers-reduced-motion", () => {
  test.use({ reducedMotion: "reduce" });

  // The page's clock is Playwright's: time runs on as usual, and `runFor` moves it forward at
  // once, firing every timer and animation frame due meanwhile (no waiting in the test).
  test("the home figures show their final values at once, no count-up", async ({ page }) => {
    await page.clock.install();
    await page.goto("/");
    const figures = page.locator('[data-slot="count-up"]');
    await expect(figures.first()).toBeAttached();
    const before = await figures.allTextContents();
    // The final values are live counts (decision 0095): the ones screen readers are given.
    const finals = await page.locator('[data-slot="count-up"] + .sr-only').allTextContents();
    expect(before).toHaveLength(4);
    expect(before).toEqual(finals);
    await figures.first().scrollIntoViewIfNeeded();
    await page.clock.runFor(2_000); // longer than a count-up
    expect(await figures.allTextContents()).toEqual(before);
  });

  test("the countdown drops its seconds and stays still", async ({ page }) => {
    await page.clock.install();
    await page.goto(await upcomingEventPath(page));
    const timer = page.getByRole("timer");
    await expect(timer).toHaveAttribute("data-reduced-motion", "true");
    await expect(timer.getByText("Seconds")).toHaveCount(0);
    await expect(timer.getByText("Minutes")).toBeVisible();
    const first = await digits(page);
    await page.clock.runFor(2_500);
    expect(await digits(page)).toEqual(first);
  });
});

test.describe("the countdown for screen readers and everyone else", () => {
  test("ticks every second, is never a live region, and Pause stops it", async ({ page }) => {
    await page.clock.install();
    await page.goto(await upcomingEventPath(page));
    const timer = page.getByRole("timer", { name: "Time until the event starts" });
    await expect(timer.getByText("Seconds")).toBeVisible();
    // Not announced on every tick: no live region on the timer or around it.
    const live = await timer.evaluate((el) => {
      const found: string[] = [];
      for (let n: Element | null = el; n; n = n.parentElement) {
        const value = n.getAttribute("aria-live");
        if (value && value !== "off") found.push(`${n.tagName} aria-live=${value}`);
      }
      return found;
    });
    expect(live).toEqual([]);
    const ticking = await digits(page);
    await page.clock.runFor(1_100); // a tick, however slowly the machine's real second passes
    await expect.poll(() => digits(page)).not.toEqual(ticking);

    const pause = page.getByRole("button", { name: "Pause countdown" });
    await pause.focus();
    await expectVisibleFocus(page, "pause button");
    await page.keyboard.press("Enter");
    await expect(pause).toHaveAttribute("aria-pressed", "true");
    const paused = await digits(page);
    await page.clock.runFor(2_200); // two ticks and more
    expect(await digits(page)).toEqual(paused);
    await page.keyboard.press("Space");
    await expect(pause).toHaveAttribute("aria-pressed", "false");
    await page.clock.runFor(1_100);
    await expect.poll(() => digits(page)).not.toEqual(paused);
  });
});

// A context of its own, in forced colours from the first paint. axe's contrast rule reads the
// author colours, which forced colours replace, so these pages are judged by the checks below;
// the same pages pass axe in normal colours in the other specs.
test.describe("forced colours (Windows high contrast)", () => {
  let page: Page;
  test.beforeEach(async ({ browser }) => {
    const context = await browser.newContext({ forcedColors: "active" });
    page = await context.newPage();
    const goto = page.goto.bind(page);
    page.goto = async (...args) => {
      const response = await goto(...args);
      await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
      return response;
    };
  });
  test.afterEach(async () => {
    await page.context().close();
  });

  test("focus rings, badges and pressed states stay visible", async () => {
    await page.goto("/offices?region=Europe");
    expect(await page.evaluate(() => matchMedia("(forced-colors: active)").matches)).toBe(true);
    const pressed = page.locator('button[aria-pressed="true"]').first();
    const notPressed = page.locator('button[aria-pressed="false"]').first();
    const paint = (el: typeof pressed) =>
      el.evaluate((node) => {
        const s = getComputedStyle(node);
        return { background: s.backgroundColor, color: s.color, border: s.borderTopWidth };
      });
    const on = await paint(pressed);
    const off = await paint(notPressed);
    // The pressed region is drawn in the system highlight; the others are not.
    expect(on.background).not.toBe(off.background);
    expect(on.background).not.toMatch(/rgba\(0, 0, 0, 0\)/);

    // Service badges keep an outline of their own.
    const badge = page.getByTestId("office-card").first().locator('[data-slot="badge"]').first();
    const badgeBorder = await badge.evaluate((node) => {
      const s = getComputedStyle(node);
      return { width: Number.parseFloat(s.borderTopWidth), style: s.borderTopStyle };
    });
    expect(badgeBorder.width).toBeGreaterThanOrEqual(1);
    expect(badgeBorder.style).toBe("solid");

    // Keyboard focus is a 2px ring.
    await page.locator("body").focus();
    await tabTo(page, (r) => r.tag === "a" || r.tag === "button", { limit: 5 });
    const ring = await page.evaluate(() => {
      const s = getComputedStyle(document.activeElement!);
      return { style: s.outlineStyle, width: Number.parseFloat(s.outlineWidth) };
    });
    expect(ring.style).toBe("solid");
    expect(ring.width).toBeGreaterThanOrEqual(2);
  });

  test("buttons keep a border and a switch shows its state", async () => {
    await signIn(page, "editor");
    await page.goto("/admin/events/new");
    const create = page.getByRole("button", { name: /Create Event|Save/ }).first();
    expect(
      await create.evaluate((node) => Number.parseFloat(getComputedStyle(node).borderTopWidth)),
    ).toBeGreaterThanOrEqual(1);
    const featured = page.getByRole("switch", { name: "Featured event" });
    const thumb = page.locator('[data-slot="switch-thumb"]').first();
    const thumbX = () => thumb.evaluate((node) => node.getBoundingClientRect().left);
    const thumbPaint = await thumb.evaluate((node) => getComputedStyle(node).backgroundColor);
    const trackPaint = await page
      .locator('[data-slot="switch-track"]')
      .first()
      .evaluate((node) => getComputedStyle(node).backgroundColor);
    expect(thumbPaint).not.toBe(trackPaint);
    const off = await thumbX();
    await featured.focus();
    await page.keyboard.press("Space");
    await expect(featured).toBeChecked();
    await expect.poll(thumbX).toBeGreaterThan(off + 10);
  });
});

test.describe("live regions and dialogs", () => {
  test("the delete dialog traps focus, closes with Escape and returns focus", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/admin/offices");
    const trigger = page.getByRole("button", { name: /^Delete / }).first();
    const triggerName = await trigger.getAttribute("aria-label");
    await trigger.focus();
    await expectVisibleFocus(page, "delete trigger");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toBeVisible();
    for (const key of ["Tab", "Tab", "Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
      await press(page, key, `${key} in the dialog`);
      expect(await dialog.evaluate((d) => d.contains(document.activeElement)), key).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("button", { name: triggerName! })).toBeFocused();
    await expectVisibleFocus(page, "focus back on the trigger");
  });

  test("the mobile menu traps focus and returns it to its button", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/papers");
    const open = page.getByRole("button", { name: "Open menu" });
    await open.focus();
    await page.keyboard.press("Enter");
    const menu = page.getByTestId("mobile-nav");
    await expect(menu).toBeVisible();
    for (let i = 0; i < 25; i++) {
      await press(page, "Tab", `Tab #${i + 1} in the menu`);
      expect(await menu.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(open).toBeFocused();
  });
});
