import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

// Shared checks of the accessibility specs (issue 19): what a keyboard user sees of the focused
// element, and the size of every interactive target (WCAG 2.4.7, 2.4.11, 2.5.8).

export type FocusReport = {
  tag: string;
  name: string;
  /** The text of the element's <label> (form fields), else "". */
  label: string;
  href: string | null;
  role: string | null;
  /** The focused element's box inside the viewport, and its centre not under anything else. */
  inView: boolean;
  obscuredBy: string | null;
  /** outline (2px) or a box-shadow ring is drawn. */
  indicator: boolean;
};

/** Waits until scrolling has stopped (smooth scrolling animates focus and anchor scrolls). */
export function scrollSettled(page: Page) {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = -1;
        let still = 0;
        const started = performance.now();
        const tick = () => {
          const y = window.scrollY + document.documentElement.scrollLeft;
          still = y === last ? still + 1 : 0;
          last = y;
          if (still >= 3 || performance.now() - started > 2000) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
}

/** Describes the focused element: where it is, whether something covers it, its focus ring. */
export async function focusReport(page: Page): Promise<FocusReport | null> {
  await scrollSettled(page);
  return page.evaluate(() => {
    let el = document.activeElement as HTMLElement | null;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement as HTMLElement;
    if (!el || el === document.body || el === document.documentElement) return null;
    // A visually hidden native input (file picker, switch) shows its focus on the element that
    // draws it: the nearest ancestor with a focus-within ring stands in for it.
    let drawn: HTMLElement = el;
    if (el.getBoundingClientRect().width < 4) {
      for (let a = el.parentElement, i = 0; a && i < 3; a = a.parentElement, i++) {
        const s = getComputedStyle(a);
        if (s.outlineStyle !== "none" && Number.parseFloat(s.outlineWidth) >= 1) {
          drawn = a;
          break;
        }
      }
    }
    const rect = drawn.getBoundingClientRect();
    const style = getComputedStyle(drawn);
    const name = (
      el.getAttribute("aria-label") ||
      el.textContent ||
      el.getAttribute("name") ||
      el.id ||
      ""
    )
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 60);
    const inView =
      rect.width > 0 &&
      rect.height > 0 &&
      rect.bottom > 0 &&
      rect.top < window.innerHeight &&
      rect.right > 0 &&
      rect.left < window.innerWidth;
    // Covered: the topmost element at the visible centre of the box is neither it nor inside it
    // (nor its label, which forwards clicks to it).
    const cx = Math.min(Math.max(rect.left + rect.width / 2, 1), window.innerWidth - 1);
    const cy = Math.min(Math.max(rect.top + rect.height / 2, 1), window.innerHeight - 1);
    const top = document.elementFromPoint(cx, cy);
    const mine =
      !top ||
      top === el ||
      top === drawn ||
      drawn.contains(top) ||
      top.contains(el) ||
      (top instanceof HTMLLabelElement && top.control === el) ||
      // a visually hidden native input drawn by a sibling (switches, checkboxes)
      (el.parentElement?.contains(top) && rect.width * rect.height < 2000);
    const obscuredBy = mine
      ? null
      : `${top.tagName.toLowerCase()}${top.closest("header") ? " in the sticky header" : ""}`;
    // A date/time input whose own :focus is off has focus on its calendar button, inside the
    // browser's shadow tree: Chromium draws its own focus box around that icon.
    const pickerButton =
      /^(date|datetime-local|time|month|week)$/.test((el as HTMLInputElement).type ?? "") &&
      !el.matches(":focus");
    const outline =
      pickerButton ||
      (style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 1) ||
      (style.boxShadow !== "none" && style.boxShadow !== "");
    const labels = (el as HTMLInputElement).labels;
    const label = (labels?.[0]?.textContent ?? "").replace(/\s+/g, " ").trim();
    return {
      tag: el.tagName.toLowerCase(),
      name,
      label,
      href: el.getAttribute("href"),
      role: el.getAttribute("role"),
      inView,
      obscuredBy,
      indicator: outline,
    };
  });
}

/** Asserts a visible, unobscured, ring-marked focus (WCAG 2.4.7, 2.4.11). */
export async function expectVisibleFocus(page: Page, step: string) {
  const report = await focusReport(page);
  expect(report, `${step}: something has focus`).not.toBeNull();
  expect(report, `${step}: ${report?.tag} "${report?.name}" (${report?.label})`).toMatchObject({
    inView: true,
    obscuredBy: null,
    indicator: true,
  });
  return report!;
}

/** Presses a key (keyboard only) and checks the new focus. */
export async function press(page: Page, key: string, step = key) {
  await page.keyboard.press(key);
  return expectVisibleFocus(page, step);
}

/** Tabs until `match` says the focused element is the wanted one (at most `limit` presses). */
export async function tabTo(
  page: Page,
  match: (report: FocusReport) => boolean,
  {
    limit = 80,
    backwards = false,
    step = "tab",
  }: { limit?: number; backwards?: boolean; step?: string } = {},
) {
  for (let i = 0; i < limit; i++) {
    const report = await press(page, backwards ? "Shift+Tab" : "Tab", `${step} #${i + 1}`);
    if (match(report)) return report;
  }
  throw new Error(`${step}: not reached within ${limit} Tab presses`);
}

