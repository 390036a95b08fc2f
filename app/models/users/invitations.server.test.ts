import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditLog, invitations, session, user } from "~/db/schema";
import { COMMON_PASSWORD_MESSAGE } from "~/lib/common-passwords.server";
import { env, parseEnv, setEnv } from "~/lib/env.server";
import { sendMail } from "~/lib/mail.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { startTestSmtp } from "../../../tests/helpers/smtp";
import {
  acceptInvitation,
  createInvitation,
  findInvitation,
  hashInvitationToken,
  INVITATION_TTL_MS,
  listPendingInvitations,
  revokeInvitation,
} from "./invitations.server";

const PASSWORD = "Correct-horse-42";

describe("invitations", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let adminId: string;
  const request = () =>
    new Request("http://localhost:3000/admin/security?tab=users", {
      method: "POST",
      headers: { "user-agent": "vitest" },
    });

  beforeAll(async () => {
    smtp = await startTestSmtp();
    setEnv(parseEnv({ ...process.env, ...envOf(env()), SMTP_URL: smtp.url }));
  });
  afterAll(async () => {
    await smtp.close();
  });
  beforeEach(async () => {
    smtp.messages.length = 0;
    await database.db.delete(auditLog);
    await database.db.delete(invitations);
    await database.db.delete(user);
    adminId = randomUUID();
    await database.db
      .insert(user)
      .values({ id: adminId, name: "Amina Admin", email: "amina@example.com", role: "admin" });
  });

  async function invite(email: string, role: "user" | "editor" | "admin" = "editor") {
    const result = await createInvitation(request(), {
      email,
      role,
      invitedBy: adminId,
      inviterName: "Amina Admin",
    });
    if (!result.ok) throw new Error(`invitation failed: ${result.reason}`);
    const mail = await smtp.waitFor(email.toLowerCase());
    const token = mail.text.match(/\/invite\/([A-Za-z0-9_-]+)/)?.[1];
    if (!token) throw new Error("no link in the invitation mail");
    return { id: result.id, token, mail };
  }

  it("stores only the token's hash, expires in 7 days and mails a one-time link", async () => {
    const before = Date.now();
    const { id, token, mail } = await invite("New.Person@Example.com", "editor");
    expect(mail.subject).toBe("You're invited to join Kongamano");
    expect(mail.text).toContain(`http://localhost:3000/invite/${token}`);
    expect(mail.text).toContain("as an Editor");
    // The same link is the HTML part's one button; the inviter's name is escaped text.
    expect(mail.html).toContain(
      `<a href="http://localhost:3000/invite/${token}" style="display:inline-block`,
    );
    expect(mail.html).toContain("Amina Admin has invited you to join Kongamano as an Editor.");
    expect(mail.headers["auto-submitted"]).toBe("auto-generated");
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    const [row] = await database.db.select().from(invitations).where(eq(invitations.id, id));
    expect(row.email).toBe("new.person@example.com");
    expect(row.role).toBe("editor");
    expect(row.tokenHash).toBe(hashInvitationToken(token));
    expect(row.tokenHash).not.toContain(token);
    const ttl = row.expiresAt.getTime() - before;
    expect(ttl).toBeGreaterThanOrEqual(INVITATION_TTL_MS - 1000);
    expect(ttl).toBeLessThanOrEqual(INVITATION_TTL_MS + 5000);
    const audit = await database.db.select().from(auditLog);
    expect(audit).toMatchObject([
      { action: "invitation.create", actorId: adminId, entityId: id, details: { role: "editor" } },
    ]);
    expect(await listPendingInvitations()).toMatchObject([
      { id, email: "new.person@example.com", role: "editor", expired: false },
    ]);
  });

  it("replaces a pending invitation for the same address", async () => {
    const first = await invite("twice@example.com");
    smtp.messages.length = 0;
    const second = await invite("twice@example.com", "user");
    expect(await findInvitation(first.token)).toEqual({ state: "revoked" });
    expect(await findInvitation(second.token)).toEqual({
      state: "valid",
      email: "twice@example.com",
      role: "user",
    });
    const pending = await listPendingInvitations();
    expect(pending.map((p) => p.id)).toEqual([second.id]);
    const actions = (await database.db.select().from(auditLog)).map((a) => a.action).sort();
    expect(actions).toEqual(["invitation.create", "invitation.create", "invitation.revoke"]);
  });

  it("refuses an address that already has an account", async () => {
    const result = await createInvitation(request(), {
      email: "AMINA@example.com",
      role: "user",
      invitedBy: adminId,
      inviterName: "Amina Admin",
    });
    expect(result).toEqual({ ok: false, reason: "user_exists" });
    expect(smtp.messages).toEqual([]);
  });

  it("leaves nothing pending when the mail cannot be sent", async () => {
    const working = env();
    setEnv({ ...working, SMTP_URL: "smtp://127.0.0.1:1" });
    try {
      const result = await createInvitation(request(), {
        email: "unlucky@example.com",
        role: "user",
        invitedBy: adminId,
        inviterName: "Amina Admin",
      });
      expect(result).toEqual({ ok: false, reason: "send_failed" });
    } finally {
      setEnv(working);
    }
    expect(await database.db.select().from(invitations)).toEqual([]);
  });

  it("accepts once: creates a verified account with the invited role and signs it in", async () => {
    const { id, token } = await invite("welcome@example.com", "editor");
    const result = await acceptInvitation(request(), {
      token,
      name: "Wel Come",
      password: PASSWORD,
    });
    expect(result).toMatchObject({ ok: true, role: "editor" });
    if (!result.ok) return;
    const [created] = await database.db.select().from(user).where(eq(user.id, result.userId));
    expect(created).toMatchObject({
      name: "Wel Come",
      email: "welcome@example.com",
      role: "editor",
      emailVerified: true,
    });
    const cookies = result.headers?.getSetCookie() ?? [];
    expect(cookies.some((c) => /session_token=/.test(c))).toBe(true);
    const sessions = await database.db.select().from(session).where(eq(session.userId, created.id));
    expect(sessions).toHaveLength(1);
    const [row] = await database.db.select().from(invitations).where(eq(invitations.id, id));
    expect(row.acceptedAt).toBeInstanceOf(Date);
    // No "verify your e-mail" mail follows: the invitation link already proved the address.
    // better-auth sends its mails as background tasks started during the call; a mail sent
    // after it returns and received is the sign that they have been delivered too.
    await sendMail({ to: "marker@example.com", subject: "Marker", text: "after accepting" });
    await smtp.waitFor("marker@example.com");
    expect(smtp.messages.map((m) => m.subject)).toEqual([
      "You're invited to join Kongamano",
      "Marker",
    ]);
    const audit = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "invitation.accepted"));
    expect(audit).toMatchObject([
      { actorId: created.id, entityId: id, details: { role: "editor" } },
    ]);

    const again = await acceptInvitation(request(), { token, name: "Again", password: PASSWORD });
    expect(again).toEqual({ ok: false, state: "accepted" });
    expect(await findInvitation(token)).toEqual({ state: "accepted" });
  });

  it("creates one account when the same link is submitted twice at once", async () => {
    const { token } = await invite("double@example.com", "user");
    const results = await Promise.all([
      acceptInvitation(request(), { token, name: "Double", password: PASSWORD }),
      acceptInvitation(request(), { token, name: "Double", password: PASSWORD }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const accounts = await database.db
      .select()
      .from(user)
      .where(eq(user.email, "double@example.com"));
    expect(accounts).toHaveLength(1);
  });

  it("refuses expired, revoked and unknown links", async () => {
    const expired = await invite("late@example.com");
    await database.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, expired.id));
    expect(await findInvitation(expired.token)).toEqual({ state: "expired" });
    expect(
      await acceptInvitation(request(), { token: expired.token, name: "Late", password: PASSWORD }),
    ).toEqual({ ok: false, state: "expired" });

    const revoked = await invite("gone@example.com");
    expect(await revokeInvitation(request(), revoked.id, adminId)).toBe(true);
    expect(await revokeInvitation(request(), revoked.id, adminId)).toBe(false);
    expect(
      await acceptInvitation(request(), { token: revoked.token, name: "Gone", password: PASSWORD }),
    ).toEqual({ ok: false, state: "revoked" });

    expect(await findInvitation("not-a-token")).toEqual({ state: "invalid" });
    expect(await findInvitation("A".repeat(43))).toEqual({ state: "invalid" });
    const accounts = await database.db.select({ email: user.email }).from(user);
    expect(accounts.map((a) => a.email)).toEqual(["amina@example.com"]);
  });

  it("releases the claim when the account cannot be created, so a retry works", async () => {
    const { token } = await invite("retry@example.com", "user");
    // Someone signed up with the address in the meantime.
    await database.db
      .insert(user)
      .values({ id: randomUUID(), name: "Squatter", email: "retry@example.com" });
    const blocked = await acceptInvitation(request(), { token, name: "Retry", password: PASSWORD });
    expect(blocked).toEqual({
      ok: false,
      state: "valid",
      error: "An account with this email already exists. Please sign in instead.",
    });
    expect(await findInvitation(token)).toMatchObject({ state: "valid" });
  });

  it("refuses a common password and keeps the link usable", async () => {
    const { token } = await invite("common.pw@example.com", "editor");
    const refused = await acceptInvitation(request(), {
      token,
      name: "Common",
      password: "password123",
    });
    expect(refused).toEqual({ ok: false, state: "valid", error: COMMON_PASSWORD_MESSAGE });
    expect(await findInvitation(token)).toMatchObject({ state: "valid" });
    const rows = await database.db
      .select()
      .from(user)
      .where(eq(user.email, "common.pw@example.com"));
    expect(rows).toEqual([]);
  });
});

function envOf(config: ReturnType<typeof env>): Record<string, string> {
  return {
    NODE_ENV: config.NODE_ENV,
    DATA_DIR: config.DATA_DIR,
    BASE_URL: config.BASE_URL,
    SESSION_SECRET: config.SESSION_SECRET,
    LOG_LEVEL: config.LOG_LEVEL,
  };
}
