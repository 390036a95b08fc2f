import { createStaticHandler, matchRoutes, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { frameworkProblems, readiness, routeMatchMemoState } from "./framework-checks";

/** React Router's own matching without the memo: its public `matchRoutes` on every ask. */
const unpatched = (routes: RouteObject[]) => ({
  query: (request: Request) => Promise.resolve(matchRoutes(routes, new URL(request.url).pathname)),
});

describe("start-up check of React Router's route-match memo (decision 0077)", () => {
  it("finds the memo applied in the installed React Router, so nothing is reported", () => {
    expect(routeMatchMemoState()).toBe("applied");
    expect(frameworkProblems()).toEqual([]);
  });

  it("finds it missing when React Router tests the routes again for the same path", () => {
    expect(routeMatchMemoState(unpatched)).toBe("missing");
    const problems = frameworkProblems("missing");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("route-match memo is not applied");
  });

  it("says it cannot tell when React Router matches in a way the probe does not see", () => {
    const silent = () => ({ query: () => Promise.resolve(null) });
    expect(routeMatchMemoState(silent)).toBe("unknown");
    expect(frameworkProblems("unknown")[0]).toContain("could not be checked");
  });

  it("leaves regular expressions as they were, and React Router's matching correct", async () => {
    const before = RegExp.prototype[Symbol.match];
    routeMatchMemoState();
    expect(RegExp.prototype[Symbol.match]).toBe(before);
    const handler = createStaticHandler([{ id: "event", path: "/events/:slug" }]);
    const context = await handler.query(new Request("http://localhost/events/nairobi"));
    if (context instanceof Response) throw new Error("unexpected response");
    expect(context.matches[0].params).toEqual({ slug: "nairobi" });
  });
});

describe("/readyz answer", () => {
  it("stays ready with a framework problem, as a line of detail", () => {
    expect(readiness(true, [])).toEqual({ status: 200, text: "ready" });
    const problem = frameworkProblems("missing")[0];
    expect(readiness(true, [problem])).toEqual({ status: 200, text: `ready\n${problem}` });
  });

  it("is unavailable without the database", () => {
    expect(readiness(false, [])).toEqual({ status: 503, text: "database unavailable" });
  });
});
