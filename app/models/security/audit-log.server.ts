import { TZDate } from "@date-fns/tz";
import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  isNotNull,
  lt,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { auditLog, user } from "~/db/schema";
import { EVENT_TIME_ZONE } from "~/lib/constants";
import { type CsvValue, csvRecord, csvStart } from "~/lib/csv";
import { maskEmail } from "~/lib/mask-email";
import { likePattern } from "../users/users.server";
import {
  type RiskLevel,
  riskLevel,
  SECURITY_EVENT_PATTERN,
  SIGN_IN_FAILED_ACTION,
} from "./activity-risk";

export const ACTIVITY_PAGE_SIZE = 25;

export type ActivityFilters = {
  /** A name (substring) or a whole e-mail address (exact, case-insensitive). */
  actor?: string;
  action?: string;
  entity?: string;
  /** Calendar days 'yyyy-MM-dd' in Nairobi time, both inclusive. */
  from?: string;
  to?: string;
};

/** An audit row as admins see it: e-mails masked, like everywhere outside the user's own view. */
export type ActivityEntry = {
  id: string;
  createdAt: string;
  actorName: string | null;
  actorEmail: string | null;
  action: string;
  entity: string | null;
  entityId: string | null;
  details: Record<string, unknown> | null;
  ip: string | null;
  userAgent: string | null;
};

/** The Activity Log filters from a URL query; 'all' and blanks mean no filter. */
export function activityFiltersFrom(params: URLSearchParams): ActivityFilters {
  const value = (name: string) => {
    const v = params.get(name)?.trim();
    return v && v !== "all" ? v.slice(0, 200) : undefined;
  };
  return {
    actor: value("actor"),
    action: value("action"),
    entity: value("entity"),
    from: value("from"),
    to: value("to"),
  };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Start of a Nairobi calendar day (plus `addDays`) as an instant; undefined unless a real 'yyyy-MM-dd'. */
export function startOfNairobiDay(day: string | undefined, addDays = 0): Date | undefined {
  const m = day ? DAY.exec(day) : null;
  if (!m) return undefined;
  const [year, month, date] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const start = new TZDate(year, month, date, EVENT_TIME_ZONE);
  // 2026-02-31 would roll over into March: not a real day
  if (start.getFullYear() !== year || start.getMonth() !== month || start.getDate() !== date) {
    return undefined;
  }
  return new Date(new TZDate(year, month, date + addDays, EVENT_TIME_ZONE).getTime());
}

function whereFor(filters: ActivityFilters): SQL | undefined {
  const conditions: SQL[] = [];
  const actor = filters.actor?.trim();
  if (actor) {
    const email = actor.toLowerCase();
    conditions.push(
      or(
        ilike(user.name, likePattern(actor)),
        eq(sql`lower(${user.email})`, email),
        eq(sql`lower(${auditLog.actorEmail})`, email),
      )!,
    );
  }
  if (filters.action) conditions.push(eq(auditLog.action, filters.action));
  if (filters.entity) conditions.push(eq(auditLog.entity, filters.entity));
  const from = startOfNairobiDay(filters.from);
  const to = startOfNairobiDay(filters.to, 1);
  if (from) conditions.push(gte(auditLog.createdAt, from));
  if (to) conditions.push(lt(auditLog.createdAt, to));
  return conditions.length ? and(...conditions) : undefined;
}

const columns = {
  id: auditLog.id,
  createdAt: auditLog.createdAt,
  actorName: user.name,
  userEmail: user.email,
  auditEmail: auditLog.actorEmail,
  action: auditLog.action,
  entity: auditLog.entity,
  entityId: auditLog.entityId,
  details: auditLog.details,
  ip: auditLog.ip,
  userAgent: auditLog.userAgent,
};

type RawRow = {
  id: string;
  createdAt: Date;
  actorName: string | null;
  userEmail: string | null;
  auditEmail: string | null;
  action: string;
  entity: string | null;
  entityId: string | null;
  details: Record<string, unknown> | null;
  ip: string | null;
  userAgent: string | null;
};

function toEntry(r: RawRow): ActivityEntry {
  const email = r.userEmail ?? r.auditEmail;
  return {
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    actorName: r.actorName,
    actorEmail: email ? maskEmail(email) : null,
    action: r.action,
    entity: r.entity,
    entityId: r.entityId,
    details: r.details,
    ip: r.ip,
    userAgent: r.userAgent,
  };
}

/** One page of the activity log, newest first. */
export async function listActivity(filters: ActivityFilters, requestedPage = 1) {
  const db = getDb();
  const where = whereFor(filters);
  const [{ total }] = await db
    .select({ total: count() })
    .from(auditLog)
    .leftJoin(user, eq(user.id, auditLog.actorId))
    .where(where);
  const pageCount = Math.max(1, Math.ceil(total / ACTIVITY_PAGE_SIZE));
  const page = Math.min(Math.max(1, requestedPage), pageCount);
  const rows = await db
    .select(columns)
    .from(auditLog)
    .leftJoin(user, eq(user.id, auditLog.actorId))
    .where(where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(ACTIVITY_PAGE_SIZE)
    .offset((page - 1) * ACTIVITY_PAGE_SIZE);
  return { entries: rows.map(toEntry), total, page, pageCount };
}

/** The actions and entities present in the log, for the filter selects. */
export async function activityFilterOptions() {
  const db = getDb();
  const [actions, entities] = await Promise.all([
    db.selectDistinct({ value: auditLog.action }).from(auditLog).orderBy(asc(auditLog.action)),
    db
      .selectDistinct({ value: auditLog.entity })
      .from(auditLog)
      .where(isNotNull(auditLog.entity))
      .orderBy(asc(auditLog.entity)),
  ]);
  return {
    actions: actions.map((a) => a.value),
    entities: entities.map((e) => e.value).filter((e): e is string => Boolean(e)),
  };
}

export const ACTIVITY_CSV_HEADER = [
  "Time (UTC)",
  "Actor",
  "Actor email",
  "Action",
  "Entity",
  "Entity ID",
  "Details",
  "IP address",
  "User agent",
] as const;

function csvValues(e: ActivityEntry): CsvValue[] {
  return [
    e.createdAt,
    e.actorName,
    e.actorEmail,
    e.action,
    e.entity,
    e.entityId,
    e.details ? JSON.stringify(e.details) : null,
    e.ip,
    e.userAgent,
  ];
}

const CSV_BATCH = 500;

/**
 * The filtered log as CSV, newest first, streamed in batches (keyset pagination on
 * created_at, id) so a large export never sits in memory at once.
 */
export function activityCsvStream(filters: ActivityFilters): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const where = whereFor(filters);
  let cursor: { createdAt: Date; id: string } | undefined;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(csvStart(ACTIVITY_CSV_HEADER)));
        return;
      }
      const after = cursor
        ? or(
            lt(auditLog.createdAt, cursor.createdAt),
            and(eq(auditLog.createdAt, cursor.createdAt), lt(auditLog.id, cursor.id)),
          )
        : undefined;
      const rows = await getDb()
        .select(columns)
        .from(auditLog)
        .leftJoin(user, eq(user.id, auditLog.actorId))
        .where(and(where, after))
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(CSV_BATCH);
      if (rows.length === 0) {
        controller.close();
        return;
      }
      const last = rows[rows.length - 1];
      cursor = { createdAt: last.createdAt, id: last.id };
      controller.enqueue(
        encoder.encode(rows.map((r) => csvRecord(csvValues(toEntry(r)))).join("")),
      );
      if (rows.length < CSV_BATCH) controller.close();
    },
  });
}

