import { eq, sql } from "drizzle-orm";
import { TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProfileActionData } from "~/components/profile-shared";
import { queryRows } from "~/db/client.server";
import { auditLog, contactMessages, user } from "~/db/schema";
import { recordAudit } from "~/lib/audit.server";
import { CLIENT_IP_HEADER, getAuth, upsertUserWithPassword } from "~/lib/auth.server";
import { COMMON_PASSWORD_MESSAGE } from "~/lib/common-passwords.server";
import { env, setEnv } from "~/lib/env.server";
import { getToast } from "~/lib/toast.server";
import { loader as authApiLoader } from "~/routes/api/auth";
import { useTestDatabase } from "../../../tests/helpers/db";
import { startTestSmtp } from "../../../tests/helpers/smtp";
import { action } from "./profile";

const PASSWORD = "Profile-Pass-2026";
const ORIGIN = "http://localhost:3000";
let ip = 1;

function cookieOf(headers: Headers) {
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

async function signInAs(email: string, password = PASSWORD) {
  const res = await getAuth().api.signInEmail({
    body: { email, password },
    headers: new Headers({ [CLIENT_IP_HEADER]: `198.51.100.${ip++}` }),
    returnHeaders: true,
  });
  return cookieOf(res.headers);
}

type Answer = { status: number; data?: ProfileActionData; headers: Headers };

async function post(cookie: string, fields: Record<string, string>): Promise<Answer> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const request = new Request(`${ORIGIN}/profile`, {
    method: "POST",
    body: form,
    headers: { cookie, [CLIENT_IP_HEADER]: `198.51.100.${ip++}`, "user-agent": "vitest" },
  });
  const result = (await action({ request, params: {}, context: {} } as never)) as unknown;
  if (result instanceof Response) return { status: result.status, headers: result.headers };
  const wrapped = result as { data: ProfileActionData; init?: ResponseInit };
  return {
    status: wrapped.init?.status ?? 200,
    data: wrapped.data,
    headers: new Headers(wrapped.init?.headers),
  };
}

function errorsOf(answer: Answer) {
  const result = answer.data?.result as { error?: Record<string, string[] | null> } | undefined;
  return result?.error ?? {};
}

