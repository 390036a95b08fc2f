import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { session, user } from "~/db/schema";
import { useTestDatabase } from "../../tests/helpers/db";
import { thrownResponse as thrown } from "../../tests/helpers/route";
import { CLIENT_IP_HEADER, getAuth, upsertUserWithPassword } from "./auth.server";
import { env, parseEnv, setEnv } from "./env.server";
import { ACCESS_DENIED, getOptionalUser, requireRole, requireUser } from "./permissions.server";
import { REQUEST_KEY_HEADER, takeResponseCookies } from "./response-cookies.server";
import { getToast } from "./toast.server";

const PASSWORD = "Permission-Pass-9";

describe("permissions", () => {
  const database = useTestDatabase();
  const baseEnv = env();
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    let ip = 1;
    for (const role of ["user", "editor", "admin"] as const) {
      const email = `${role}.perm@example.test`;
      await upsertUserWithPassword({ email, name: role, password: PASSWORD, role });
      const res = await getAuth().api.signInEmail({
        body: { email, password: PASSWORD },
        headers: new Headers({ [CLIENT_IP_HEADER]: `198.18.0.${ip++}` }),
        returnHeaders: true,
      });
      cookies[role] = res.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
    }
  });
  afterEach(() => setEnv(baseEnv));

  const request = (path: string, who?: string, method = "GET") =>
    new Request(`http://localhost:3000${path}`, {
      method,
      headers: who ? { cookie: cookies[who] } : {},
    });

  it("reads the signed-in user with role and assurance level", async () => {
    const admin = await getOptionalUser(request("/", "admin"));
    expect(admin).toMatchObject({ role: "admin", aal: "aal1", twoFactorEnabled: false });
    expect(await getOptionalUser(request("/"))).toBeNull();
    expect(
      await getOptionalUser(
        new Request("http://localhost:3000/", {
          headers: { cookie: "kongamano.session_token=forged" },
        }),
      ),
    ).toBeNull();
  });

  it("renews the session cookie of a member still using it a day after sign-in", async () => {
    const keyed = (key: string) =>
      new Request("http://localhost:3000/profile", {
        headers: { cookie: cookies.user, [REQUEST_KEY_HEADER]: key },
      });
    // Used on the day of sign-in: nothing to renew.
    expect(await getOptionalUser(keyed("fresh"))).toMatchObject({ role: "user" });
    expect(takeResponseCookies("fresh")).toEqual([]);

    // Signed in two days ago (14-day sessions): the session and its cookie run 14 days from now.
    const [row] = await database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, "user.perm@example.test"));
    const twelveDays = new Date(Date.now() + 12 * 24 * 3600 * 1000);
    await database.db
      .update(session)
      .set({ expiresAt: twelveDays })
      .where(eq(session.userId, row.id));
    expect(await getOptionalUser(keyed("renew"))).toMatchObject({ role: "user" });
    const renewed = takeResponseCookies("renew");
    const token = cookies.user.match(/session_token=([^;]+)/)?.[1];
    expect(renewed).toHaveLength(1);
    expect(renewed[0]).toContain(`session_token=${token}`);
    expect(renewed[0]).toMatch(/Max-Age=1209600/);
    expect(renewed[0]).toMatch(/HttpOnly/i);
    const [stored] = await database.db
      .select({ expiresAt: session.expiresAt })
      .from(session)
      .where(eq(session.userId, row.id));
    expect(stored.expiresAt.getTime()).toBeGreaterThan(twelveDays.getTime() + 24 * 3600 * 1000);
    // Taken once: a second take finds nothing left behind.
    expect(takeResponseCookies("renew")).toEqual([]);
  });

  it("sends anonymous visitors to /auth with the way back, and refuses their POSTs", async () => {
    const redirect = await thrown(requireUser(request("/profile?tab=x")));
    expect(redirect.headers.get("location")).toBe("/auth?redirectTo=%2Fprofile%3Ftab%3Dx");
    const post = await thrown(requireUser(request("/profile", undefined, "POST")));
    expect(post.status).toBe(401);
    const dashboard = await thrown(
      requireRole(request("/admin"), "editor", { anonymousTo: "/auth" }),
    );
    expect(dashboard.headers.get("location")).toBe("/auth?redirectTo=%2Fadmin");
    const other = await thrown(requireRole(request("/admin/events"), "editor"));
    expect(other.headers.get("location")).toBe("/");
  });

  it("sends a signed-in user without the role home with the Access Denied toast; POST → 403", async () => {
    const denied = await thrown(requireRole(request("/admin", "user"), "editor"));
    expect(denied.headers.get("location")).toBe("/");
    const cookie = denied.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const { toast } = await getToast(new Request("http://localhost/", { headers: { cookie } }));
    expect(toast?.title).toBe(ACCESS_DENIED);
    const post = await thrown(requireRole(request("/admin/users", "editor", "POST"), "admin"));
    expect(post.status).toBe(403);
    // The role opens the area (two-factor aside, tested below).
    setEnv({ ...baseEnv, REQUIRE_EDITOR_MFA: false });
    expect(await requireRole(request("/admin", "editor"), "editor")).toMatchObject({
      role: "editor",
    });
  });

  it("with REQUIRE_ADMIN_MFA, makes admins enrol two-factor before any admin screen", async () => {
    setEnv({ ...baseEnv, REQUIRE_ADMIN_MFA: true, REQUIRE_EDITOR_MFA: false });
    const get = await thrown(requireRole(request("/admin/events", "admin"), "editor"));
    expect(get.headers.get("location")).toBe("/profile#two-factor");
    const post = await thrown(requireRole(request("/admin/users", "admin", "POST"), "admin"));
    expect(post.status).toBe(403);
    // Editors are not admins: unaffected by the admin setting.
    expect(await requireRole(request("/admin", "editor"), "editor")).toMatchObject({
      role: "editor",
    });
    // Once enrolled (aal2), the admin gets in.
    await database.db
      .update(user)
      .set({ twoFactorEnabled: true })
      .where(eq(user.email, "admin.perm@example.test"));
    const admin = await requireRole(request("/admin/users", "admin"), "admin");
    expect(admin).toMatchObject({ aal: "aal2" });
  });

  it("requires two-factor for admins and editors by default in every mode", async () => {
    for (const mode of [
      {},
      { NODE_ENV: "development" },
      { NODE_ENV: "test" },
      { NODE_ENV: "production" },
      { DATABASE_URL: "postgres://x/y" },
    ]) {
      const config = parseEnv({ DATA_DIR: baseEnv.DATA_DIR, ...mode });
      expect(config.REQUIRE_ADMIN_MFA).toBe(true);
      expect(config.REQUIRE_EDITOR_MFA).toBe(true);
    }
    // The test settings keep the default for editors.
    expect(baseEnv.REQUIRE_EDITOR_MFA).toBe(true);
    const get = await thrown(requireRole(request("/admin/events", "editor"), "editor"));
    expect(get.headers.get("location")).toBe("/profile#two-factor");
    const post = await thrown(requireRole(request("/admin/events", "editor", "POST"), "editor"));
    expect(post.status).toBe(403);
    // A plain user's pages are not the back office: unaffected.
    expect(await requireUser(request("/profile", "user"))).toMatchObject({ role: "user" });
    // Once enrolled (aal2), the editor gets in.
    await database.db
      .update(user)
      .set({ twoFactorEnabled: true })
      .where(eq(user.email, "editor.perm@example.test"));
    expect(await requireRole(request("/admin/events", "editor"), "editor")).toMatchObject({
      role: "editor",
      aal: "aal2",
    });
  });

  it("can be turned off for editors by the operator", async () => {
    expect(parseEnv({ DATA_DIR: baseEnv.DATA_DIR, REQUIRE_EDITOR_MFA: "off" })).toMatchObject({
      REQUIRE_EDITOR_MFA: false,
    });
  });
});
