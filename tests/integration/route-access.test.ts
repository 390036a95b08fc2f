/**
 * Route access (spec §6, design.md §3): every route under /admin and /profile, read from
 * app/routes.ts, answers GET and POST for anonymous, user, editor and admin exactly as allowed.
 *
 * - Each route module's OWN loader and action is called (layouts are extra, never the only
 *   guard); a layout's loader is checked against the lowest role of the area (editor).
 * - A module that exports no loader or action has nothing to protect (its data would come from
 *   a guarded loader) and is reported as such. Other engineers ship admin screens in steps: a
 *   screen that is still a component-only placeholder passes, but as soon as it exports a loader
 *   or an action, that loader/action must refuse exactly as below or this test fails. A new route
 *   added to routes.ts is picked up automatically.
 *
 * Expected answers:
 *   GET, anonymous          → redirect to /auth (/profile and the /admin dashboard) or to /
 *   GET, signed in, no role → redirect to / with the 'Access Denied: ...' toast
 *   POST, anonymous         → 401 (or 403); POST, signed in without the role → 403
 *   and a refused POST changes nothing in the database. A resource route that answers GET with
 *   405 (no GET endpoint) to everyone passes: it discloses nothing.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "~/db/schema";
import { CLIENT_IP_HEADER, getAuth } from "~/lib/auth.server";
import { ACCESS_DENIED } from "~/lib/permissions.server";
import { hasRole, type Role } from "~/lib/roles";
import { getToast } from "~/lib/toast.server";
import routes from "~/routes";
import { databaseFingerprint, useTestDatabase } from "../helpers/db";
import { signInEachRole } from "../helpers/session";

type RouteEntry = { id: string; file: string; path: string; layouts: string[] };
type Who = "anonymous" | Role;
const WHO: Who[] = ["anonymous", "user", "editor", "admin"];
const ORIGIN = "http://localhost:3000";

/** Walks the route config: full URL paths, and the layout modules wrapping each route. */
function flatten(
  entries: readonly { path?: string; index?: boolean; file: string; children?: unknown[] }[],
  parentPath = "",
  layouts: string[] = [],
): RouteEntry[] {
  const out: RouteEntry[] = [];
  for (const entry of entries) {
    const path = joinPath(parentPath, entry.path ?? "");
    const children = (entry.children ?? []) as typeof entries;
    if (children.length > 0) {
      // A route with children (a layout) runs for every child URL.
      out.push(...flatten(children, path, [...layouts, entry.file]));
    } else {
      out.push({ id: entry.file, file: entry.file, path, layouts });
    }
  }
  return out;
}

function joinPath(a: string, b: string) {
  const joined = [a, b].filter(Boolean).join("/").replace(/\/+/g, "/");
  return `/${joined.replace(/^\//, "")}`.replace(/\/$/, "") || "/";
}

/** The author's pages of calls for papers (issue 32): any signed-in person, their own only. */
const isAuthorArea = (path: string) =>
  path.startsWith("/profile/submissions") || /^\/papers\/calls\/[^/]+\/submit$/.test(path);

/** Spec §6 table: the role each area needs. */
function requiredRole(path: string): Role {
  if (path === "/profile" || isAuthorArea(path)) return "user";
  if (/^\/admin\/(security|users|offices|jobs|members)(\/|\.csv$|$)/.test(path)) return "admin";
  return "editor";
}

/** Where spec §2.1/§2.15 send anonymous visitors on GET. */
function anonymousTarget(path: string) {
  return path === "/profile" || path === "/admin" || isAuthorArea(path) ? "/auth" : "/";
}

const guarded = flatten(routes as Parameters<typeof flatten>[0]).filter(
  (r) =>
    r.path === "/profile" ||
    r.path === "/admin" ||
    r.path.startsWith("/admin/") ||
    isAuthorArea(r.path),
);

type Outcome =
  | { kind: "response"; status: number; location: string | null; headers: Headers }
  | { kind: "value"; status: number }
  | { kind: "error"; error: unknown };

async function run(fn: () => unknown): Promise<Outcome> {
  try {
    return normalise(await fn());
  } catch (thrown) {
    if (thrown instanceof Response || isDataWithInit(thrown)) return normalise(thrown);
    return { kind: "error", error: thrown };
  }
}

function isDataWithInit(value: unknown): value is { type: string; init?: ResponseInit } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { type?: string }).type === "DataWithResponseInit"
  );
}

function normalise(value: unknown): Outcome {
  if (value instanceof Response) {
    return {
      kind: "response",
      status: value.status,
      location: value.headers.get("location"),
      headers: value.headers,
    };
  }
  if (isDataWithInit(value)) {
    const headers = new Headers(value.init?.headers);
    return {
      kind: "response",
      status: value.init?.status ?? 200,
      location: headers.get("location"),
      headers,
    };
  }
  return { kind: "value", status: 200 };
}

function describeOutcome(o: Outcome) {
  if (o.kind === "error") return `threw ${String((o.error as Error)?.message ?? o.error)}`;
  if (o.kind === "value") return "200 (data)";
  return `${o.status}${o.location ? ` → ${o.location}` : ""}`;
}

