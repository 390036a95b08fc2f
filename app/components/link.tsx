import { forwardRef } from "react";
import { type LinkProps, Link as RouterLink } from "react-router";

/** A path from the site's root that React Router would write unchanged: no `//`, `.` or `..`. */
function isPlainPath(to: string) {
  if (!to.startsWith("/") || to.includes("\\")) return false;
  const path = to.split(/[?#]/, 1)[0];
  return !path.includes("//") && !/\/\.\.?(\/|$)/.test(path);
}

// Props only React Router's Link reads; `target` is written after `href`, where it puts it.
const ROUTER_PROPS = new Set([
  "to",
  "discover",
  "prefetch",
  "reloadDocument",
  "mask",
  "relative",
  "replace",
  "state",
  "preventScrollReset",
  "viewTransition",
  "defaultShouldRevalidate",
  "target",
]);

/**
 * React Router's `Link`, rendered on the server as the `<a>` it would produce (decision 0069).
 *
 * On the server a link is only markup: its click handler, prefetch state and path resolution
 * are never used, yet React Router's `Link` runs them for every link of every page (about 5 µs
 * each, 57 links on `/events`). For a site path (`/events/summit?tab=fees`) the server writes
 * the same `<a href data-discover>` directly; in the browser, and for anything else (relative
 * paths, objects, `mask`, prefetching), React Router's `Link` renders as before, so hydration
 * and client navigation are unchanged.
 */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(props, ref) {
  const { to } = props;
  if (
    typeof document !== "undefined" ||
    typeof to !== "string" ||
    !isPlainPath(to) ||
    props.mask !== undefined ||
    props.prefetch === "render"
  ) {
    return <RouterLink ref={ref} {...props} />;
  }
  // The anchor's own props copied key by key: an object rest (two per link, 57 links on
  // /events) is a slow path in V8, and this runs for every link of every page.
  const anchor: Record<string, unknown> = {};
  for (const key in props) {
    if (!ROUTER_PROPS.has(key)) anchor[key] = props[key as keyof LinkProps];
  }
  anchor.ref = ref;
  anchor.href = to;
  anchor.target = props.target;
  anchor["data-discover"] = (props.discover ?? "render") === "render" ? "true" : undefined;
  return <a {...anchor} />;
});
