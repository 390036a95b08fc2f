/**
 * better-auth's own HTTP endpoints are not a way around the app's rules (issue 13 §2).
 *
 * Every endpoint better-auth defines (read from the running instance, so a plugin or an upgrade
 * that adds one is probed too) is called over the app's /api/auth/* route as anonymous, user,
 * editor and admin, with a body that would make it act. Only the endpoints a browser or script
 * needs answer (mail links, sign-in, sign-up); every other one is a 404 and changes nothing:
 * no role, user, session, password or two-factor row differs afterwards. Impersonation answers
 * only when an operator turns it on, for admins only, never of an admin, and is audited.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { account, auditLog, session, twoFactor, user } from "~/db/schema";
import { CLIENT_IP_HEADER, getAuth, upsertUserWithPassword } from "~/lib/auth.server";
import { env, setEnv } from "~/lib/env.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "~/models/seed/demo-accounts";
import * as authRoute from "~/routes/api/auth";
import { useTestDatabase } from "../helpers/db";
import { type RunningServer, startServer } from "../helpers/server-process";

const PASSWORD = "Endpoint-Probe-2026";
const WHO = ["anonymous", "user", "editor", "admin"] as const;
type Who = (typeof WHO)[number];

/** Endpoints that answer over HTTP (app/routes/api/auth.ts), by method and path. */
const OPEN = new Set([
  "GET /verify-email",
  "GET /reset-password/:token",
  "POST /sign-in/email",
  "POST /sign-up/email",
  "GET /error",
]);

type Endpoint = { path?: string; options?: { method?: string | string[] } };

function endpoints() {
  return Object.entries(getAuth().api as unknown as Record<string, Endpoint>)
    .filter(([, e]) => typeof e.path === "string")
    .flatMap(([name, e]) => {
      const method = e.options?.method ?? "GET";
      const methods = (Array.isArray(method) ? method : [method]).filter((m) => m !== "*");
      return methods.map((m) => ({ name, method: m, path: e.path as string }));
    });
}

