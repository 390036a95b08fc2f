import { spawn } from "node:child_process";
import { eq, like } from "drizzle-orm";
import { TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, rateLimit, user, verification } from "~/db/schema";
import { useTestDatabase } from "../../tests/helpers/db";
import { startTestSmtp } from "../../tests/helpers/smtp";
import * as authRoute from "../routes/api/auth";
import {
  ARGON2_OPTIONS,
  appendSetCookies,
  authErrorCode,
  authErrorMessage,
  authErrorStatus,
  CLIENT_IP_HEADER,
  getAuth,
  hashPassword,
  SIGN_IN_BRAKE,
  safeRedirectPath,
  setUserRole,
  signInDelayMs,
  upsertUserWithPassword,
  verifyPassword,
} from "./auth.server";
import { COMMON_PASSWORD_MESSAGE } from "./common-passwords.server";
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

    it("answers sign-in for an unverified account exactly like a wrong password (no enumeration)", async () => {
      // Someone signs up with an address that has an account, then signs in with that password:
      // the answer must not differ from the one for a genuinely new, unverified account.
      await getAuth().api.signUpEmail({
        body: { email: "new.member@example.test", password: "Probe-Pass-4711", name: "Probe" },
        headers: clientHeaders(),
      });
      await getAuth().api.signUpEmail({
        body: { email: "brand.new@example.test", password: "Probe-Pass-4711", name: "Probe" },
        headers: clientHeaders(),
      });
      const existing = await rejection(
        getAuth().api.signInEmail({
          body: { email: "new.member@example.test", password: "Probe-Pass-4711" },
          headers: clientHeaders(),
        }),
      );
      const created = await rejection(
        getAuth().api.signInEmail({
          body: { email: "brand.new@example.test", password: "Probe-Pass-4711" },
          headers: clientHeaders(),
        }),
      );
      for (const answer of [existing, created]) {
        expect(answer.status).toBe(401);
        expect(answer.code).toBe("INVALID_EMAIL_OR_PASSWORD");
      }
      expect((created.error as Error).message).toBe((existing.error as Error).message);
      // Through HTTP too: same status and body.
      const viaHttp = async (email: string) => {
        const response = await authRoute.action({
          request: new Request(`${env().BASE_URL}/api/auth/sign-in/email`, {
            method: "POST",
            headers: clientHeaders({ "content-type": "application/json", origin: env().BASE_URL }),
            body: JSON.stringify({ email, password: "Probe-Pass-4711" }),
          }),
        } as Parameters<typeof authRoute.action>[0]);
        return { status: response.status, body: await response.text() };
      };
      expect(await viaHttp("brand.new@example.test")).toEqual(
        await viaHttp("new.member@example.test"),
      );
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
    it("never locks the owner out: a client failing in a loop is refused, the owner signs in every time", async () => {
      await upsertUserWithPassword({
        email: "target@example.test",
        name: "Target",
        password: PASSWORD,
        role: "user",
      });
      const attacker = clientHeaders();
      const owner = clientHeaders();
      const guess = () =>
        rejection(
          getAuth().api.signInEmail({
            body: { email: "target@example.test", password: "guess-guess-guess" },
            headers: attacker,
          }),
        );
      const statuses: number[] = [];
      for (let round = 0; round < 6; round++) {
        statuses.push((await guess()).status);
        const signedIn = await getAuth().api.signInEmail({
          body: { email: "target@example.test", password: PASSWORD },
          headers: owner,
        });
        expect(signedIn.user.email).toBe("target@example.test");
      }
      // The attacker's client is braked (per client, and per account and client) ...
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses.slice(3)).toEqual([429, 429, 429]);
    });

    it("refuses a client after five failures for one account, and slows the account down for everyone", async () => {
      await upsertUserWithPassword({
        email: "spread@example.test",
        name: "Spread",
        password: PASSWORD,
        role: "user",
      });
      const attacker = clientHeaders();
      const attempt = (headers: Headers, password = "guess-guess-guess") =>
        getAuth().api.signInEmail({ body: { email: "spread@example.test", password }, headers });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        // Past the per-client window (3 per 10 s): only the per-account-and-client rule is left.
        await db.db.delete(rateLimit).where(like(rateLimit.key, "auth:sign-in:client:%"));
        statuses.push((await rejection(attempt(attacker))).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      // Five failures for the account: another client waits (5 - 3) × 500 ms, then signs in.
      expect(signInDelayMs(5)).toBe(1000);
      expect(signInDelayMs(100)).toBe(SIGN_IN_BRAKE.perAccount.maxDelayMs);
      const started = Date.now();
      const signedIn = await attempt(clientHeaders(), PASSWORD);
      expect(signedIn.user.email).toBe("spread@example.test");
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
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
        const headers = clientHeaders();
        const attempt = () =>
          getAuth().api.signInEmail({ body: { email, password: "guess-guess-guess" }, headers });
        for (let i = 0; i < 3; i++) expect((await rejection(attempt())).status).toBe(401);
        expect((await rejection(attempt())).status).toBe(429);
        const keys = await redis.keys("ratelimit:auth:sign-in:*");
        expect(keys.some((k) => k.startsWith("ratelimit:auth:sign-in:account:"))).toBe(true);
        expect(keys.some((k) => k.startsWith("ratelimit:auth:sign-in:account-client:"))).toBe(true);
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

  describe("newer reset links end older ones", () => {
    async function resetLink(email: string) {
      const before = smtp.messages.length;
      await getAuth().api.requestPasswordReset({
        body: { email, redirectTo: "/auth/reset-password" },
        headers: clientHeaders(),
      });
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        const mail = smtp.messages
          .slice(before)
          .find((m) => m.to.includes(email) && /Reset/.test(m.subject));
        if (mail) {
          const callback = await getAuth().handler(
            new Request(linkIn(mail.text), { headers: clientHeaders() }),
          );
          const location = new URL(callback.headers.get("location") ?? "", env().BASE_URL);
          return location.searchParams.get("token") ?? "";
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error("no reset mail");
    }
    const reset = (token: string, newPassword: string) =>
      getAuth().api.resetPassword({ body: { token, newPassword }, headers: clientHeaders() });

    it("a newer reset link and a successful reset end the older links", async () => {
      await upsertUserWithPassword({
        email: "links@example.test",
        name: "Links",
        password: PASSWORD,
        role: "user",
      });
      const first = await resetLink("links@example.test");
      const second = await resetLink("links@example.test");
      expect((await rejection(reset(first, "First-Link-Pass-1"))).code).toBe("INVALID_TOKEN");
      const third = await resetLink("links@example.test");
      // A link minted by better-auth directly (no mail) stands for any other outstanding link.
      await db.db.insert(verification).values({
        id: crypto.randomUUID(),
        identifier: "reset-password:outstanding-token",
        value: (await db.db.select().from(user).where(eq(user.email, "links@example.test")))[0].id,
        expiresAt: new Date(Date.now() + 60_000),
      });
      expect((await rejection(reset(second, "Second-Link-Pass-2"))).code).toBe("INVALID_TOKEN");
      await reset(third, "Third-Link-Pass-3");
      expect((await rejection(reset("outstanding-token", "Late-Link-Pass-4"))).code).toBe(
        "INVALID_TOKEN",
      );
    });
  });

  describe("common passwords", () => {
    it("are refused on sign-up, reset and change with the same message; the e-mail itself too", async () => {
      const signUp = await rejection(
        getAuth().api.signUpEmail({
          body: { email: "common@example.test", password: "Password123", name: "Common" },
          headers: clientHeaders(),
        }),
      );
      expect(signUp).toMatchObject({ status: 400, code: "PASSWORD_TOO_COMMON" });
      expect(authErrorMessage(signUp.error)).toBe(COMMON_PASSWORD_MESSAGE);
      const ownAddress = await rejection(
        getAuth().api.signUpEmail({
          body: { email: "jane.doe1990@example.test", password: "jane.doe1990", name: "Jane" },
          headers: clientHeaders(),
        }),
      );
      expect(ownAddress.code).toBe("PASSWORD_TOO_COMMON");
      const rows = await db.db.select().from(user).where(eq(user.email, "common@example.test"));
      expect(rows).toEqual([]);

      const cookies = await signUpAndVerify("changer@example.test", "Changer");
      const change = await rejection(
        getAuth().api.changePassword({
          body: { currentPassword: PASSWORD, newPassword: "qwertyuiop" },
          headers: new Headers({ cookie: cookies, [CLIENT_IP_HEADER]: "198.51.100.7" }),
        }),
      );
      expect(change.code).toBe("PASSWORD_TOO_COMMON");
      const resetToo = await rejection(
        getAuth().api.resetPassword({
          body: { token: "whatever", newPassword: "iloveyou1" },
          headers: clientHeaders(),
        }),
      );
      expect(resetToo.code).toBe("PASSWORD_TOO_COMMON");
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
      // One code, kept: generating it again may fall in the next 30-second window.
      const code = totp.generate();
      const confirmed = await getAuth().api.verifyTOTP({
        body: { code },
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
          body: { code },
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
