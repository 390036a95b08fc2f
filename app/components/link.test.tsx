import { renderToString } from "react-dom/server";
import { MemoryRouter, Link as RouterLink, NavLink as RouterNavLink } from "react-router";
import { describe, expect, it } from "vitest";
import { Link, NavLink } from "./link";

const cases: Array<React.ComponentProps<typeof Link>> = [
  { to: "/events" },
  { to: "/events/kongamano-annual-summit" },
  { to: "/events?type=conference&page=2" },
  { to: "/events/summit#fees" },
  { to: "/events/" },
  { to: "/papers/caf%C3%A9-records?q=a+b" },
  { to: "/contact?topic=partnership", className: "underline", "aria-label": "Partner with us" },
  { to: "/events.ics?scope=all", reloadDocument: true },
  { to: "/auth", target: "_blank", rel: "noreferrer" },
  { to: "/membership", prefetch: "intent", replace: true, state: { from: "home" } },
  { to: "/offices", discover: "none", preventScrollReset: true, viewTransition: true },
  // Not plain site paths: React Router renders these itself.
  { to: "events" },
  { to: "../papers" },
  { to: "/events/./summit" },
  { to: "//example.org/x" },
  { to: "https://example.org/x" },
  { to: { pathname: "/events", search: "?page=3" } },
];

const html = (link: React.ReactNode, at = "/events/summit") =>
  renderToString(<MemoryRouter initialEntries={[at]}>{link}</MemoryRouter>);

const navCases: Array<React.ComponentProps<typeof NavLink>> = [
  { to: "/", end: true, className: "nav" },
  { to: "/events", className: "nav" },
  { to: "/events", end: true },
  { to: "/Events", className: ({ isActive }) => (isActive ? "on" : "off") },
  { to: "/Events", caseSensitive: true, className: ({ isActive }) => (isActive ? "on" : "off") },
  { to: "/events/", className: "nav" },
  { to: "/event", className: "nav" },
  { to: "/papers?q=records", "aria-current": "location" },
  { to: "/contact", style: ({ isActive }) => ({ fontWeight: isActive ? 700 : 400 }) },
  { to: "../papers", className: "nav" },
];

describe("Link", () => {
  it("writes on the server exactly the markup React Router's Link writes", () => {
    for (const props of cases) {
      expect(html(<Link {...props}>Go</Link>), JSON.stringify(props)).toBe(
        html(<RouterLink {...props}>Go</RouterLink>),
      );
    }
  });

  it("writes NavLinks as React Router's NavLink does, active or not, wherever the visitor is", () => {
    for (const at of ["/", "/events", "/events/summit", "/EVENTS/x", "/papers", "/contact"]) {
      for (const props of navCases) {
        const children = ({ isActive }: { isActive: boolean }) => (isActive ? "Here" : "There");
        expect(
          html(<NavLink {...props}>{children}</NavLink>, at),
          `${at} ${JSON.stringify(props)}`,
        ).toBe(html(<RouterNavLink {...props}>{children}</RouterNavLink>, at));
      }
    }
  });
});