export type TargetFinding = { target: string; width: number; height: number };

/**
 * Every visible interactive target smaller than 24×24 CSS px that no WCAG 2.5.8 exception covers:
 * inline links in running text, user-agent controls left unstyled, and undersized targets whose
 * 24 px circle touches no other target (the spacing exception).
 */
export function undersizedTargets(page: Page): Promise<TargetFinding[]> {
  return page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="tab"], [role="switch"], [role="menuitem"], [role="checkbox"], [tabindex]:not([tabindex="-1"])';
    type T = { el: Element; r: DOMRect; small: boolean; exempt: boolean };
    const targets: T[] = [];
    for (const el of Array.from(document.querySelectorAll(selector))) {
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || style.display === "none") continue;
      if ((el as HTMLElement).closest("[aria-hidden='true'], [inert]")) continue;
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) continue; // visually hidden (skip link, sr-only)
      // A target whose box is clipped away (sr-only with clip) is not a target on screen.
      if (style.clip === "rect(0px, 0px, 0px, 0px)" || style.clipPath === "inset(50%)") continue;
      const small = r.width < 23.5 || r.height < 23.5;
      let exempt = false;
      if (small && el.tagName === "A" && style.display === "inline") {
        // Inline exception: the link sits in a sentence of other text.
        const block = el.parentElement;
        const own = (el.textContent ?? "").trim().length;
        const around = (block?.textContent ?? "").trim().length;
        exempt = around > own + 20;
      }
      if (
        small &&
        el instanceof HTMLInputElement &&
        ["checkbox", "radio"].includes(el.type) &&
        style.appearance !== "none"
      ) {
        exempt = true; // user-agent control, unstyled
      }
      targets.push({ el, r, small, exempt });
    }
    const centre = (r: DOMRect) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
    const distToRect = (p: { x: number; y: number }, r: DOMRect) => {
      const dx = Math.max(r.left - p.x, 0, p.x - r.right);
      const dy = Math.max(r.top - p.y, 0, p.y - r.bottom);
      return Math.hypot(dx, dy);
    };
    const findings: { target: string; width: number; height: number }[] = [];
    for (const t of targets) {
      if (!t.small || t.exempt) continue;
      const c = centre(t.r);
      const crowded = targets.some((o) => {
        if (o === t || o.el.contains(t.el) || t.el.contains(o.el)) return false;
        if (o.small) return Math.hypot(centre(o.r).x - c.x, centre(o.r).y - c.y) < 24;
        return distToRect(c, o.r) < 12;
      });
      if (!crowded) continue;
      const el = t.el as HTMLElement;
      const label = (el.getAttribute("aria-label") || el.textContent || el.outerHTML.slice(0, 80))
        .replace(/\s+/g, " ")
        .trim()
        .slice(0, 50);
      findings.push({
        target: `${el.tagName.toLowerCase()} "${label}"`,
        width: Math.round(t.r.width * 10) / 10,
        height: Math.round(t.r.height * 10) / 10,
      });
    }
    return findings;
  });
}

/** The page is no wider than its viewport (WCAG 1.4.10: no horizontal scrolling). */
export function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const overflow = doc.scrollWidth - doc.clientWidth;
    if (overflow <= 0) return null;
    // Name the widest culprits for the failure message.
    const wide = Array.from(document.querySelectorAll("body *"))
      .filter((el) => el.getBoundingClientRect().right > doc.clientWidth + 1)
      .filter((el) => !el.closest("[data-sonner-toaster]"))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)}`);
    return { overflow, wide };
  });
}

/** WCAG 1.4.12's text-spacing bookmarklet values. */
export const TEXT_SPACING_CSS = `* {
  line-height: 1.5 !important;
  letter-spacing: 0.12em !important;
  word-spacing: 0.16em !important;
}
p { margin-bottom: 2em !important; }`;

/**
 * Text cut off by a box that hides its overflow (fixed heights or widths under text spacing):
 * a visible text element sticking out of such an ancestor. Line clamps and truncation with an
 * ellipsis are by design and skipped.
 */
export function clippedText(page: Page) {
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

/**
 * WCAG 3.2.6 Consistent Help: the help mechanisms in document order — the header's contact
 * link, the footer's, the chat button — each named once ("header", "footer", "chat").
 */
export function helpOrder(page: Page) {
  return page.evaluate(() => {
    const items: string[] = [];
    for (const el of Array.from(
      document.querySelectorAll(
        'header a[href="/contact"], footer a[href="/contact"], button[aria-label$="chat assistant"]',
      ),
    )) {
      items.push(el.closest("header") ? "header" : el.closest("footer") ? "footer" : "chat");
    }
    return [...new Set(items)];
  });
}

/** Where Contact stands among the main navigation's links (-1: missing). */
export async function mainNavContactIndex(page: Page) {
  const navLinks = await page
    .getByRole("navigation", { name: /main/i })
    .first()
    .getByRole("link")
    .allTextContents();
  return navLinks.map((t) => t.trim()).indexOf("Contact");
}
