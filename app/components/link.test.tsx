import { renderToString } from "react-dom/server";
import { MemoryRouter, Link as RouterLink } from "react-router";
import { describe, expect, it } from "vitest";
import { Link } from "./link";

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

const html = (link: React.ReactNode) =>
  renderToString(<MemoryRouter initialEntries={["/events/summit"]}>{link}</MemoryRouter>);

describe("Link", () => {
  it("writes on the server exactly the markup React Router's Link writes", () => {
    for (const props of cases) {
      expect(html(<Link {...props}>Go</Link>), JSON.stringify(props)).toBe(
        html(<RouterLink {...props}>Go</RouterLink>),
      );
    }
  });
});
