import { createHash } from "node:crypto";
import { BASE_ERROR_CODES } from "@better-auth/core/error";
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
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from "./common-passwords.server";
import { type Env, env } from "./env.server";
import { logger } from "./logger.server";
import { sendMail } from "./mail.server";
import { type MailMessage, renderMail } from "./mail-layout.server";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-strength";
import { hitRateLimit, refundRateLimit } from "./rate-limit.server";
import { CLIENT_IP_HEADER } from "./request.server";
import { isRole, normaliseRole, type Role } from "./roles";

// Re-exported: the server and many tests name the header through auth; it is defined below audit.
export { CLIENT_IP_HEADER } from "./request.server";

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
// 3 attempts per 10 s per client address, and per account (normalised e-mail) for the mails.
// Counters live in PostgreSQL (rate_limit) or in Redis when REDIS_URL is set (hitRateLimit). The
// client address is the one the Express layer trusts (CLIENT_IP_HEADER), so a forged
// X-Forwarded-For buys nothing.
//
// Sign-in counts FAILED attempts (NIST SP 800-63B §5.2.2) in two ways (decision 0015):
// - per account and client: a client that keeps failing for one account is refused (429);
// - per account, over all clients: past a few failures every attempt for the account is slowed
//   down (a growing delay, capped), never refused — so nobody can lock the owner out by guessing
//   from elsewhere, while a guessing attack spread over many addresses is still braked.
// ---------------------------------------------------------------------------------------------
export const AUTH_RATE_LIMIT = { max: 3, windowMs: 10_000 } as const;
export const SIGN_IN_BRAKE = {
  perAccountAndClient: { max: 5, windowMs: 5 * 60_000 },
  perAccount: { windowMs: 5 * 60_000, freeFailures: 3, stepMs: 500, maxDelayMs: 3_000 },
} as const;

