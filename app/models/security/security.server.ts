import { and, count, eq, gt, gte, isNull, lte, sql } from "drizzle-orm";
import { getDatabaseHandle, getDb } from "~/db/client.server";
import { auditLog, invitations, session, user } from "~/db/schema";
import { env } from "~/lib/env.server";
import { countFailedJobs } from "~/models/jobs.server";
import {
  REPEATED_FAILURE_THRESHOLD,
  SECURITY_EVENT_PATTERN,
  SIGN_IN_ACTION,
  SIGN_IN_FAILED_ACTION,
} from "./activity-risk";
import { type RiskedActivity, recentSecurityActivity } from "./audit-log.server";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Pending invitations expiring within this window are flagged. */
export const INVITATION_EXPIRY_WARNING_MS = 2 * DAY_MS;
/** This many failed sign-ins in 24 hours (in total) deserve a look. */
export const FAILED_SIGN_IN_ALERT = 10;

export type DatabaseHealth = { ok: boolean; latencyMs: number | null; kind: "pglite" | "postgres" };

/** The same check as /readyz, timed. */
export async function checkDatabase(): Promise<DatabaseHealth> {
  const handle = getDatabaseHandle();
  const started = performance.now();
  const ok = await handle.ping();
  return {
    ok,
    latencyMs: ok ? Math.round((performance.now() - started) * 10) / 10 : null,
    kind: handle.kind,
  };
}

export type SecurityFigures = {
  activeUsers: number;
  failedSignIns: number;
  securityEvents: number;
  database: DatabaseHealth;
};

/**
 * Dashboard figures over the last 24 hours: users with a session created or refreshed (or a
 * recorded sign-in — a signed-out session is gone), failed sign-ins, security events.
 */
export async function securityFigures(now = new Date()): Promise<SecurityFigures> {
  const db = getDb();
  const since = new Date(now.getTime() - DAY_MS);
  const [active, failed, events, database] = await Promise.all([
    db.execute(sql`
      select count(*)::int as n from (
        select ${session.userId} as id from ${session}
        where ${session.expiresAt} > ${now}
          and (${session.createdAt} >= ${since} or ${session.updatedAt} >= ${since})
        union
        select ${auditLog.actorId} from ${auditLog}
        where ${auditLog.action} = ${SIGN_IN_ACTION} and ${auditLog.createdAt} >= ${since}
          and ${auditLog.actorId} is not null
      ) as active_users`),
    db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, SIGN_IN_FAILED_ACTION), gte(auditLog.createdAt, since))),
    db
      .select({ n: count() })
      .from(auditLog)
      .where(
        and(sql`${auditLog.action} ~* ${SECURITY_EVENT_PATTERN}`, gte(auditLog.createdAt, since)),
      ),
    checkDatabase(),
  ]);
  const activeRows = (active as unknown as { rows: Array<{ n: number }> }).rows;
  return {
    activeUsers: Number(activeRows[0]?.n ?? 0),
    failedSignIns: failed[0].n,
    securityEvents: events[0].n,
    database,
  };
}

export type StatusItem = { name: string; status: "ok" | "warning" | "error"; detail: string };

/** The System Status list: what this deployment actually runs on. */
export function systemStatus(database: DatabaseHealth): StatusItem[] {
  const config = env();
  return [
    {
      name: "Database",
      status: database.ok ? "ok" : "error",
      detail: database.ok
        ? `${database.kind === "postgres" ? "PostgreSQL" : "Embedded PostgreSQL (PGlite)"} answering in ${database.latencyMs} ms`
        : "Not answering",
    },
    {
      name: "Authentication",
      status: "ok",
      detail: "Server-side sessions in HttpOnly cookies",
    },
    {
      name: "Two-factor for admins",
      // Editors record payments and see attendee data: either flag off is worth a warning.
      status: config.REQUIRE_ADMIN_MFA && config.REQUIRE_EDITOR_MFA ? "ok" : "warning",
      detail: config.REQUIRE_ADMIN_MFA
        ? config.REQUIRE_EDITOR_MFA
          ? "Required (editors too)"
          : "Required for admins only (REQUIRE_EDITOR_MFA is off)"
        : "Optional (REQUIRE_ADMIN_MFA is off)",
    },
    {
      name: "Email delivery",
      status: config.SMTP_URL ? "ok" : "warning",
      detail: config.SMTP_URL
        ? "SMTP relay configured"
        : "No SMTP_URL: mail is written to the outbox folder",
    },
    {
      name: "Rate limiting",
      status: "ok",
      detail: config.REDIS_URL ? "Shared counters in Redis" : "Counters in the database",
    },
    {
      name: "File storage",
      status: "ok",
      detail: config.S3_BUCKET ? "S3-compatible object storage" : "Local disk",
    },
  ];
}

