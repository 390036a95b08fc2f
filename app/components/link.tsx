import { forwardRef } from "react";
import {
  type LinkProps,
  type NavLinkProps,
  Link as RouterLink,
  NavLink as RouterNavLink,
  useLocation,
} from "react-router";

/** A path from the site's root that React Router would write unchanged: no `//`, `.` or `..`. */
function isPlainPath(to: string) {
  if (to.charCodeAt(0) !== 47 /* / */ || to.includes("\\")) return false;
  const end = pathEnd(to);
  const path = end === to.length ? to : to.slice(0, end);
  return !path.includes("//") && !path.includes("/.");
}

/** Where the path of `to` ends: at its query or fragment, if it has one. */
function pathEnd(to: string) {
  const query = to.indexOf("?");
  const hash = to.indexOf("#");
  if (query === -1) return hash === -1 ? to.length : hash;
  return hash === -1 ? query : Math.min(query, hash);
}

/** Link props React Router uses itself; none of them is written into the `<a>`. */
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
]);

/** Whether the server may write this link itself (a plain site path, nothing client-only). */
function writtenByServer<P extends LinkProps | NavLinkProps>(
  props: P,
): props is P & { to: string } {
  return (
    typeof document === "undefined" &&
    typeof props.to === "string" &&
    props.mask === undefined &&
    props.prefetch !== "render" &&
    isPlainPath(props.to)
  );
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
  if (!writtenByServer(props)) return <RouterLink ref={ref} {...props} />;
  // The anchor's own attributes, copied key by key: an object rest with eleven exclusions is
  // V8's slow path, and this runs for every link of every page. `target` goes after `href`, as
  // React Router writes it.
  const anchor: Record<string, unknown> = {};
  for (const key in props) {
    if (key !== "target" && !ROUTER_PROPS.has(key)) anchor[key] = props[key as keyof LinkProps];
  }
  return (
    <a
      {...anchor}
      ref={ref}
      href={props.to}
      target={props.target}
      data-discover={(props.discover ?? "render") === "render" ? "true" : undefined}
    />
  );
});

/**
 * React Router's `NavLink`, written on the server like `Link` above: the same active test on the
 * current location (`aria-current="page"` and the class for an active link), without its hooks.
 * Nothing is pending or in a view transition on the server. In the browser it is React
 * Router's own.
 */
export const NavLink = forwardRef<HTMLAnchorElement, NavLinkProps>(function NavLink(props, ref) {
  const location = useLocation();
  if (!writtenByServer(props)) return <RouterNavLink ref={ref} {...props} />;
  const {
    "aria-current": ariaCurrentProp = "page",
    caseSensitive = false,
    className,
    end = false,
    style,
    children,
    ...rest
  } = props;
  let target = props.to.slice(0, pathEnd(props.to));
  let current = location.pathname;
  if (!caseSensitive) {
    target = target.toLowerCase();
    current = current.toLowerCase();
  }
  const slash = target !== "/" && target.endsWith("/") ? target.length - 1 : target.length;
  const isActive =
    current === target || (!end && current.startsWith(target) && current.charAt(slash) === "/");
  const state = { isActive, isPending: false, isTransitioning: false };
  return (
    <Link
      {...rest}
      ref={ref}
      aria-current={isActive ? ariaCurrentProp : undefined}
      className={
        typeof className === "function"
          ? className(state)
          : [className ?? "", isActive ? "active" : null].filter(Boolean).join(" ")
      }
      style={typeof style === "function" ? style(state) : style}
    >
      {typeof children === "function" ? children(state) : children}
    </Link>
  );
});
