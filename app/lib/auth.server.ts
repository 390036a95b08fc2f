import { createHash } from "node:crypto";
import { type Algorithm, hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { verifyPassword as verifyLegacyScrypt } from "better-auth/crypto";
import { createAccessControl } from "better-auth/plugins/access";
import { admin } from "better-auth/plugins/admin";
import { adminAc, defaultStatements } from "better-auth/plugins/admin/access";
import { twoFactor } from "better-auth/plugins/two-factor";
import { and, count, eq, sql } from "drizzle-orm";
import { getDatabaseHandle, getDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { recordAudit } from "./audit.server";
import { type Env, env } from "./env.server";
import { logger } from "./logger.server";
import { escapeHtml, sendMail } from "./mail.server";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-strength";
import { getRedis, hitRateLimit } from "./rate-limit.server";
import { isRole, normaliseRole, type Role } from "./roles";

/** Header the Express layer sets to the client address it trusts (socket, or TRUST_PROXY). */
export const CLIENT_IP_HEADER = "x-kongamano-client-ip";

// ---------------------------------------------------------------------------------------------
// Passwords: argon2id at OWASP ASVS 5.0 / RFC 9106 parameters (better-auth's default scrypt
// parameters are below ASVS Appendix C). Minimum length 8 (NIST SP 800-63B), maximum 128.
// ---------------------------------------------------------------------------------------------
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH };

const ARGON2ID = 2 as Algorithm; // Algorithm.Argon2id (a const enum we cannot import at runtime)
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456, // KiB = 19 MiB
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string) {
  return argon2Hash(password, ARGON2_OPTIONS);
}