function isRedirect(o: Outcome): o is Extract<Outcome, { kind: "response" }> {
  return o.kind === "response" && o.status >= 300 && o.status < 400;
}

async function toastTitle(o: Extract<Outcome, { kind: "response" }>) {
  const cookie = o.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { toast } = await getToast(new Request(ORIGIN, { headers: { cookie } }));
  return toast?.title ?? null;
}

function urlFor(path: string) {
  // Parameters get a well-formed id that matches nothing (loaders may answer 404: allowed).
  return ORIGIN + path.replace(/:[A-Za-z]+\??/g, "00000000-0000-4000-8000-000000000000");
}

function paramsFor(path: string) {
  const params: Record<string, string> = {};
  for (const m of path.matchAll(/:([A-Za-z]+)/g)) {
    params[m[1]] = "00000000-0000-4000-8000-000000000000";
  }
  return params;
}

type RouteModule = {
  loader?: (args: unknown) => unknown;
  action?: (args: unknown) => unknown;
};

const modules = new Map<string, RouteModule>();
async function load(file: string): Promise<RouteModule> {
  let mod = modules.get(file);
  if (!mod) {
    mod = (await import(/* @vite-ignore */ `../../app/${file}`)) as RouteModule;
    modules.set(file, mod);
  }
  return mod;
}

function call(
  fn: (args: unknown) => unknown,
  method: "GET" | "POST",
  path: string,
  cookie: string | null,
) {
  const headers = new Headers({ [CLIENT_IP_HEADER]: "198.51.100.7" });
  if (cookie) headers.set("cookie", cookie);
  const request = new Request(urlFor(path), {
    method,
    headers,
    body: method === "POST" ? new FormData() : undefined,
  });
  return run(() =>
    fn({ request, params: paramsFor(path), context: { cspNonce: "", requestId: "" } }),
  );
}

/** Checks one loader/action answer against spec §6; returns a failure text or null. */
async function check(
  o: Outcome,
  method: "GET" | "POST",
  who: Who,
  need: Role,
  anonymousTo: string,
): Promise<string | null> {
  const allowed = who !== "anonymous" && hasRole(who, need);
  if (allowed) {
    const refused =
      (o.kind === "response" && (o.status === 401 || o.status === 403)) ||
      (isRedirect(o) &&
        (o.location === "/" || o.location?.startsWith("/auth")) &&
        (await toastTitle(o)) === ACCESS_DENIED);
    const sentToSignIn = isRedirect(o) && o.location?.startsWith("/auth");
    return refused || sentToSignIn ? `allowed but refused: ${describeOutcome(o)}` : null;
  }
  // A resource route that offers no GET at all (405 for everyone) discloses nothing.
  if (method === "GET" && o.kind === "response" && o.status === 405) return null;
  if (method === "POST") {
    const ok =
      o.kind === "response" && (who === "anonymous" ? [401, 403] : [403]).includes(o.status);
    return ok ? null : `expected ${who === "anonymous" ? "401" : "403"}, got ${describeOutcome(o)}`;
  }
  if (!isRedirect(o)) return `expected a redirect, got ${describeOutcome(o)}`;
  const location = o.location ?? "";
  if (who === "anonymous") {
    const ok = anonymousTo === "/auth" ? location.startsWith("/auth") : location === "/";
    return ok ? null : `expected → ${anonymousTo}, got → ${location}`;
  }
  if (location !== "/") return `expected → /, got → ${location}`;
  const title = await toastTitle(o);
  return title === ACCESS_DENIED ? null : `expected the Access Denied toast, got ${title}`;
}