export type RiskedActivity = ActivityEntry & { risk: RiskLevel };

/**
 * The latest sign-in and security entries with a risk level each. Failed sign-ins are rated
 * against how many failures the same e-mail and the same address had in the last 24 hours.
 */
export async function recentSecurityActivity(
  limit = 10,
  now = new Date(),
): Promise<RiskedActivity[]> {
  const db = getDb();
  const since = new Date(now.getTime() - 24 * 60 * 60 * 1000);
  const [rows, byEmail, byIp] = await Promise.all([
    db
      .select(columns)
      .from(auditLog)
      .leftJoin(user, eq(user.id, auditLog.actorId))
      .where(
        or(
          sql`${auditLog.action} like 'auth.%'`,
          sql`${auditLog.action} ~* ${SECURITY_EVENT_PATTERN}`,
        ),
      )
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(limit),
    db
      .select({ key: sql<string>`lower(${auditLog.actorEmail})`, n: count() })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, SIGN_IN_FAILED_ACTION),
          gte(auditLog.createdAt, since),
          isNotNull(auditLog.actorEmail),
        ),
      )
      .groupBy(sql`lower(${auditLog.actorEmail})`),
    db
      .select({ key: auditLog.ip, n: count() })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, SIGN_IN_FAILED_ACTION),
          gte(auditLog.createdAt, since),
          isNotNull(auditLog.ip),
        ),
      )
      .groupBy(auditLog.ip),
  ]);
  const emailCounts = new Map(byEmail.map((r) => [r.key, r.n]));
  const ipCounts = new Map(byIp.map((r) => [r.key, r.n]));
  return rows.map((r) => ({
    ...toEntry(r),
    risk: riskLevel({
      action: r.action,
      details: r.details,
      failuresForEmail: r.auditEmail ? emailCounts.get(r.auditEmail.toLowerCase()) : undefined,
      failuresForIp: r.ip && r.ip !== "unknown" ? ipCounts.get(r.ip) : undefined,
    }),
  }));
}