export type Recommendation = {
  id: string;
  severity: "high" | "medium" | "low";
  title: string;
  detail: string;
  href?: string;
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Advice computed from the data; an empty list means nothing needs attention. */
export async function securityRecommendations(now = new Date()): Promise<Recommendation[]> {
  const db = getDb();
  const since = new Date(now.getTime() - DAY_MS);
  const pending = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));
  const [admins, unverified, failures, repeated, expiring, expired] = await Promise.all([
    db
      .select({
        total: count(),
        withoutTwoFactor: sql<number>`count(*) filter (where coalesce(${user.twoFactorEnabled}, false) = false)::int`,
      })
      .from(user)
      .where(eq(user.role, "admin")),
    db.select({ n: count() }).from(user).where(eq(user.emailVerified, false)),
    db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, SIGN_IN_FAILED_ACTION), gte(auditLog.createdAt, since))),
    db.execute(sql`
      select count(*)::int as n from (
        select 1 from ${auditLog}
        where ${auditLog.action} = ${SIGN_IN_FAILED_ACTION} and ${auditLog.createdAt} >= ${since}
        group by coalesce(lower(${auditLog.actorEmail}), ${auditLog.ip})
        having count(*) >= ${REPEATED_FAILURE_THRESHOLD}
      ) as repeated`),
    db
      .select({ n: count() })
      .from(invitations)
      .where(
        and(
          pending,
          gt(invitations.expiresAt, now),
          lte(invitations.expiresAt, new Date(now.getTime() + INVITATION_EXPIRY_WARNING_MS)),
        ),
      ),
    db
      .select({ n: count() })
      .from(invitations)
      .where(and(pending, lte(invitations.expiresAt, now))),
  ]);

  const list: Recommendation[] = [];
  const { total: adminCount, withoutTwoFactor } = admins[0];
  if (withoutTwoFactor > 0) {
    list.push({
      id: "admin-2fa",
      severity: "high",
      title: `${plural(withoutTwoFactor, "admin account")} without two-factor authentication`,
      detail:
        "Admins can change roles and invite users. Ask them to turn on two-factor authentication in Profile Settings.",
      href: "/admin/users?role=admin",
    });
  }
  if (adminCount === 1) {
    list.push({
      id: "single-admin",
      severity: "medium",
      title: "Only one admin account",
      detail:
        "Make a second trusted person an admin so the site can be recovered if one account is lost.",
      href: "/admin/users",
    });
  }
  const repeatedCount = Number(
    (repeated as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0,
  );
  const failedCount = failures[0].n;
  if (repeatedCount > 0 || failedCount >= FAILED_SIGN_IN_ALERT) {
    list.push({
      id: "failed-sign-ins",
      severity: "high",
      title: `${plural(failedCount, "failed sign-in")} in the last 24 hours`,
      detail:
        repeatedCount > 0
          ? `${plural(repeatedCount, "account or address", "accounts or addresses")} failed ${REPEATED_FAILURE_THRESHOLD} or more times. Review the Activity Log for password guessing.`
          : "Review the Activity Log for password guessing.",
      href: `/admin/security?tab=activity&action=${SIGN_IN_FAILED_ACTION}`,
    });
  }
  const unverifiedCount = unverified[0].n;
  if (unverifiedCount > 0) {
    list.push({
      id: "unverified",
      severity: "low",
      title: `${plural(unverifiedCount, "account")} with an unverified email address`,
      detail:
        "These people have not confirmed their address yet. Invite staff instead of asking them to sign up: accepting an invitation proves the address.",
    });
  }
  const expiringCount = expiring[0].n;
  if (expiringCount > 0) {
    list.push({
      id: "invitations-expiring",
      severity: "low",
      title: `${plural(expiringCount, "invitation")} expiring within 48 hours`,
      detail: "Remind the invited people, or send a new invitation after it expires.",
      href: "/admin/security?tab=users",
    });
  }
  const expiredCount = expired[0].n;
  if (expiredCount > 0) {
    list.push({
      id: "invitations-expired",
      severity: "low",
      title: `${plural(expiredCount, "invitation")} expired without being accepted`,
      detail: "Revoke them to tidy the list, or invite the person again.",
      href: "/admin/security?tab=users",
    });
  }
  const failedJobs = await countFailedJobs();
  if (failedJobs > 0) {
    list.push({
      id: "failed-jobs",
      severity: "medium",
      title: `${plural(failedJobs, "scheduled job")} failed`,
      detail:
        "Mails, reminders or expiries that kept failing after every retry. See the last error and retry them.",
      href: "/admin/jobs",
    });
  }
  return list;
}

export type SecurityDashboard = {
  figures: SecurityFigures;
  status: StatusItem[];
  activity: RiskedActivity[];
  recommendations: Recommendation[];
};

export async function securityDashboard(now = new Date()): Promise<SecurityDashboard> {
  const [figures, activity, recommendations] = await Promise.all([
    securityFigures(now),
    recentSecurityActivity(10, now),
    securityRecommendations(now),
  ]);
  return { figures, status: systemStatus(figures.database), activity, recommendations };
}
