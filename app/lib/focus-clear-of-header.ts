/*
 * WCAG 2.4.11 Focus Not Obscured. `scroll-padding-top` (app.css) keeps keyboard focus and
 * anchors clear of the sticky header, but Chromium's scroll for a script's `element.focus()`
 * (Conform focusing the first invalid field, our FocusFirstError) counts an element under the
 * header as already in view and leaves it there. After any focus change, an element that the
 * header covers is scrolled just clear of it; `scrollIntoView` honours the scroll padding.
 * Decision 0067.
 */

/** Marks the header that stays on top while the page scrolls (site-header.tsx). */
const STICKY_HEADER = "[data-sticky-header]";

function clearOfHeader(element: Element) {
  const header = document.querySelector(STICKY_HEADER);
  // Inside the header, or in a layer above the page (dialogs, menus): nothing to clear.
  if (!header || header.contains(element) || element.closest('[role="dialog"], [popover]')) return;
  const covered = header.getBoundingClientRect().bottom;
  const box = element.getBoundingClientRect();
  if (box.height === 0 && box.width === 0) return;
  if (box.top < covered && box.bottom > 0) element.scrollIntoView({ block: "nearest" });
}

/** Starts watching focus; returns the function that stops it. */
export function keepFocusClearOfHeader() {
  const onFocusIn = (event: FocusEvent) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    // After the browser's own scroll for this focus change (which follows the focus event).
    queueMicrotask(() => {
      if (document.activeElement === target) clearOfHeader(target);
    });
  };
  document.addEventListener("focusin", onFocusIn);
  return () => document.removeEventListener("focusin", onFocusIn);
}
