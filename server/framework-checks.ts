// Start-up checks of what we changed in the framework (decision 0077). React Router's route
// matching is patched by `patches/react-router+7.18.4.patch` at `npm install`; an install with
// `--ignore-scripts` leaves it out. The site works without it, only slower, so a missing patch
// is logged once at start and shown on /readyz rather than stopping the server.
import { createStaticHandler } from "react-router";

/** What the probe asks of React Router's static handler. */
type StaticHandler = { query: (request: Request) => Promise<unknown> };

/** A path no page of ours uses, so the probe's regular expression is recognisably its own. */
const PROBE = "kongamano-route-match-probe";

/**
 * How many times React Router tests a URL against the probe's route while it matches one request.
 * React Router matches before its first `await`, so the counting hook is in place only for that
 * synchronous stretch and removed before anything else can run.
 */
function routeTests(handler: StaticHandler, url: string) {
  const match = RegExp.prototype[Symbol.match];
  let tests = 0;
  RegExp.prototype[Symbol.match] = function (this: RegExp, text: string) {
    if (this.source.includes(PROBE)) tests++;
    return match.call(this, text);
  };
  try {
    handler.query(new Request(url)).catch(() => {});
  } finally {
    RegExp.prototype[Symbol.match] = match;
  }
  return tests;
}

export type RouteMatchMemoState = "applied" | "missing" | "unknown";

/**
 * Whether React Router remembers a match (decision 0071), seen from what it does: the same path
 * asked twice of one route table is tested against the routes only the first time. "unknown" when
 * the first ask tests nothing either (React Router no longer matches the way this probe expects).
 */
export function routeMatchMemoState(
  createHandler: (routes: Parameters<typeof createStaticHandler>[0]) => StaticHandler = (
    routes,
  ) => {
    const handler = createStaticHandler(routes);
    return { query: (request) => handler.query(request) };
  },
): RouteMatchMemoState {
  const handler = createHandler([{ id: "probe", path: `/${PROBE}/:id` }]);
  const url = `http://localhost/${PROBE}/1`;
  if (routeTests(handler, url) === 0) return "unknown";
  return routeTests(handler, url) === 0 ? "applied" : "missing";
}

const ROUTE_MATCH_MEMO_PROBLEMS: Record<Exclude<RouteMatchMemoState, "applied">, string> = {
  missing:
    "React Router's route-match memo is not applied (patches/react-router+7.18.4.patch; was npm install run with --ignore-scripts?): every page works, uncached pages are slower",
  unknown:
    "React Router's route-match memo could not be checked (React Router changed?): see decision 0077",
};

/** What is wrong with the framework as installed, one line each; empty when all is well. */
export function frameworkProblems(state: RouteMatchMemoState = routeMatchMemoState()): string[] {
  return state === "applied" ? [] : [ROUTE_MATCH_MEMO_PROBLEMS[state]];
}

/** /readyz: 503 without the database; a framework problem is a line of detail, not a failure. */
export function readiness(databaseUp: boolean, problems: readonly string[]) {
  if (!databaseUp) return { status: 503, text: "database unavailable" };
  return { status: 200, text: ["ready", ...problems].join("\n") };
}