describe("/profile actions", () => {
  const database = useTestDatabase();
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

  it("updates the full name ('Profile updated')", async () => {
    await upsertUserWithPassword({
      email: "name@example.test",
      name: "Old Name",
      password: PASSWORD,
      role: "user",
    });
    const cookie = await signInAs("name@example.test");
    const answer = await post(cookie, {
      intent: "update-profile",
      fullName: "New Name",
      email: "name@example.test",
    });
    expect(answer.data?.toast?.title).toBe("Profile updated");
    const [row] = await database.db.select().from(user).where(eq(user.email, "name@example.test"));
    expect(row.name).toBe("New Name");
  });

  it("changes the e-mail only once the new address is verified", async () => {
    await upsertUserWithPassword({
      email: "before@example.test",
      name: "Mover",
      password: PASSWORD,
      role: "user",
    });
    const cookie = await signInAs("before@example.test");
    const answer = await post(cookie, {
      intent: "update-profile",
      fullName: "Mover",
      email: "after@example.test",
    });
    expect(answer.data?.emailChangePendingFor).toBe("after@example.test");
    const [pending] = await database.db.select().from(user).where(eq(user.name, "Mover"));
    expect(pending.email).toBe("before@example.test");
    await smtp.waitFor("before@example.test", /being changed/);
    const mail = await smtp.waitFor("after@example.test", /Verify/);
    const link = mail.text.match(/https?:\/\/\S+/)?.[0] ?? "";
    const response = (await authApiLoader({
      request: new Request(link, { headers: { cookie } }),
      params: {},
      context: {},
    } as never)) as Response;
    expect(response.headers.get("location")).toBe("/profile");
    const { toast } = await getToast(
      new Request(ORIGIN, { headers: { cookie: cookieOf(response.headers) } }),
    );
    expect(toast?.title).toBe("Email updated");
    const [moved] = await database.db.select().from(user).where(eq(user.name, "Mover"));
    expect(moved).toMatchObject({ email: "after@example.test", emailVerified: true });
  });

  it("checks the password change with the spec's messages and the server minimum", async () => {
    await upsertUserWithPassword({
      email: "pw@example.test",
      name: "Pw",
      password: PASSWORD,
      role: "user",
    });
    const cookie = await signInAs("pw@example.test");
    const change = (fields: Record<string, string>) =>
      post(cookie, { intent: "change-password", currentPassword: PASSWORD, ...fields });

    const mismatch = await change({ newPassword: "abcdefgh1", confirmPassword: "abcdefgh2" });
    expect(errorsOf(mismatch).confirmPassword).toEqual(["Passwords do not match."]);
    const tooShort = await change({ newPassword: "abc12", confirmPassword: "abc12" });
    expect(errorsOf(tooShort).newPassword).toEqual([
      "Password must be at least 6 characters long.",
    ]);
    const belowServerMinimum = await change({ newPassword: "kqz7vw1", confirmPassword: "kqz7vw1" });
    expect(errorsOf(belowServerMinimum).newPassword).toEqual([
      "Password must be at least 8 characters long.",
    ]);
    const common = await change({ newPassword: "Password123", confirmPassword: "Password123" });
    expect(common.status).toBe(400);
    expect(errorsOf(common).newPassword).toEqual([COMMON_PASSWORD_MESSAGE]);
    const wrongCurrent = await post(cookie, {
      intent: "change-password",
      currentPassword: "not-my-password",
      newPassword: "Brand-New-2026",
      confirmPassword: "Brand-New-2026",
    });
    expect(errorsOf(wrongCurrent).currentPassword).toEqual(["The current password is incorrect."]);
    const ok = await change({ newPassword: "Brand-New-2026", confirmPassword: "Brand-New-2026" });
    expect(ok.data?.toast?.title).toBe("Password updated");
    expect(await signInAs("pw@example.test", "Brand-New-2026")).toContain("session_token");
    const audit = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "auth.password_change"));
    expect(audit).toHaveLength(1);
  });

  it("deletes the account for real: no row keeps the e-mail, the audit trail keeps the events", async () => {
    const email = "leaver@example.test";
    const { id } = await upsertUserWithPassword({
      email,
      name: "Leaver Person",
      password: PASSWORD,
      role: "user",
    });
    const cookie = await signInAs(email);
    // Personal data elsewhere: a contact message and an audit row mentioning the address.
    await database.db.insert(contactMessages).values({
      name: "Leaver Person",
      email,
      subject: "Hello",
      message: "Please call me",
    });
    await recordAudit(null, {
      action: "test.mention",
      actorId: id,
      details: { note: `contacted ${email.toUpperCase()}` },
    });
    await expect(
      getAuth().api.signInEmail({
        body: { email, password: "wrong-password-1" },
        headers: new Headers({ [CLIENT_IP_HEADER]: "198.51.100.250" }),
      }),
    ).rejects.toThrow();

    const wrong = await post(cookie, { intent: "delete-account", password: "not-it-at-all" });
    expect(wrong.data?.toast?.title).toBe("Failed to initiate account deletion.");

    const deleted = await post(cookie, { intent: "delete-account", password: PASSWORD });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("location")).toBe("/");
    const { toast } = await getToast(
      new Request(ORIGIN, { headers: { cookie: cookieOf(deleted.headers) } }),
    );
    expect(toast).toMatchObject({
      title: "Account deleted",
      description: "Your account has been deleted.",
    });
    // The session cookie is expired on the response.
    expect(deleted.headers.getSetCookie().some((c) => /session_token=;/.test(c))).toBe(true);

    const columns = await queryRows<{ table_name: string; column_name: string }>(
      sql`select table_name, column_name from information_schema.columns
          where table_schema = 'public'
            and data_type in ('text', 'character varying', 'jsonb', 'ARRAY')`,
    );
    const found: string[] = [];
    for (const c of columns) {
      const [row] = await queryRows<{ n: number }>(
        sql`select count(*)::int as n from ${sql.identifier(c.table_name)}
            where position(${email} in lower(${sql.identifier(c.column_name)}::text)) > 0`,
      );
      if (row.n > 0) found.push(`${c.table_name}.${c.column_name}`);
    }
    expect(found).toEqual([]);
    expect(await database.db.select().from(user).where(eq(user.id, id))).toEqual([]);

    const trail = await database.db.select().from(auditLog);
    expect(trail.some((r) => r.action === "auth.account_deleted" && r.entityId === id)).toBe(true);
    const failed = trail.filter(
      (r) => r.action === "auth.sign_in_failed" && r.ip === "198.51.100.250",
    );
    expect(failed).toHaveLength(1);
    expect(failed[0].actorEmail).toBeNull();
    const mention = trail.find((r) => r.action === "test.mention");
    expect(mention?.actorId).toBeNull();
    expect(JSON.stringify(mention?.details)).toContain("[deleted account]");
  });

  it("turns two-factor on and off only with an audit row for each change", async () => {
    await upsertUserWithPassword({
      email: "tf@example.test",
      name: "Tf",
      password: PASSWORD,
      role: "user",
    });
    let cookie = await signInAs("tf@example.test");
    const rows = async () =>
      (
        await database.db
          .select({ action: auditLog.action })
          .from(auditLog)
          .where(sql`${auditLog.action} like 'auth.two_factor_%'`)
      ).map((r) => r.action);

    // A wrong password or a wrong code changes nothing and writes nothing.
    const wrongPassword = await post(cookie, { intent: "enable-2fa", password: "not-it-2026" });
    expect(wrongPassword.status).toBe(400);
    const started = await post(cookie, { intent: "enable-2fa", password: PASSWORD });
    const setup = started.data?.twoFactorSetup;
    expect(setup?.secret).toBeTruthy();
    const totp = new TOTP({ secret: setup!.secret });
    const wrongCode = String((Number(totp.generate()) + 1) % 1_000_000).padStart(6, "0");
    expect((await post(cookie, { intent: "confirm-2fa", code: wrongCode })).status).toBe(400);
    expect(await rows()).toEqual([]);

    const confirmed = await post(cookie, { intent: "confirm-2fa", code: totp.generate() });
    expect(confirmed.data?.toast?.title).toBe("Two-factor authentication is on");
    expect(confirmed.data?.recoveryCodes?.length).toBeGreaterThan(0);
    cookie = cookieOf(confirmed.headers) || cookie;
    expect(await rows()).toEqual(["auth.two_factor_enabled"]);

    const disabled = await post(cookie, { intent: "disable-2fa", password: PASSWORD });
    expect(disabled.data?.toast?.title).toBe("Two-factor authentication is off");
    const [stored] = await database.db
      .select({ on: user.twoFactorEnabled })
      .from(user)
      .where(eq(user.email, "tf@example.test"));
    expect(stored.on).toBe(false);
    expect((await rows()).sort()).toEqual(["auth.two_factor_disabled", "auth.two_factor_enabled"]);
  });

  it("keeps the last admin", async () => {
    await database.db.update(user).set({ role: "user" }).where(eq(user.role, "admin"));
    await upsertUserWithPassword({
      email: "last.admin@example.test",
      name: "Last Admin",
      password: PASSWORD,
      role: "admin",
    });
    const cookie = await signInAs("last.admin@example.test");
    const refused = await post(cookie, { intent: "delete-account", password: PASSWORD });
    expect(refused.status).toBe(409);
    expect(refused.data?.toast?.title).toBe("Failed to initiate account deletion.");
    const rows = await database.db
      .select()
      .from(user)
      .where(eq(user.email, "last.admin@example.test"));
    expect(rows).toHaveLength(1);
  });
});
