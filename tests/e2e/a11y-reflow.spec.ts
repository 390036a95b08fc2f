import type { Page } from "@playwright/test";
import { horizontalOverflow, TEXT_SPACING_CSS } from "./a11y-support";
import { expect, signIn, test } from "./fixtures";

// Issue 19 item 4: every page usable at 320 CSS px (= 1280 px at 400% zoom) without horizontal
// scrolling (WCAG 1.4.10), and WCAG 1.4.12 text-spacing overrides neither clip nor overlap text.

async function detailPaths(page: Page) {
  await page.goto("/events");
  const event = await page
    .getByTestId("event-card")
    .first()
    .getByRole("link")
    .first()
    .getAttribute("href");
  await page.goto("/papers");
  const paper = await page
    .locator('main a[href^="/papers/"]')
    .filter({ hasNotText: /rss|zip/i })
    .first()
    .getAttribute("href");
  return [event!, paper!];
}

const PUBLIC = [
  "/",
  "/events",
  "/papers",
  "/membership",
  "/about",
  "/offices",
  "/contact",
  "/advertising",
  "/privacy",
  "/terms",
  "/accessibility",
  "/auth",
  "/auth?tab=signup",
  "/auth/reset-password",
  "/no-such-page",
];

/**
 * Text cut off by a box that hides its overflow (fixed heights or widths under text spacing):
 * a visible text element sticking out of such an ancestor. Line clamps and truncation with an
 * ellipsis are by design and skipped.
 */
function clippedText(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    const clips = Array.from(document.querySelectorAll("main *")).filter((el) => {
      const s = getComputedStyle(el);
      return (
        (s.overflowX !== "visible" || s.overflowY !== "visible") &&
        s.overflowX !== "auto" &&
        s.overflowY !== "auto" &&
        s.overflowX !== "scroll" &&
        // Off-screen cards skip layout (content-visibility: auto) and are laid out on arrival.
        s.contentVisibility !== "auto" &&
        !el.classList.contains("sr-only")
      );
    });
    for (const clip of clips) {
      const box = clip.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      for (const el of Array.from(clip.querySelectorAll("*"))) {
        const s = getComputedStyle(el);
        if (el.closest(".sr-only, [aria-hidden='true']") || s.visibility === "hidden") continue;
        if (s.textOverflow === "ellipsis" || s.webkitLineClamp !== "none") continue;
        const hasText = Array.from(el.childNodes).some(
          (n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim(),
        );
        if (!hasText) continue;
        const r = el.getBoundingClientRect();
        if (r.bottom > box.bottom + 2 || r.right > box.right + 2) {
          out.push(`${el.tagName.toLowerCase()}: ${el.textContent?.trim().slice(0, 40)}`);
        }
      }
    }
    return [...new Set(out)].slice(0, 5);
  });
}

test.describe("320 CSS px wide", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test("public pages scroll only vertically, with and without text spacing", async ({ page }) => {
    test.setTimeout(240_000);
    const paths = [...PUBLIC, ...(await detailPaths(page))];
    for (const path of paths) {
      await page.goto(path);
      expect(await horizontalOverflow(page), `${path} at 320px`).toBeNull();
      await page.addStyleTag({ content: TEXT_SPACING_CSS });
      expect(await horizontalOverflow(page), `${path} at 320px with text spacing`).toBeNull();
      expect(await clippedText(page), `${path}: text clipped under text spacing`).toEqual([]);
    }
  });

  test("signed-in and back-office pages scroll only vertically", async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page, "admin");
    for (const path of [
      "/profile",
      "/admin",
      "/admin/events",
      "/admin/events/new",
      "/admin/papers",
      "/admin/offices",
      "/admin/offices/new",
      "/admin/users",
      "/admin/messages",
      "/admin/security",
      "/admin/jobs",
    ]) {
      await page.goto(path);
      expect(await horizontalOverflow(page), `${path} at 320px`).toBeNull();
    }
  });
});