/** Verifies argon2id hashes; hashes in better-auth's scrypt format (if any exist) still verify. */
export async function verifyPassword({ hash, password }: { hash: string; password: string }) {
  try {
    if (hash.startsWith("$argon2")) return await argon2Verify(hash, password);
    return await verifyLegacyScrypt({ hash, password });
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Rate limits on sign-in, sign-up, password reset and verification mail (design.md §3): at most
// 3 attempts per 10 s per client address AND per account (normalised e-mail). Counters live in
// PostgreSQL (rate_limit) or in Redis when REDIS_URL is set (hitRateLimit). The client address is
// the one the Express layer trusts (CLIENT_IP_HEADER), so a forged X-Forwarded-For buys nothing.
// Per account, sign-in counts failed attempts only (NIST SP 800-63B §5.2.2): people who type the
// right password are never locked out by someone else guessing theirs from elsewhere.
// ---------------------------------------------------------------------------------------------
export const AUTH_RATE_LIMIT = { max: 3, windowMs: 10_000 } as const;

type LimitRule = { group: string; max: number; perAccount: "every-attempt" | "failures" | false };
const LIMITED_PATHS: Record<string, LimitRule> = {
  "/sign-in/email": { group: "sign-in", max: AUTH_RATE_LIMIT.max, perAccount: "failures" },
  "/sign-up/email": { group: "sign-up", max: AUTH_RATE_LIMIT.max, perAccount: "every-attempt" },
  "/request-password-reset": {
    group: "password-reset-mail",
    max: AUTH_RATE_LIMIT.max,
    perAccount: "every-attempt",
  },
  "/reset-password": { group: "password-reset", max: AUTH_RATE_LIMIT.max, perAccount: false },
  "/send-verification-email": {
    group: "verification-mail",
    max: AUTH_RATE_LIMIT.max,
    perAccount: "every-attempt",
  },
  // Signed-in operations that check the password: a stolen session cannot guess it quickly.
  "/change-password": { group: "password-check", max: 5, perAccount: false },
  "/delete-user": { group: "password-check", max: 5, perAccount: false },
  "/two-factor/enable": { group: "password-check", max: 5, perAccount: false },
  "/two-factor/disable": { group: "password-check", max: 5, perAccount: false },
  "/two-factor/generate-backup-codes": { group: "password-check", max: 5, perAccount: false },
  // Second factor: a little more room for typos; better-auth also locks the account after 10.
  "/two-factor/verify-totp": { group: "two-factor", max: 5, perAccount: false },
  "/two-factor/verify-backup-code": { group: "two-factor", max: 5, perAccount: false },
};

export function tooManyAttemptsMessage(seconds: number) {
  return `Too many attempts. Please wait ${seconds} ${seconds === 1 ? "second" : "seconds"} and try again.`;
}

export function normaliseEmail(value: unknown) {
  return typeof value === "string" ? value.trim().toLowerCase() : "";
}

/** Rate-limit keys never hold the e-mail itself (account deletion leaves no trace of it). */
function accountKey(group: string, email: string) {
  return `auth:${group}:account:${createHash("sha256").update(email).digest("hex").slice(0, 40)}`;
}

/** Reads a counter without counting: { blocked, retryAfterSeconds }. */
async function peekRateLimit(key: string, { max, windowMs }: { max: number; windowMs: number }) {
  const redisUrl = env().REDIS_URL;
  if (redisUrl) {
    const redis = getRedis(redisUrl);
    const [value, ttl] = await Promise.all([
      redis.get(`ratelimit:${key}`),
      redis.pttl(`ratelimit:${key}`),
    ]);
    const blocked = Number(value ?? 0) >= max && ttl > 0;
    return { blocked, retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
  }
  const now = Date.now();
  const [row] = await getDb()
    .select({ count: schema.rateLimit.count, lastRequest: schema.rateLimit.lastRequest })
    .from(schema.rateLimit)
    .where(eq(schema.rateLimit.key, key));
  const inWindow = row && row.lastRequest >= now - windowMs;
  return {
    blocked: Boolean(inWindow && row.count >= max),
    retryAfterSeconds: row ? Math.max(1, Math.ceil((row.lastRequest + windowMs - now) / 1000)) : 0,
  };
}

function tooManyAttempts(retryAfterSeconds: number) {
  return new APIError(
    "TOO_MANY_REQUESTS",
    { message: tooManyAttemptsMessage(retryAfterSeconds), code: "TOO_MANY_ATTEMPTS" },
    { "Retry-After": String(retryAfterSeconds) },
  );
}

/** A minimal request carrying what recordAudit reads (client address, user agent). */
function auditRequest(headers: Headers | undefined) {
  const h = new Headers();
  const ip = headers?.get(CLIENT_IP_HEADER);
  const ua = headers?.get("user-agent");
  if (ip) h.set(CLIENT_IP_HEADER, ip);
  if (ua) h.set("user-agent", ua);
  return new Request(env().BASE_URL, { headers: h });
}

function errorCode(error: unknown) {
  if (!isAPIError(error)) return "unknown";
  const body = error.body as { code?: string } | undefined;
  return body?.code ?? String(error.status);
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Who a second-factor check is for: the signed-in user (enrolment) or the pending sign-in. */
async function secondFactorSubject(ctx: HookContext) {
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) return { userId: session.user.id, signIn: false };
  const cookie = ctx.context.createAuthCookie("two_factor");
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!identifier) return null;
  const pending = await ctx.context.internalAdapter.findVerificationValue(identifier);
  return pending ? { userId: pending.value, signIn: true } : null;
}

const secondFactorSubjects = new WeakMap<object, { userId: string; signIn: boolean }>();

const beforeHook = createAuthMiddleware(async (ctx) => {
  const rule = LIMITED_PATHS[ctx.path];
  if (!rule) return;
  const headers = ctx.headers ?? ctx.request?.headers;
  const ip = headers?.get(CLIENT_IP_HEADER) ?? "unknown";
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const email = normaliseEmail(body.email);
  const windowMs = AUTH_RATE_LIMIT.windowMs;

  let retryAfter = 0;
  const perClient = await hitRateLimit(`auth:${rule.group}:client:${ip}`, {
    max: rule.max,
    windowMs,
  });
  if (!perClient.allowed) retryAfter = perClient.retryAfterSeconds;
  if (!retryAfter && email && rule.perAccount === "every-attempt") {
    const perAccount = await hitRateLimit(accountKey(rule.group, email), {
      max: rule.max,
      windowMs,
    });
    if (!perAccount.allowed) retryAfter = perAccount.retryAfterSeconds;
  }
  if (!retryAfter && email && rule.perAccount === "failures") {
    const perAccount = await peekRateLimit(accountKey(rule.group, email), {
      max: rule.max,
      windowMs,
    });
    if (perAccount.blocked) retryAfter = perAccount.retryAfterSeconds;
  }
  if (retryAfter) {
    if (rule.group === "sign-in") {
      await recordAudit(auditRequest(headers), {
        action: "auth.sign_in_failed",
        actorEmail: email || null,
        details: { reason: "rate_limited" },
      });
    }
    throw tooManyAttempts(retryAfter);
  }

  if (rule.group === "two-factor") {
    const subject = await secondFactorSubject(ctx);
    if (subject) secondFactorSubjects.set(ctx.context, subject);
    // A TOTP code is accepted once only: better-auth accepts a code for its whole validity
    // window (about 90 s), so we remember each code tried per user for two minutes.
    const code = typeof body.code === "string" ? body.code.trim() : "";
    if (subject && code && ctx.path === "/two-factor/verify-totp") {
      const first = await hitRateLimit(`totp-used:${subject.userId}:${code}`, {
        max: 1,
        windowMs: 120_000,
      });
      if (!first.allowed) {
        throw new APIError("UNAUTHORIZED", {
          message: TOTP_REPLAY_MESSAGE,
          code: "TOTP_CODE_ALREADY_USED",
        });
      }
    }
  }
});

export const TOTP_REPLAY_MESSAGE =
  "This code has already been used. Wait for the next code from your authenticator app.";

const afterHook = createAuthMiddleware(async (ctx) => {
  const returned = ctx.context.returned;
  const failed = isAPIError(returned);
  const headers = ctx.headers ?? ctx.request?.headers;
  if (ctx.path === "/sign-in/email") {
    const email = normaliseEmail((ctx.body as Record<string, unknown> | undefined)?.email);
    if (failed) {
      if (returned.statusCode === 401 && email) {
        await hitRateLimit(accountKey("sign-in", email), {
          max: AUTH_RATE_LIMIT.max,
          windowMs: AUTH_RATE_LIMIT.windowMs,
        });
      }
      await recordAudit(auditRequest(headers), {
        action: "auth.sign_in_failed",
        actorEmail: email || null,
        details: { reason: errorCode(returned) },
      });
      return;
    }
    const user = ctx.context.newSession?.user as { id: string; twoFactorEnabled?: boolean };
    if (!user) return;
    await recordAudit(auditRequest(headers), {
      // With two-factor on, the password was right; the sign-in completes at /auth/two-factor.
      action: user.twoFactorEnabled ? "auth.two_factor_challenge" : "auth.sign_in",
      actorId: user.id,
      entity: "user",
      entityId: user.id,
      details: { method: "password" },
    });
    return;
  }
  const subject = secondFactorSubjects.get(ctx.context);
  if (subject?.signIn) {
    const method = ctx.path === "/two-factor/verify-totp" ? "totp" : "recovery_code";
    await recordAudit(auditRequest(headers), {
      action: failed ? "auth.sign_in_failed" : "auth.sign_in",
      actorId: subject.userId,
      entity: "user",
      entityId: subject.userId,
      details: failed ? { method, reason: errorCode(returned) } : { method },
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Roles (spec §6) as better-auth admin-plugin roles: only admins manage users; editors get no
// user-management permission (their content permissions are enforced by requireRole).
// ---------------------------------------------------------------------------------------------
const ac = createAccessControl(defaultStatements);
const authRoles = {
  user: ac.newRole({ user: [], session: [] }),
  editor: ac.newRole({ user: [], session: [] }),
  admin: ac.newRole(adminAc.statements),
};

// ---------------------------------------------------------------------------------------------
// Mail
// ---------------------------------------------------------------------------------------------
function mailBody(lines: string[], link?: { url: string; label: string }) {
  const text = [...lines, ...(link ? ["", `${link.label}: ${link.url}`] : [])].join("\n");
  const html = [
    ...lines.map((l) => (l ? `<p>${escapeHtml(l)}</p>` : "")),
    link ? `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>` : "",
  ].join("\n");
  return { text, html };
}

function deliver(to: string, subject: string, body: { text: string; html: string }) {
  return sendMail({ to, subject, ...body });
}

/** The cookie names better-auth uses (prefix `__Host-` under https). */
export function authCookieName(config: Env, name: string) {
  return `${config.BASE_URL.startsWith("https://") ? "__Host-" : ""}kongamano.${name}`;
}

function createAuth() {
  const config = env();
  const secure = config.BASE_URL.startsWith("https://");
  return betterAuth({
    appName: "Kongamano",
    baseURL: config.BASE_URL,
    basePath: "/api/auth",
    secret: config.SESSION_SECRET,
    database: drizzleAdapter(getDatabaseHandle().db, {
      provider: "pg",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        twoFactor: schema.twoFactor,
        rateLimit: schema.rateLimit,
      },
    }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      password: { hash: hashPassword, verify: verifyPassword },
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, url }) {
        await deliver(
          user.email,
          "Reset your Kongamano password",
          mailBody(
            [
              `Hello ${user.name},`,
              "",
              "Someone (hopefully you) asked to reset the password of your Kongamano account.",
              "The link below works once and expires in one hour. If you did not ask for it, ignore this mail: your password stays as it is.",
            ],
            { url, label: "Choose a new password" },
          ),
        );
      },
      async onPasswordReset({ user }, request) {
        await recordAudit(request ?? null, {
          action: "auth.password_reset",
          actorId: user.id,
          entity: "user",
          entityId: user.id,
        });
      },
      // Sign-up with a known e-mail answers exactly like a new sign-up; the owner gets a notice.
      async onExistingUserSignUp({ user }) {
        await deliver(
          user.email,
          "Someone tried to create a Kongamano account with your e-mail",
          mailBody(
            [
              `Hello ${user.name},`,
              "",
              "Someone tried to create a new Kongamano account with this e-mail address, which already has an account.",
              "If this was you, sign in instead. If you forgot your password, use 'Forgot password?' on the sign-in page.",
            ],
            { url: `${config.BASE_URL}/auth`, label: "Sign in" },
          ),
        );
      },
      customSyntheticUser: ({ coreFields, id }) => ({
        ...coreFields,
        role: "user",
        banned: false,
        banReason: null,
        banExpires: null,
        twoFactorEnabled: false,
        id,
      }),
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      async sendVerificationEmail({ user, url }) {
        await deliver(
          user.email,
          "Verify your e-mail address for Kongamano",
          mailBody(
            [
              `Hello ${user.name},`,
              "",
              "Please confirm that this is your e-mail address by opening the link below. It expires in 24 hours.",
              "If you did not create a Kongamano account or change your e-mail, ignore this mail.",
            ],
            { url, label: "Verify my e-mail address" },
          ),
        );
      },
    },
    user: {
      // A new address takes effect only once a link sent to it has been opened.
      changeEmail: { enabled: true },
      deleteUser: {
        enabled: true,
        afterDelete: async (user) => {
          await erasePersonalData(user.id, user.email);
        },
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 14,
      updateAge: 60 * 60 * 24,
      freshAge: 60 * 60 * 24,
    },
    rateLimit: {
      enabled: true,
      window: 10,
      max: 100,
      // The paths above are limited by our own hook (per client and per account, clear message).
      customRules: Object.fromEntries(Object.keys(LIMITED_PATHS).map((p) => [p, false])),
      // Every other better-auth endpoint: its defaults, counted in PostgreSQL or Redis.
      customStorage: {
        async consume(key, rule) {
          const r = await hitRateLimit(`better-auth:${key}`, {
            max: rule.max,
            windowMs: rule.window * 1000,
          });
          return { allowed: r.allowed, retryAfter: r.allowed ? null : r.retryAfterSeconds };
        },
      },
    },
    hooks: { before: beforeHook, after: afterHook },
    advanced: {
      // Under https every cookie is `__Host-` prefixed (Secure, Path=/, no Domain); better-auth's
      // own secure prefix would be `__Secure-`, so we name the cookies ourselves.
      useSecureCookies: false,
      cookiePrefix: secure ? "__Host-kongamano" : "kongamano",
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure, path: "/" },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      database: { generateId: () => crypto.randomUUID() },
      // Mails go out after the response: a reset or sign-up for a known address takes as long
      // as one for an unknown address (no account enumeration by timing).
      backgroundTasks: {
        handler: (task) => {
          task.catch((error: unknown) =>
            logger.error({ err: error }, "auth background task failed"),
          );
        },
      },
    },
    plugins: [
      admin({ ac, roles: authRoles, defaultRole: "user", adminRoles: ["admin"] }),
      twoFactor({
        issuer: "Kongamano",
        backupCodeOptions: { amount: 10, length: 10 },
      }),
    ],
    trustedOrigins: [config.BASE_URL],
    telemetry: { enabled: false },
    // Into our pino logs; better-auth's warnings are routine here (e.g. "Invalid password").
    logger: {
      level: "warn",
      log: (level, message, ...args) => {
        const fields = args.length ? { betterAuth: args } : {};
        if (level === "error") logger.error(fields, message);
        else if (level === "warn") logger.info(fields, message);
        else logger.debug(fields, message);
      },
    },
  });
}

type Auth = ReturnType<typeof createAuth>;
let instance: { auth: Auth; db: unknown; config: Env } | undefined;

/** The better-auth instance bound to the current database and configuration. */
export function getAuth(): Auth {
  const db = getDatabaseHandle().db;
  const config = env();
  if (instance?.db !== db || instance.config !== config) {
    instance = { auth: createAuth(), db, config };
  }
  return instance.auth;
}

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  /** Authenticator assurance level (spec §4): aal2 when the user has a verified second factor. */
  aal: "aal1" | "aal2";
  createdAt: Date;
  updatedAt: Date;
};

// ---------------------------------------------------------------------------------------------
// Helpers for routes
// ---------------------------------------------------------------------------------------------

/** Appends each Set-Cookie of `source` to `target` (never joined into one header). */
export function appendSetCookies(target: Headers, source: Headers | null | undefined) {
  for (const cookie of source?.getSetCookie() ?? []) target.append("Set-Cookie", cookie);
  return target;
}

/** A same-origin path to return to after sign-in, else `/`. */
export function safeRedirectPath(value: unknown, fallback = "/") {
  if (typeof value !== "string") return fallback;
  const path = value.trim();
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return fallback;
  if ([...path].some((c) => c.charCodeAt(0) < 32)) return fallback;
  // Whatever a browser would make of it, it must stay on our origin.
  const base = "http://kongamano.invalid";
  return new URL(path, base).origin === base ? path : fallback;
}

const FRIENDLY_MESSAGES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: "Invalid email or password.",
  EMAIL_NOT_VERIFIED:
    "Please verify your email address first. Check your inbox for the link we sent you.",
  PASSWORD_TOO_SHORT: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long.`,
  PASSWORD_TOO_LONG: `Password must be at most ${PASSWORD_MAX_LENGTH} characters long.`,
  INVALID_PASSWORD: "The current password is incorrect.",
  INVALID_EMAIL: "Please enter a valid email address.",
  INVALID_TOKEN: "This link is invalid or has expired. Please request a new one.",
  INVALID_CODE: "Invalid code. Please try again.",
  INVALID_BACKUP_CODE: "Invalid recovery code. Please try again.",
  INVALID_TWO_FACTOR_COOKIE: "Your sign-in has expired. Please sign in again.",
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: "Too many attempts. Please sign in again.",
  BANNED_USER: "This account has been suspended. Please contact support.",
};

/** A message people can act on, from a better-auth error (or anything thrown). */
export function authErrorMessage(
  error: unknown,
  fallback = "Something went wrong. Please try again.",
) {
  if (!isAPIError(error)) return fallback;
  const body = error.body as { code?: string; message?: string } | undefined;
  if (body?.code && FRIENDLY_MESSAGES[body.code]) return FRIENDLY_MESSAGES[body.code];
  return body?.message || error.message || fallback;
}

export function authErrorStatus(error: unknown) {
  return isAPIError(error) ? error.statusCode : 500;
}

export function authErrorCode(error: unknown) {
  return isAPIError(error) ? ((error.body as { code?: string } | undefined)?.code ?? null) : null;
}

/**
 * Creates a user with a password (used by create-admin and the demo seed), or updates the
 * existing one: name, password, role and verified e-mail.
 */
export async function upsertUserWithPassword(input: {
  email: string;
  name: string;
  password: string;
  role: Role;
  emailVerified?: boolean;
}) {
  const email = normaliseEmail(input.email);
  if (input.password.length < PASSWORD_MIN_LENGTH) {
    throw new Error(`Password must be at least ${PASSWORD_MIN_LENGTH} characters long.`);
  }
  const db = getDb();
  const passwordHash = await hashPassword(input.password);
  const emailVerified = input.emailVerified ?? true;
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: schema.user.id })
      .from(schema.user)
      .where(eq(schema.user.email, email));
    const id = existing?.id ?? crypto.randomUUID();
    if (existing) {
      await tx
        .update(schema.user)
        .set({ name: input.name, role: input.role, emailVerified })
        .where(eq(schema.user.id, id));
    } else {
      await tx
        .insert(schema.user)
        .values({ id, email, name: input.name, role: input.role, emailVerified });
    }
    const updated = await tx
      .update(schema.account)
      .set({ password: passwordHash })
      .where(and(eq(schema.account.userId, id), eq(schema.account.providerId, "credential")))
      .returning({ id: schema.account.id });
    if (updated.length === 0) {
      await tx.insert(schema.account).values({
        id: crypto.randomUUID(),
        accountId: id,
        providerId: "credential",
        userId: id,
        password: passwordHash,
      });
    }
    return { id, created: !existing };
  });
}

export class LastAdminError extends Error {
  constructor() {
    super("The last admin cannot be demoted.");
  }
}

/**
 * Changes a user's role (admins only: call after requireRole(request, "admin")). Refuses to
 * demote the last admin; writes a `user.role_change` audit row. Returns the previous role.
 */
export async function setUserRole(
  request: Request,
  { actorId, userId, role }: { actorId: string; userId: string; role: Role },
) {
  if (!isRole(role)) throw new Error(`Unknown role: ${String(role)}`);
  const db = getDb();
  const previous = await db.transaction(async (tx) => {
    // Serialise role changes so two admins cannot demote each other at the same time.
    await tx.execute(sql`select pg_advisory_xact_lock(7272743)`);
    const [target] = await tx
      .select({ role: schema.user.role })
      .from(schema.user)
      .where(eq(schema.user.id, userId));
    if (!target) return null;
    if (target.role === "admin" && role !== "admin") {
      const [{ admins }] = await tx
        .select({ admins: count() })
        .from(schema.user)
        .where(eq(schema.user.role, "admin"));
      if (admins <= 1) throw new LastAdminError();
    }
    await tx.update(schema.user).set({ role }).where(eq(schema.user.id, userId));
    return target.role;
  });
  if (previous === null) return null;
  if (previous !== role) {
    await recordAudit(request, {
      action: "user.role_change",
      actorId,
      entity: "user",
      entityId: userId,
      details: { from: previous, to: role },
    });
  }
  return normaliseRole(previous);
}

/**
 * After an account is deleted (its sessions, credentials and two-factor rows go with it through
 * foreign keys): drop the rest of the person's data and scrub the e-mail from the audit trail,
 * which keeps its events (actor_id is nulled by the foreign key).
 */
export async function erasePersonalData(userId: string, email: string) {
  const address = normaliseEmail(email);
  const db = getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(schema.auditLog)
      .set({ actorEmail: null })
      .where(sql`lower(${schema.auditLog.actorEmail}) = ${address}`);
    const pattern = address.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await tx.execute(
      sql`update audit_log set details = regexp_replace(details::text, ${pattern}, '[deleted account]', 'gi')::jsonb
          where details is not null and position(${address} in lower(details::text)) > 0`,
    );
    await tx
      .delete(schema.contactMessages)
      .where(sql`lower(${schema.contactMessages.email}) = ${address}`);
    await tx.delete(schema.invitations).where(sql`lower(${schema.invitations.email}) = ${address}`);
    await tx.delete(schema.verification).where(eq(schema.verification.value, userId));
  });
}