/** The Cookie header a browser would send after these Set-Cookie headers (last one wins). */
function cookieHeader(headers: Headers) {
  const jar = new Map<string, string>();
  for (const cookie of headers.getSetCookie()) {
    const [pair] = cookie.split(";");
    const at = pair.indexOf("=");
    const value = pair.slice(at + 1);
    if (value) jar.set(pair.slice(0, at), value);
    else jar.delete(pair.slice(0, at));
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

let ip = 1;
function clientIp() {
  ip++;
  return `10.99.${Math.floor(ip / 250) % 250}.${(ip % 250) + 1}`;
}

async function call(
  method: string,
  path: string,
  cookie: string | null,
  body: Record<string, unknown> = {},
) {
  const url = new URL(`${env().BASE_URL}/api/auth${path}`);
  const headers = new Headers({ [CLIENT_IP_HEADER]: clientIp(), origin: env().BASE_URL });
  if (cookie) headers.set("cookie", cookie);
  let request: Request;
  if (method === "GET") {
    for (const [k, v] of Object.entries(body)) url.searchParams.set(k, String(v));
    request = new Request(url, { headers });
  } else {
    headers.set("content-type", "application/json");
    request = new Request(url, { method, headers, body: JSON.stringify(body) });
  }
  const args = { request, params: {}, context: {} } as never;
  try {
    return method === "GET" ? await authRoute.loader(args) : await authRoute.action(args);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("better-auth endpoints over HTTP", () => {
  const database = useTestDatabase();
  const ids: Record<Exclude<Who, "anonymous">, string> & { target: string; admin2: string } = {
    user: "",
    editor: "",
    admin: "",
    target: "",
    admin2: "",
  };
  const cookies: Record<Who, string | null> = { anonymous: null, user: "", editor: "", admin: "" };
  const baseEnv = env();
  afterEach(() => setEnv(baseEnv));

  async function signIn(email: string) {
    const { headers } = await getAuth().api.signInEmail({
      body: { email, password: PASSWORD },
      headers: new Headers({ [CLIENT_IP_HEADER]: clientIp() }),
      returnHeaders: true,
    });
    return cookieHeader(headers);
  }

  beforeAll(async () => {
    for (const role of ["user", "editor", "admin"] as const) {
      const created = await upsertUserWithPassword({
        email: `${role}@endpoints.test`,
        name: `The ${role}`,
        password: PASSWORD,
        role,
      });
      ids[role] = created.id;
      cookies[role] = await signIn(`${role}@endpoints.test`);
    }
    ids.target = (
      await upsertUserWithPassword({
        email: "target@endpoints.test",
        name: "Target Person",
        password: PASSWORD,
        role: "user",
      })
    ).id;
  });

  async function snapshot() {
    const users = await database.db
      .select({
        id: user.id,
        role: user.role,
        email: user.email,
        name: user.name,
        banned: user.banned,
        twoFactorEnabled: user.twoFactorEnabled,
      })
      .from(user)
      .orderBy(user.email);
    const passwords = await database.db
      .select({ userId: account.userId, password: account.password })
      .from(account)
      .orderBy(account.userId);
    const factors = await database.db.select().from(twoFactor);
    const impersonations = await database.db
      .select()
      .from(session)
      .where(isNotNull(session.impersonatedBy));
    return { users, passwords, factors, impersonations };
  }

  it("answers only the endpoints the site needs; every other one is a 404 for every role and changes nothing", async () => {
    const list = endpoints();
    // The admin plugin and the two-factor plugin are installed: their endpoints are probed.
    expect(list.map((e) => e.path)).toEqual(
      expect.arrayContaining([
        "/admin/set-role",
        "/admin/create-user",
        "/admin/remove-user",
        "/admin/impersonate-user",
        "/admin/list-users",
        "/change-password",
        "/delete-user",
        "/two-factor/disable",
        "/update-user",
      ]),
    );
    const before = await snapshot();
    const answers: string[] = [];
    for (const endpoint of list) {
      const open = OPEN.has(`${endpoint.method} ${endpoint.path}`);
      const path = endpoint.path.replace(/:token/, "probe-token").replace(/:id/, "credential");
      for (const who of WHO) {
        const response = await call(endpoint.method, path, cookies[who], {
          userId: ids.target,
          role: "admin",
          email: "target@endpoints.test",
          newEmail: "taken-over@endpoints.test",
          password: PASSWORD,
          currentPassword: PASSWORD,
          newPassword: "Taken-Over-Pass-77",
          name: "Taken Over",
          banReason: "probe",
          token: "probe-token",
          code: "123456",
          callbackURL: "/",
          permissions: { user: ["list"] },
        });
        const status = response.status;
        if (!open) {
          if (status !== 404)
            answers.push(`${endpoint.method} ${endpoint.path} as ${who}: ${status}`);
        } else {
          expect(status, `${endpoint.method} ${endpoint.path} as ${who}`).not.toBe(404);
          expect(status, `${endpoint.method} ${endpoint.path} as ${who}`).toBeLessThan(500);
        }
      }
    }
    expect(answers).toEqual([]);
    const after = await snapshot();
    expect(after).toEqual(before);
    // Still the same people with the same passwords: each signs in as before.
    for (const email of ["user", "editor", "admin", "target"].map((r) => `${r}@endpoints.test`)) {
      expect(await signIn(email)).toContain("session_token");
    }
  });

  describe("impersonation", () => {
    const impersonate = (who: Who, userId: string) =>
      call("POST", "/admin/impersonate-user", cookies[who], { userId });

    it("is closed unless an operator turns it on", async () => {
      for (const who of WHO) expect((await impersonate(who, ids.target)).status).toBe(404);
      expect((await call("POST", "/admin/stop-impersonating", cookies.admin)).status).toBe(404);
    });

    it("when on: admins only, never of an admin, behind the admin two-factor rule, and audited", async () => {
      setEnv({ ...baseEnv, ALLOW_IMPERSONATION: true });
      expect((await impersonate("anonymous", ids.target)).status).toBe(401);
      expect((await impersonate("user", ids.target)).status).toBe(403);
      expect((await impersonate("editor", ids.target)).status).toBe(403);

      ids.admin2 = (
        await upsertUserWithPassword({
          email: "admin2@endpoints.test",
          name: "Second Admin",
          password: PASSWORD,
          role: "admin",
        })
      ).id;
      expect((await impersonate("admin", ids.admin2)).status).toBe(403);

      setEnv({ ...baseEnv, ALLOW_IMPERSONATION: true, REQUIRE_ADMIN_MFA: true });
      expect((await impersonate("admin", ids.target)).status).toBe(403);
      setEnv({ ...baseEnv, ALLOW_IMPERSONATION: true });

      const started = await impersonate("admin", ids.target);
      expect(started.status).toBe(200);
      const asTarget = cookieHeader(started.headers);
      const current = await getAuth().api.getSession({
        headers: new Headers({ cookie: asTarget }),
      });
      expect(current?.user.id).toBe(ids.target);

      const stopped = await call("POST", "/admin/stop-impersonating", asTarget);
      expect(stopped.status).toBe(200);

      const rows = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, "user"), eq(auditLog.entityId, ids.target)));
      expect(rows.map((r) => [r.action, r.actorId])).toEqual(
        expect.arrayContaining([
          ["user.impersonate_start", ids.admin],
          ["user.impersonate_stop", ids.admin],
        ]),
      );
      // The refused attempts left no trace of an impersonation.
      const ofAdmin2 = await database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.entityId, ids.admin2));
      expect(ofAdmin2.filter((r) => r.action.startsWith("user.impersonate"))).toEqual([]);
    });
  });
});