type LimitRule = { group: string; max: number; perAccount: "every-attempt" | false };
const LIMITED_PATHS: Record<string, LimitRule> = {
  "/sign-in/email": { group: "sign-in", max: AUTH_RATE_LIMIT.max, perAccount: false },
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

/** Where each endpoint that sets a password carries the new one (refused when too common). */
const NEW_PASSWORD_FIELDS: Record<string, string> = {
  "/sign-up/email": "password",
  "/reset-password": "newPassword",
  "/change-password": "newPassword",
  "/admin/create-user": "password", // invitations
  "/admin/set-user-password": "newPassword",
};

export function tooManyAttemptsMessage(seconds: number) {
  if (seconds > 90) {
    const minutes = Math.ceil(seconds / 60);
    return `Too many attempts. Please wait ${minutes} minutes and try again.`;
  }
  return `Too many attempts. Please wait ${seconds} ${seconds === 1 ? "second" : "seconds"} and try again.`;
}

export function normaliseEmail(value: unknown) {
  return typeof value === "string" ? value.trim().toLowerCase() : "";
}

/** Rate-limit keys never hold the e-mail itself (account deletion leaves no trace of it). */
function accountKey(group: string, email: string, client?: string) {
  const account = createHash("sha256").update(email).digest("hex").slice(0, 40);
  return client
    ? `auth:${group}:account-client:${account}:${client}`
    : `auth:${group}:account:${account}`;
}

/** How long a sign-in for an account waits, given its recent failures from all clients. */
export function signInDelayMs(failures: number) {
  const { freeFailures, stepMs, maxDelayMs } = SIGN_IN_BRAKE.perAccount;
  return Math.min(Math.max(0, failures - freeFailures) * stepMs, maxDelayMs);
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
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const passwordField = NEW_PASSWORD_FIELDS[ctx.path];
  const newPassword = passwordField ? body[passwordField] : undefined;
  if (
    typeof newPassword === "string" &&
    isCommonPassword(newPassword, normaliseEmail(body.email))
  ) {
    throw new APIError("BAD_REQUEST", {
      message: COMMON_PASSWORD_MESSAGE,
      code: "PASSWORD_TOO_COMMON",
    });
  }
  const rule = LIMITED_PATHS[ctx.path];
  if (!rule) return;
  const headers = ctx.headers ?? ctx.request?.headers;
  const ip = headers?.get(CLIENT_IP_HEADER) ?? "unknown";
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
  if (!retryAfter && email && rule.group === "sign-in") {
    // Counted now (a burst of parallel guesses cannot slip past), given back when it succeeds.
    const [fromThisClient, fromAll] = await Promise.all([
      hitRateLimit(accountKey("sign-in", email, ip), SIGN_IN_BRAKE.perAccountAndClient),
      hitRateLimit(accountKey("sign-in", email), {
        max: Number.MAX_SAFE_INTEGER,
        ...SIGN_IN_BRAKE.perAccount,
      }),
    ]);
    if (!fromThisClient.allowed) retryAfter = fromThisClient.retryAfterSeconds;
    else {
      const delay = signInDelayMs(fromAll.count - 1);
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    }
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

/** What people read for a wrong password, an unknown e-mail and an unverified account alike. */
export const INVALID_CREDENTIALS_MESSAGE =
  "Invalid email or password. If you have just signed up, open the link in the verification email first.";

/** better-auth's own wrong-password error, to the letter (same status, code and message). */
function invalidCredentials() {
  return APIError.from("UNAUTHORIZED", BASE_ERROR_CODES.INVALID_EMAIL_OR_PASSWORD);
}

/** better-auth's impersonation endpoints: closed unless ALLOW_IMPERSONATION (decision 0016). */
export const IMPERSONATION_PATHS = new Set([
  "/admin/impersonate-user",
  "/admin/stop-impersonating",
]);

async function recordImpersonation(ctx: HookContext, headers: Headers | undefined) {
  const start = ctx.path === "/admin/impersonate-user";
  // Starting: the admin's own session; stopping: the impersonation session being ended.
  const session = ctx.context.session as
    | { user: { id: string }; session: { impersonatedBy?: string | null } }
    | null
    | undefined;
  await recordAudit(auditRequest(headers), {
    action: start ? "user.impersonate_start" : "user.impersonate_stop",
    actorId: start ? session?.user.id : session?.session.impersonatedBy,
    entity: "user",
    entityId: start
      ? ((ctx.body as { userId?: string } | undefined)?.userId ?? null)
      : session?.user.id,
  });
}

export const TOTP_REPLAY_MESSAGE =
  "This code has already been used. Wait for the next code from your authenticator app.";

const afterHook = createAuthMiddleware(async (ctx) => {
  const returned = ctx.context.returned;
  const failed = isAPIError(returned);
  const headers = ctx.headers ?? ctx.request?.headers;
  if (ctx.path === "/sign-in/email") {
    const email = normaliseEmail((ctx.body as Record<string, unknown> | undefined)?.email);
    if (failed) {
      const reason = errorCode(returned);
      await recordAudit(auditRequest(headers), {
        action: "auth.sign_in_failed",
        actorEmail: email || null,
        details: { reason },
      });
      // An unverified account answers like a wrong password: otherwise signing up with someone's
      // address and then signing in with the same password would tell whether they have an
      // account (a new one says "verify", an existing one "invalid").
      if (reason === "EMAIL_NOT_VERIFIED") throw invalidCredentials();
      return;
    }
    // The right password: this attempt does not count against the client or the account.
    const ip = headers?.get(CLIENT_IP_HEADER) ?? "unknown";
    await Promise.all([
      refundRateLimit(`auth:sign-in:client:${ip}`),
      refundRateLimit(accountKey("sign-in", email, ip)),
      refundRateLimit(accountKey("sign-in", email)),
    ]);
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
  if (!failed && IMPERSONATION_PATHS.has(ctx.path)) {
    await recordImpersonation(ctx, headers);
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
function deliver(to: string, message: MailMessage) {
  return sendMail({ to, ...renderMail(message) });
}

/** The cookie names better-auth uses (prefix `__Host-` under https). */
export function authCookieName(config: Env, name: string) {
  return `${config.BASE_URL.startsWith("https://") ? "__Host-" : ""}kongamano.${name}`;
}

/** The session cookie's value in a Cookie header, or undefined (read, never verified). */
export function sessionTokenOf(cookieHeader: string | null | undefined) {
  const name = `${authCookieName(env(), "session_token")}=`;
  for (const part of (cookieHeader ?? "").split(";")) {
    const cookie = part.trim();
    if (cookie.startsWith(name)) return cookie.slice(name.length) || undefined;
  }
  return undefined;
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
      async sendResetPassword({ user, url, token }) {
        // A newer link ends the older ones.
        await revokeResetLinks(user.id, token);
        await deliver(user.email, {
          subject: "Reset your Kongamano password",
          greeting: `Hello ${user.name},`,
          blocks: [
            {
              kind: "paragraph",
              text: "Someone (hopefully you) asked to reset the password of your Kongamano account.",
            },
            { kind: "button", label: "Choose a new password", url },
            {
              kind: "note",
              text: "The link works once and expires in one hour. If you did not ask for it, ignore this mail: your password stays as it is.",
            },
          ],
        });
      },
      async onPasswordReset({ user }, request) {
        await revokeResetLinks(user.id); // a successful reset ends every other link
        await recordAudit(request ?? null, {
          action: "auth.password_reset",
          actorId: user.id,
          entity: "user",
          entityId: user.id,
        });
      },
      // Sign-up with a known e-mail answers exactly like a new sign-up; the owner gets a notice.
      async onExistingUserSignUp({ user }) {
        await deliver(user.email, {
          subject: "Someone tried to create a Kongamano account with your e-mail",
          greeting: `Hello ${user.name},`,
          blocks: [
            {
              kind: "paragraph",
              text: "Someone tried to create a new Kongamano account with this e-mail address, which already has an account.",
            },
            {
              kind: "paragraph",
              text: "If this was you, sign in instead. If you forgot your password, use 'Forgot password?' on the sign-in page.",
            },
            { kind: "button", label: "Sign in", url: `${config.BASE_URL}/auth` },
          ],
        });
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
        await deliver(user.email, {
          subject: "Verify your e-mail address for Kongamano",
          greeting: `Hello ${user.name},`,
          blocks: [
            {
              kind: "paragraph",
              text: "Please confirm that this is your e-mail address. The link expires in 24 hours.",
            },
            { kind: "button", label: "Verify my e-mail address", url },
            {
              kind: "note",
              text: "If you did not create a Kongamano account or change your e-mail, ignore this mail.",
            },
          ],
        });
      },
    },
    user: {
      // A new address takes effect only once a link sent to it has been opened.
      changeEmail: { enabled: true },
      deleteUser: {
        enabled: true,
        // Never zero admins, whichever path asks for the deletion.
        beforeDelete: async (user) => {
          await deleteUnlessLastAdmin(user.id);
        },
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
      admin({
        ac,
        roles: authRoles,
        defaultRole: "user",
        adminRoles: ["admin"],
        allowImpersonatingAdmins: false,
        impersonationSessionDuration: 60 * 30,
      }),
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
  INVALID_EMAIL_OR_PASSWORD: INVALID_CREDENTIALS_MESSAGE,
  PASSWORD_TOO_COMMON: COMMON_PASSWORD_MESSAGE,
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

export const LAST_ADMIN_DELETE_MESSAGE =
  "You are the only admin. Make someone else an admin before deleting your account.";

export async function adminCount(db: Pick<ReturnType<typeof getDb>, "select"> = getDb()) {
  const [{ admins }] = await db
    .select({ admins: count() })
    .from(schema.user)
    .where(eq(schema.user.role, "admin"));
  return admins;
}

/** Ends a user's password-reset links, except `keepToken` (the one just sent). */
async function revokeResetLinks(userId: string, keepToken?: string) {
  await getDb()
    .delete(schema.verification)
    .where(
      and(
        eq(schema.verification.value, userId),
        sql`${schema.verification.identifier} like 'reset-password:%'`,
        keepToken
          ? sql`${schema.verification.identifier} <> ${`reset-password:${keepToken}`}`
          : undefined,
      ),
    );
}

/**
 * Serialises every change that can lower the number of admins (role changes, account deletion)
 * until the calling transaction ends, so "is this the last admin?" and the change are one step.
 */
async function lockAdmins(tx: { execute: ReturnType<typeof getDb>["execute"] }) {
  await tx.execute(sql`select pg_advisory_xact_lock(7272743)`);
}

/**
 * Deletes the account under the admin lock, refusing the last admin (better-auth's own delete
 * that follows finds nothing left to remove). The role is read here, not from the session: two
 * admins deleting themselves at once are decided one after the other.
 */
async function deleteUnlessLastAdmin(userId: string) {
  await getDb().transaction(async (tx) => {
    await lockAdmins(tx);
    const [target] = await tx
      .select({ role: schema.user.role })
      .from(schema.user)
      .where(eq(schema.user.id, userId));
    if (target?.role === "admin" && (await adminCount(tx)) <= 1) {
      throw new APIError("BAD_REQUEST", { message: LAST_ADMIN_DELETE_MESSAGE, code: "LAST_ADMIN" });
    }
    await tx.delete(schema.user).where(eq(schema.user.id, userId));
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
    // Serialised with other role changes and deletions: two admins cannot remove each other.
    await lockAdmins(tx);
    const [target] = await tx
      .select({ role: schema.user.role })
      .from(schema.user)
      .where(eq(schema.user.id, userId));
    if (!target) return null;
    if (target.role === "admin" && role !== "admin" && (await adminCount(tx)) <= 1) {
      throw new LastAdminError();
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
