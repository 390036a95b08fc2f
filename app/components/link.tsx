import { forwardRef } from "react";
import { type LinkProps, Link as RouterLink } from "react-router";

/** A path from the site's root that React Router would write unchanged: no `//`, `.` or `..`. */
function isPlainPath(to: string) {
  if (!to.startsWith("/") || to.includes("\\")) return false;
  const path = to.split(/[?#]/, 1)[0];
  return !path.includes("//") && !/\/\.\.?(\/|$)/.test(path);
}

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
  const {
    to,
    discover = "render",
    prefetch = "none",
    reloadDocument: _reload,
    mask,
    ...rest
  } = props;
  if (
    typeof document !== "undefined" ||
    typeof to !== "string" ||
    !isPlainPath(to) ||
    mask !== undefined ||
    prefetch === "render"
  ) {
    return <RouterLink ref={ref} {...props} />;
  }
  const {
    relative: _relative,
    replace: _replace,
    state: _state,
    preventScrollReset: _preventScrollReset,
    viewTransition: _viewTransition,
    defaultShouldRevalidate: _defaultShouldRevalidate,
    target,
    ...anchor
  } = rest;
  return (
    <a
      {...anchor}
      ref={ref}
      href={to}
      target={target}
      data-discover={discover === "render" ? "true" : undefined}
    />
  );
});
