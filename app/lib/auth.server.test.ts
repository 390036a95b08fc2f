import { spawn } from "node:child_process";
import { eq } from "drizzle-orm";
import { TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, rateLimit, user } from "~/db/schema";
import { useTestDatabase } from "../../tests/helpers/db";
import { startTestSmtp } from "../../tests/helpers/smtp";
import {
  ARGON2_OPTIONS,
  appendSetCookies,
  authErrorCode,
  authErrorStatus,
  CLIENT_IP_HEADER,
  getAuth,
  hashPassword,
  safeRedirectPath,
  setUserRole,
  upsertUserWithPassword,
  verifyPassword,
} from "./auth.server";
import { env, parseEnv, setEnv } from "./env.server";
import { getRedis } from "./rate-limit.server";

describe("auth.server", () => {
  const db = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  const baseEnv = env();

  beforeAll(async () => {
    smtp = await startTestSmtp();
    setEnv({ ...baseEnv, SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    setEnv(baseEnv);
    await smtp.close();
  });

  let ipCounter = 1;
  /** Request headers from a fresh client address (per-client limits never couple tests). */
  function clientHeaders(extra: Record<string, string> = {}) {
    return new Headers({ [CLIENT_IP_HEADER]: `192.0.2.${ipCounter++}`, ...extra });
  }

  function cookieHeader(setCookies: Headers | null | undefined) {
    return (setCookies?.getSetCookie() ?? []).map((c) => c.split(";")[0]).join("; ");
  }

  async function rejection(promise: Promise<unknown>) {
    try {
      await promise;
    } catch (error) {
      return { status: authErrorStatus(error), code: authErrorCode(error), error };
    }
    throw new Error("expected the call to fail");
  }

  function linkIn(text: string) {
    const match = text.match(/https?:\/\/\S+/);
    if (!match) throw new Error(`no link in mail: ${text}`);
    return match[0];
  }

  const PASSWORD = "Correct-Horse-42";

  async function signUpAndVerify(email: string, name = "Test Person") {
    await getAuth().api.signUpEmail({
      body: { email, password: PASSWORD, name },
      headers: clientHeaders(),
    });
    const mail = await smtp.waitFor(email, /Verify/);
    const link = new URL(linkIn(mail.text));
    const response = await getAuth().handler(
      new Request(link, { headers: clientHeaders({ "user-agent": "vitest" }) }),
    );
    expect(response.status).toBe(302);
    return cookieHeader(response.headers);
  }

  describe("passwords", () => {
    it("hashes with argon2id at m=19 MiB, t=2, p=1 and verifies", async () => {
      const hash = await hashPassword("s3cret-Passw0rd");
      expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(ARGON2_OPTIONS.memoryCost).toBeGreaterThanOrEqual(19_456);
      expect(await verifyPassword({ hash, password: "s3cret-Passw0rd" })).toBe(true);
      expect(await verifyPassword({ hash, password: "wrong" })).toBe(false);
      expect(await verifyPassword({ hash: "garbage", password: "wrong" })).toBe(false);
    });

    it("refuses passwords shorter than 8 characters at sign-up", async () => {
      const failure = await rejection(
        getAuth().api.signUpEmail({
          body: { email: "short@example.test", password: "Ab1!xyz", name: "Short" },
          headers: clientHeaders(),
        }),
      );
      expect(failure.code).toBe("PASSWORD_TOO_SHORT");
    });
  });

  describe("redirect targets", () => {
    it("keeps same-origin paths and refuses everything else", () => {
      expect(safeRedirectPath("/admin/events?x=1")).toBe("/admin/events?x=1");
      expect(safeRedirectPath("//evil.example")).toBe("/");
      expect(safeRedirectPath("/\\evil.example")).toBe("/");
      expect(safeRedirectPath("https://evil.example/")).toBe("/");
      expect(safeRedirectPath("/\t/evil.example")).toBe("/");
      expect(safeRedirectPath(undefined)).toBe("/");
    });
  });

  describe("sign-up, verification and sign-in", () => {
    it("mails a verification link that verifies the address and signs the person in", async () => {
      const cookies = await signUpAndVerify("new.member@example.test", "New Member");
      const session = await getAuth().api.getSession({ headers: new Headers({ cookie: cookies }) });
      expect(session?.user.email).toBe("new.member@example.test");
      expect(session?.user.emailVerified).toBe(true);
    });

    it("answers a sign-up with a known e-mail exactly like a new one, and tells the owner", async () => {
      const fresh = await getAuth().api.signUpEmail({
        body: { email: "fresh@example.test", password: PASSWORD, name: "Fresh" },
        headers: clientHeaders(),
      });
      const known = await getAuth().api.signUpEmail({
        body: { email: "new.member@example.test", password: PASSWORD, name: "Intruder" },
        headers: clientHeaders(),
      });
      expect(Object.keys(known).sort()).toEqual(Object.keys(fresh).sort());
      expect(Object.keys(known.user).sort()).toEqual(Object.keys(fresh.user).sort());
      expect(known.token).toBeNull();
      const notice = await smtp.waitFor("new.member@example.test", /tried to create/);
      expect(notice.text).toContain("already has an account");
    });

    it("refuses an unverified account with EMAIL_NOT_VERIFIED (only after the right password)", async () => {
      const wrong = await rejection(
        getAuth().api.signInEmail({
          body: { email: "fresh@example.test", password: "Wrong-password-1" },
          headers: clientHeaders(),
        }),
      );
      expect(wrong.code).toBe("INVALID_EMAIL_OR_PASSWORD");
      const right = await rejection(
        getAuth().api.signInEmail({
          body: { email: "fresh@example.test", password: PASSWORD },
          headers: clientHeaders(),
        }),
      );
      expect(right.code).toBe("EMAIL_NOT_VERIFIED");
    });

    it("records sign-in success and failure in the audit log with e-mail, address and agent", async () => {
      const headers = clientHeaders({ "user-agent": "audit-agent" });
      await rejection(
        getAuth().api.signInEmail({
          body: { email: "new.member@example.test", password: "nope-nope-nope" },
          headers,
        }),
      );
      await getAuth().api.signInEmail({
        body: { email: "new.member@example.test", password: PASSWORD },
        headers,
      });
      const rows = await db.db.select().from(auditLog);
      const failed = rows.find(
        (r) => r.action === "auth.sign_in_failed" && r.userAgent === "audit-agent",
      );
      expect(failed).toMatchObject({
        actorEmail: "new.member@example.test",
        ip: headers.get(CLIENT_IP_HEADER),
      });
      expect(
        rows.some((r) => r.action === "auth.sign_in" && r.userAgent === "audit-agent" && r.actorId),
      ).toBe(true);
    });
  });

  describe("rate limits", () => {
    it("answers the fourth failed sign-in for one account within 10 s with 429, whatever the address", async () => {
      await upsertUserWithPassword({
        email: "target@example.test",
        name: "Target",
        password: PASSWORD,
        role: "user",
      });
      const attempt = () =>
        getAuth().api.signInEmail({
          body: { email: "target@example.test", password: "guess-guess-guess" },
          headers: clientHeaders(), // a new client address each time
        });
      for (let i = 0; i < 3; i++) expect((await rejection(attempt())).status).toBe(401);
      const fourth = await rejection(attempt());
      expect(fourth.status).toBe(429);
      expect((fourth.error as Error).message).toMatch(
        /^Too many attempts\. Please wait \d+ seconds? and try again\.$/,
      );
      // The right password from yet another address is refused too while the window lasts.
      const right = await rejection(
        getAuth().api.signInEmail({
          body: { email: "target@example.test", password: PASSWORD },
          headers: clientHeaders(),
        }),
      );
      expect(right.status).toBe(429);
    });

    it("answers the fourth attempt from one client within 10 s with 429, whatever the account", async () => {
      const headers = clientHeaders();
      for (let i = 0; i < 3; i++) {
        const r = await rejection(
          getAuth().api.signInEmail({
            body: { email: `nobody${i}@example.test`, password: "whatever-123" },
            headers,
          }),
        );
        expect(r.status).toBe(401);
      }
      const fourth = await rejection(
        getAuth().api.signInEmail({
          body: { email: "nobody9@example.test", password: "whatever-123" },
          headers,
        }),
      );
      expect(fourth.status).toBe(429);
    });

    it("limits sign-up, reset mail and verification mail per account too", async () => {
      for (const call of [
        (h: Headers) =>
          getAuth().api.requestPasswordReset({
            body: { email: "limits@example.test", redirectTo: "/auth/reset-password" },
            headers: h,
          }),
        (h: Headers) =>
          getAuth().api.sendVerificationEmail({
            body: { email: "limits@example.test" },
            headers: h,
          }),
      ]) {
        for (let i = 0; i < 3; i++) await call(clientHeaders());
        expect((await rejection(call(clientHeaders()))).status).toBe(429);
      }
    });

    it("keeps the same limits in Redis when REDIS_URL is set", async () => {
      // A private redis-server for this test (the machine has one installed, see design.md §1).
      const port = 20_000 + Math.floor(Math.random() * 20_000);
      const server = spawn(
        "redis-server",
        ["--port", String(port), "--save", "", "--appendonly", "no"],
        {
          stdio: "ignore",
        },
      );
      const redisUrl = `redis://127.0.0.1:${port}`;
      const current = env();
      try {
        const redis = getRedis(redisUrl);
        await expect.poll(() => redis.ping().catch(() => "down"), { timeout: 10_000 }).toBe("PONG");
        setEnv({ ...current, REDIS_URL: redisUrl });
        const email = `redis.${Date.now()}@example.test`;
        const attempt = () =>
          getAuth().api.signInEmail({
            body: { email, password: "guess-guess-guess" },
            headers: clientHeaders(),
          });
        for (let i = 0; i < 3; i++) expect((await rejection(attempt())).status).toBe(401);
        expect((await rejection(attempt())).status).toBe(429);
        const keys = await redis.keys("ratelimit:auth:sign-in:*");
        expect(keys.some((k) => k.startsWith("ratelimit:auth:sign-in:account:"))).toBe(true);
        expect(keys.some((k) => k.includes("@"))).toBe(false);
      } finally {
        setEnv(current);
        server.kill("SIGTERM");
      }
    });

    it("keeps counters in the rate_limit table without e-mail addresses in the keys", async () => {
      const keys = (await db.db.select({ key: rateLimit.key }).from(rateLimit)).map((r) => r.key);
      expect(keys.some((k) => k.startsWith("auth:sign-in:account:"))).toBe(true);
      expect(keys.some((k) => k.includes("@"))).toBe(false);
    });
  });

  describe("password reset", () => {
    it("answers the same for an unknown address and mails a working one-time link to a known one", async () => {
      const known = await getAuth().api.requestPasswordReset({
        body: { email: "new.member@example.test", redirectTo: "/auth/reset-password" },
        headers: clientHeaders(),
      });
      const unknown = await getAuth().api.requestPasswordReset({
        body: { email: "nobody.at.all@example.test", redirectTo: "/auth/reset-password" },
        headers: clientHeaders(),
      });
      expect(unknown).toEqual(known);
      const mail = await smtp.waitFor("new.member@example.test", /Reset/);
      const callback = await getAuth().handler(
        new Request(linkIn(mail.text), { headers: clientHeaders() }),
      );
      const location = new URL(callback.headers.get("location") ?? "", env().BASE_URL);
      expect(location.pathname).toBe("/auth/reset-password");
      const token = location.searchParams.get("token") ?? "";
      await getAuth().api.resetPassword({
        body: { token, newPassword: "Brand-New-Pass-7" },
        headers: clientHeaders(),
      });
      const reused = await rejection(
        getAuth().api.resetPassword({
          body: { token, newPassword: "Another-Pass-8" },
          headers: clientHeaders(),
        }),
      );
      expect(reused.code).toBe("INVALID_TOKEN");
      const signedIn = await getAuth().api.signInEmail({
        body: { email: "new.member@example.test", password: "Brand-New-Pass-7" },
        headers: clientHeaders(),
      });
      expect(signedIn.user.email).toBe("new.member@example.test");
    });
  });

  describe("two-factor (TOTP)", () => {
    it("enrols with a code, then asks for a code at sign-in and accepts each code once only", async () => {
      await upsertUserWithPassword({
        email: "totp@example.test",
        name: "Totp User",
        password: PASSWORD,
        role: "admin",
      });
      const signIn = await getAuth().api.signInEmail({
        body: { email: "totp@example.test", password: PASSWORD },
        headers: clientHeaders(),
        returnHeaders: true,
      });
      let cookies = cookieHeader(signIn.headers);
      const enabled = await getAuth().api.enableTwoFactor({
        body: { password: PASSWORD },
        headers: clientHeaders({ cookie: cookies }),
      });
      if (enabled.method !== "totp") throw new Error("expected TOTP enrolment");
      expect(enabled.backupCodes).toHaveLength(10);
      const uri = new URL(enabled.totpURI ?? "");
      expect(uri.searchParams.get("issuer")).toBe("Kongamano");
      const totp = new TOTP({ secret: uri.searchParams.get("secret") ?? "" });
      const confirmed = await getAuth().api.verifyTOTP({
        body: { code: totp.generate() },
        headers: clientHeaders({ cookie: cookies }),
        returnHeaders: true,
      });
      cookies = cookieHeader(confirmed.headers);
      const [row] = await db.db
        .select({ twoFactorEnabled: user.twoFactorEnabled })
        .from(user)
        .where(eq(user.email, "totp@example.test"));
      expect(row.twoFactorEnabled).toBe(true);

      // Sign-in now stops at the second factor.
      const challenge = await getAuth().api.signInEmail({
        body: { email: "totp@example.test", password: PASSWORD },
        headers: clientHeaders(),
        returnHeaders: true,
      });
      expect(challenge.response).toMatchObject({ twoFactorRedirect: true });
      const pending = cookieHeader(challenge.headers);
      // The code used to confirm enrolment was already used: refused.
      const replay = await rejection(
        getAuth().api.verifyTOTP({
          body: { code: totp.generate() },
          headers: clientHeaders({ cookie: pending }),
        }),
      );
      expect(replay.code).toBe("TOTP_CODE_ALREADY_USED");
      // A recovery code works once.
      const recovery = enabled.backupCodes[0];
      const ok = await getAuth().api.verifyBackupCode({
        body: { code: recovery },
        headers: clientHeaders({ cookie: pending }),
        returnHeaders: true,
      });
      expect(cookieHeader(ok.headers)).toContain("session_token");
      const again = await getAuth().api.signInEmail({
        body: { email: "totp@example.test", password: PASSWORD },
        headers: clientHeaders(),
        returnHeaders: true,
      });
      const reusedRecovery = await rejection(
        getAuth().api.verifyBackupCode({
          body: { code: recovery },
          headers: clientHeaders({ cookie: cookieHeader(again.headers) }),
        }),
      );
      expect(reusedRecovery.code).toBe("INVALID_BACKUP_CODE");
    });
  });

  describe("roles", () => {
    it("changes roles with an audit row and never demotes the last admin", async () => {
      const a = await upsertUserWithPassword({
        email: "only.admin@example.test",
        name: "Only Admin",
        password: PASSWORD,
        role: "user",
      });
      // Demote every other admin first so this one is the last.
      await db.db.update(user).set({ role: "user" }).where(eq(user.role, "admin"));
      const request = new Request("http://localhost/admin/users", { method: "POST" });
      expect(await setUserRole(request, { actorId: a.id, userId: a.id, role: "admin" })).toBe(
        "user",
      );
      await expect(
        setUserRole(request, { actorId: a.id, userId: a.id, role: "editor" }),
      ).rejects.toThrow("The last admin cannot be demoted.");
      const rows = await db.db.select().from(auditLog);
      expect(rows.some((r) => r.action === "user.role_change" && r.entityId === a.id)).toBe(true);
    });
  });

  describe("cookies", () => {
    it("are HttpOnly and SameSite=Lax; under https also Secure with the __Host- prefix", async () => {
      await upsertUserWithPassword({
        email: "cookies@example.test",
        name: "Cookie Person",
        password: PASSWORD,
        role: "user",
      });
      const signIn = () =>
        getAuth().api.signInEmail({
          body: { email: "cookies@example.test", password: PASSWORD },
          headers: clientHeaders(),
          returnHeaders: true,
        });
      const plain = (await signIn()).headers.getSetCookie();
      const session = plain.find((c) => c.startsWith("kongamano.session_token="));
      expect(session).toMatch(/HttpOnly/i);
      expect(session).toMatch(/SameSite=Lax/i);
      expect(session).not.toMatch(/Secure/i);

      const httpEnv = env();
      setEnv(parseEnv({ ...process.env, ...pick(httpEnv), BASE_URL: "https://kongamano.test" }));
      try {
        const secure = (await signIn()).headers.getSetCookie();
        const hostCookie = secure.find((c) => c.startsWith("__Host-kongamano.session_token="));
        expect(hostCookie).toMatch(/; Secure/i);
        expect(hostCookie).toMatch(/HttpOnly/i);
        expect(hostCookie).toMatch(/SameSite=Lax/i);
        expect(hostCookie).toMatch(/Path=\//);
        expect(hostCookie).not.toMatch(/Domain=/i);
      } finally {
        setEnv(httpEnv);
      }
    });
  });

  describe("appendSetCookies", () => {
    it("keeps each cookie as its own header", () => {
      const source = new Headers();
      source.append("Set-Cookie", "a=1; Path=/");
      source.append("Set-Cookie", "b=2; Path=/");
      expect(appendSetCookies(new Headers(), source).getSetCookie()).toEqual([
        "a=1; Path=/",
        "b=2; Path=/",
      ]);
    });
  });

  function pick(e: ReturnType<typeof env>) {
    return {
      NODE_ENV: e.NODE_ENV,
      DATA_DIR: e.DATA_DIR,
      SESSION_SECRET: e.SESSION_SECRET,
      LOG_LEVEL: e.LOG_LEVEL,
      SMTP_URL: e.SMTP_URL,
    };
  }
});