/** The same rules seen from outside, on the production build with its default configuration. */
describe("production server (default configuration)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: "loopback" });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/json", origin: server.url, ...headers },
      body: JSON.stringify(body),
    });

  it("never locks the owner out: an attacker failing in a loop from one address, the owner signs in every time from another", async () => {
    const member = DEMO_ACCOUNTS.find((a) => a.role === "user")!.email;
    const attacker = { "x-forwarded-for": "198.51.100.66" };
    const owner = { "x-forwarded-for": "198.51.100.7" };
    const attackerStatuses: number[] = [];
    for (let round = 0; round < 8; round++) {
      const guesses = await Promise.all(
        [1, 2, 3].map(() =>
          post("/api/auth/sign-in/email", { email: member, password: "wrong-guess-123" }, attacker),
        ),
      );
      attackerStatuses.push(...guesses.map((r) => r.status));
      const signIn = await post(
        "/api/auth/sign-in/email",
        { email: member, password: DEMO_PASSWORD },
        owner,
      );
      expect(signIn.status, `owner's sign-in in round ${round}`).toBe(200);
    }
    expect(attackerStatuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(attackerStatuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(19);
  }, 60_000);

  it("closes better-auth's admin and account endpoints over HTTP, signed in or not", async () => {
    const admin = DEMO_ACCOUNTS.find((a) => a.role === "admin")!.email;
    const signIn = await post(
      "/api/auth/sign-in/email",
      { email: admin, password: DEMO_PASSWORD },
      { "x-forwarded-for": "198.51.100.20" },
    );
    const cookie = cookieHeader(signIn.headers);
    for (const path of [
      "/api/auth/admin/set-role",
      "/api/auth/admin/create-user",
      "/api/auth/admin/remove-user",
      "/api/auth/admin/impersonate-user",
      "/api/auth/change-password",
      "/api/auth/delete-user",
      "/api/auth/two-factor/disable",
      "/api/auth/update-user",
    ]) {
      for (const headers of [{}, { cookie }] as Record<string, string>[]) {
        const response = await post(path, { userId: "x", role: "user" }, headers);
        expect(response.status, path).toBe(404);
      }
    }
    const listUsers = await fetch(`${server.url}/api/auth/admin/list-users`, {
      headers: { cookie },
    });
    expect(listUsers.status).toBe(404);
  });

  it("sends the demo admin and the demo editor to the two-factor enrolment step before the back office opens", async () => {
    for (const [n, role] of (["admin", "editor"] as const).entries()) {
      const email = DEMO_ACCOUNTS.find((a) => a.role === role)!.email;
      const signIn = await post(
        "/api/auth/sign-in/email",
        { email, password: DEMO_PASSWORD },
        { "x-forwarded-for": `198.51.100.${21 + n}` },
      );
      expect(signIn.status, role).toBe(200);
      const cookie = cookieHeader(signIn.headers);
      for (const path of ["/admin", "/admin/payments"]) {
        const page = await fetch(`${server.url}${path}`, {
          redirect: "manual",
          headers: { cookie },
        });
        expect(page.status, `${role} ${path}`).toBe(302);
        expect(page.headers.get("location"), `${role} ${path}`).toBe("/profile#two-factor");
      }
      // No back-office change either, until two-factor is set up.
      const change = await fetch(`${server.url}/admin/events/new`, {
        method: "POST",
        redirect: "manual",
        headers: {
          cookie,
          origin: server.url,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "title=Probe",
      });
      expect(change.status, role).toBe(403);
    }
  });
});