describe("route access (spec §6)", () => {
  const database = useTestDatabase();
  const cookies: Record<Who, string | null> = {
    anonymous: null,
    user: null,
    editor: null,
    admin: null,
  };

  beforeAll(async () => {
    let ip = 1;
    for (const role of ["user", "editor", "admin"] as const) {
      const email = `${role}.access@example.test`;
      const headers = new Headers({ [CLIENT_IP_HEADER]: `203.0.113.${ip++}` });
      await getAuth().api.signUpEmail({
        body: { email, password: "Access-Test-Pass-1", name: `Access ${role}` },
        headers,
      });
      await database.db
        .update(user)
        .set({ role, emailVerified: true })
        .where(sql`${user.email} = ${email}`);
      const signedIn = await getAuth().api.signInEmail({
        body: { email, password: "Access-Test-Pass-1" },
        headers,
        returnHeaders: true,
      });
      cookies[role] = signedIn.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      // Staff have set up two-factor, as the back office asks first (REQUIRE_EDITOR_MFA).
      if (role !== "user") {
        await database.db
          .update(user)
          .set({ twoFactorEnabled: true })
          .where(sql`${user.email} = ${email}`);
      }
    }
  });

  afterAll(() => {
    modules.clear();
  });

  it("finds the /profile and /admin routes in app/routes.ts", () => {
    const paths = guarded.map((r) => r.path);
    expect(paths).toContain("/profile");
    expect(paths).toContain("/admin");
    expect(paths).toContain("/admin/users");
    expect(paths).toContain("/admin/security");
    expect(paths).toContain("/admin/offices");
    expect(paths.length).toBeGreaterThan(20);
  });

  it("would fail a route whose loader or action does not check the role", async () => {
    const unguarded = { loader: () => ({ secret: "data" }), action: () => ({ ok: true }) };
    for (const who of ["anonymous", "user", "editor"] as const) {
      const get = await call(unguarded.loader, "GET", "/admin/users", cookies[who]);
      expect(await check(get, "GET", who, "admin", "/")).not.toBeNull();
      const post = await call(unguarded.action, "POST", "/admin/users", cookies[who]);
      expect(await check(post, "POST", who, "admin", "/")).not.toBeNull();
    }
    // An anonymous visitor sent to the wrong place is caught too.
    const wrong = await run(() => {
      throw new Response(null, { status: 302, headers: { location: "/auth" } });
    });
    expect(await check(wrong, "GET", "anonymous", "editor", "/")).not.toBeNull();
  });

  it.each(guarded.map((r) => [r.path, r] as const))(
    "%s answers each role as allowed",
    async (_path, route) => {
      const failures: string[] = [];
      const need = requiredRole(route.path);
      const chain = [
        ...route.layouts.map((file) => ({ file, need: "editor" as Role, layout: true })),
        { file: route.file, need, layout: false },
      ];
      for (const link of chain) {
        const mod = await load(link.file);
        // Layouts need the area's lowest role; the anonymous target follows the URL.
        const anonymousTo = anonymousTarget(route.path);
        for (const who of WHO) {
          if (mod.loader) {
            const o = await call(mod.loader, "GET", route.path, cookies[who]);
            const problem = await check(o, "GET", who, link.need, anonymousTo);
            if (problem) failures.push(`GET ${link.file} as ${who}: ${problem}`);
          }
          if (mod.action && !link.layout) {
            const allowed = who !== "anonymous" && hasRole(who, link.need);
            const before = allowed ? null : await databaseFingerprint();
            const o = await call(mod.action, "POST", route.path, cookies[who]);
            const problem = await check(o, "POST", who, link.need, anonymousTo);
            if (problem) failures.push(`POST ${link.file} as ${who}: ${problem}`);
            if (before !== null && (await databaseFingerprint()) !== before) {
              failures.push(`POST ${link.file} as ${who}: refused but the database changed`);
            }
          }
        }
      }
      expect(failures).toEqual([]);
    },
  );
});

/**
 * Reviewers' routes (issue 32): reviewing is a per-call capability, not a role, so every signed-in
 * person reaches /reviews, and an assignment (or its PDF, or an invitation) that is not theirs is
 * a 404 whatever their role. Anonymous visitors are sent to sign in (GET) or refused (POST).
 */
describe("route access: reviewers' routes", () => {
  useTestDatabase();
  const reviewerRoutes = flatten(routes as Parameters<typeof flatten>[0]).filter(
    (r) => r.path === "/reviews" || r.path.startsWith("/reviews/"),
  );
  const signedIn: Record<string, string> = {};

  beforeAll(async () => {
    const signed = await signInEachRole();
    for (const role of ["user", "editor", "admin"] as const) signedIn[role] = signed[role];
  });

  it("finds them in app/routes.ts", () => {
    expect(reviewerRoutes.map((r) => r.path)).toEqual(
      expect.arrayContaining(["/reviews", "/reviews/:assignmentId"]),
    );
  });

  it.each(reviewerRoutes.map((r) => [r.path, r] as const))(
    "%s: anonymous to sign-in, nobody else's assignment found",
    async (_path, route) => {
      const failures: string[] = [];
      const mod = await load(route.file);
      if (mod.loader) {
        const anonymous = await call(mod.loader, "GET", route.path, null);
        if (!isRedirect(anonymous) || !anonymous.location?.startsWith("/auth")) {
          failures.push(`GET as anonymous: ${describeOutcome(anonymous)}`);
        }
      }
      if (mod.action) {
        const before = await databaseFingerprint();
        const anonymous = await call(mod.action, "POST", route.path, null);
        if (anonymous.kind !== "response" || anonymous.status !== 401) {
          failures.push(`POST as anonymous: ${describeOutcome(anonymous)}`);
        }
        if ((await databaseFingerprint()) !== before)
          failures.push("POST as anonymous changed data");
      }
      const hasParameter = route.path.includes(":");
      for (const role of Object.keys(signedIn)) {
        for (const [method, fn] of [
          ["GET", mod.loader],
          ["POST", mod.action],
        ] as const) {
          if (!fn) continue;
          const o = await call(fn, method, route.path, signedIn[role]);
          // The invitation page shows nothing about the paper before its POST checks the token.
          const disclosesNothing = method === "GET" && route.path.includes(":token");
          const ok =
            hasParameter && !disclosesNothing
              ? o.kind === "response" && o.status === 404
              : o.kind === "value" || (o.kind === "response" && o.status === 200);
          if (!ok) failures.push(`${method} as ${role}: ${describeOutcome(o)}`);
        }
      }
      expect(failures).toEqual([]);
    },
  );
});
