// Reading memberships: benefits, the member's own view, the public card check, the back office.
// Nothing here changes a membership (that is membership.server.ts).
import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { type Database, type DbTransaction, getDb, queryRows } from "~/db/client.server";
import {
  invoices,
  type MembershipNoticeKind,
  type MembershipPlanId,
  type MembershipState,
  membershipNotices,
  membershipSeats,
  memberships,
  membershipTerms,
  membershipUpgradeRequests,
  orders,
  user,
} from "~/db/schema";
import { formatDate } from "~/lib/format";
import { formatMinor } from "~/lib/money";
import {
  BENEFIT_STATES,
  CORPORATE_SEATS,
  GRACE_DAYS,
  NOTICE_OFFSET_DAYS,
  PLAN_NAMES,
  RENEWAL_OPENS_DAYS,
} from "./plans";
import { billingUrl } from "./renewal-link.server";

// ---------------------------------------------------------------------------------------------
// Corporate upgrade requests (reviewed like applications; decision 0076)
// ---------------------------------------------------------------------------------------------
/** The audit actions that record a Corporate upgrade review (the request itself is a row). */
export const UPGRADE_REVIEW = {
  requested: "membership.upgrade_review_requested",
  approved: "membership.upgrade_approved",
  rejected: "membership.upgrade_rejected",
} as const;

/** What a Corporate membership needs, applying or upgrading. */
export type CorporateDetails = {
  organisationName?: string | null;
  taxId?: string | null;
  billingContactName?: string | null;
  billingContactEmail?: string | null;
};

export function corporateDetails(details: CorporateDetails) {
  return {
    organisationName: details.organisationName?.trim() || null,
    taxId: details.taxId?.trim() || null,
    billingContactName: details.billingContactName?.trim() || null,
    billingContactEmail: details.billingContactEmail?.trim() || null,
  };
}

export type UpgradeRequest = ReturnType<typeof corporateDetails> & {
  id: string;
  to: MembershipPlanId;
  from: MembershipPlanId;
  requestedAt: Date;
};

/** The Corporate upgrade waiting for staff, if any (at most one per membership, by index). */
export async function pendingUpgradeRequest(
  db: Pick<Database, "select"> | Pick<DbTransaction, "select">,
  membershipId: string,
): Promise<UpgradeRequest | null> {
  const [row] = await db
    .select()
    .from(membershipUpgradeRequests)
    .where(
      and(
        eq(membershipUpgradeRequests.membershipId, membershipId),
        isNull(membershipUpgradeRequests.decidedAt),
      ),
    )
    .limit(1);
  if (!row) return null;
  return {
    ...corporateDetails(row),
    id: row.id,
    to: row.toPlan,
    from: row.fromPlan,
    requestedAt: row.requestedAt,
  };
}

/**
 * Active members' Corporate upgrade requests waiting for review, with the details they gave (the
 * admin's "Applications to review" list shows them beside the applications).
 */
export async function listUpgradeRequestsForAdmin() {
  const waiting = await getDb()
    .select()
    .from(membershipUpgradeRequests)
    .where(isNull(membershipUpgradeRequests.decidedAt))
    .orderBy(asc(membershipUpgradeRequests.requestedAt));
  if (waiting.length === 0) return [];
  const members = await listMembersForAdmin({
    ids: waiting.map((r) => r.membershipId),
    state: "active",
  });
  return waiting.flatMap((request) => {
    const member = members.find((m) => m.id === request.membershipId);
    return member ? [{ ...member, ...corporateDetails(request), upgradeTo: request.toPlan }] : [];
  });
}

// ---------------------------------------------------------------------------------------------
// Benefits (the `member` event fee and anything else reserved for members)
// ---------------------------------------------------------------------------------------------
/**
 * True exactly while the person's own membership, or the Corporate membership they hold a seat
 * of, is active, renewal_open or in grace at `at`. The state is checked together with the dates
 * of the paid term, so benefits stop at the end of grace (or of a cancelled term) even if the
 * calendar sweep has not run yet.
 */
export async function hasMemberBenefits(
  userId: string,
  at: Date = new Date(),
  /** The transaction to read in, when the caller holds one (PGlite has a single connection). */
  db: Database | DbTransaction = getDb(),
): Promise<boolean> {
  const rows = await queryRows<{ ok: boolean }>(
    sql`
    SELECT EXISTS (
      SELECT 1 FROM ${memberships} m
      JOIN ${membershipTerms} t ON t.membership_id = m.id
        AND t.activated_at IS NOT NULL AND t.kind IN ('join', 'renewal')
      WHERE m.state IN ('active', 'renewal_open', 'grace')
        AND (m.user_id = ${userId} OR (m.plan = 'corporate' AND EXISTS (
          SELECT 1 FROM ${membershipSeats} s WHERE s.membership_id = m.id AND s.user_id = ${userId}
            AND s.accepted_at IS NOT NULL AND s.revoked_at IS NULL)))
        AND t.starts_at <= ${at.toISOString()}::timestamptz
        AND ${at.toISOString()}::timestamptz < CASE WHEN m.cancel_requested_at IS NOT NULL
          THEN t.ends_at ELSE t.ends_at + ${GRACE_DAYS} * interval '1 day' END
    ) AS ok`,
    db,
  );
  return Boolean(rows[0]?.ok);
}

// ---------------------------------------------------------------------------------------------
// The member's own view (/profile, the card)
// ---------------------------------------------------------------------------------------------
type Term = { startsAt: Date; endsAt: Date };

/** Where the person stands and what happens next, in one line. */
export function describeStanding(
  membership: {
    state: MembershipState;
    cancelRequestedAt: Date | null;
    rejectionReason: string | null;
  },
  term: Term | null,
  invoiceNumber: string | null,
): string {
  const end = term ? formatDate(term.endsAt) : "";
  const graceEnd = term ? formatDate(addDaysTo(term.endsAt, GRACE_DAYS)) : "";
  switch (membership.state) {
    case "applied":
      return "Application received · our staff are reviewing it; you will get an e-mail with the invoice or the reason";
    case "awaiting_payment":
      return invoiceNumber
        ? `Awaiting payment of invoice ${invoiceNumber} · your membership starts the day it is paid`
        : "Awaiting payment · ask for a new invoice below";
    case "active":
      if (!term) return "Active";
      if (membership.cancelRequestedAt)
        return `Cancelled · access until ${end} · nothing more is charged`;
      return `Active until ${end} · renewal opens ${formatDate(addDaysTo(term.endsAt, -RENEWAL_OPENS_DAYS))} · grace until ${graceEnd}`;
    case "renewal_open":
      if (membership.cancelRequestedAt)
        return `Cancelled · access until ${end} · nothing more is charged`;
      return `Renewal open · active until ${end} · grace until ${graceEnd}`;
    case "grace":
      return `In grace until ${graceEnd} · your term ended on ${end}; renew now to keep your benefits`;
    case "lapsed":
      return `Lapsed${term ? ` on ${graceEnd}` : ""} · re-join any time from the membership page`;
    case "rejected":
      return `Application not approved${membership.rejectionReason ? `: ${membership.rejectionReason}` : ""}`;
    case "cancelled":
      return "Cancelled · you are welcome back any time";
  }
}

function addDaysTo(date: Date, days: number) {
  return new Date(date.getTime() + days * 86_400_000);
}

/** The person's latest membership with its terms, open invoices and seats (null: never applied). */
export async function getMembershipOverview(userId: string) {
  const db = getDb();
  const [membership] = await db
    .select()
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .orderBy(
      sql`CASE WHEN ${memberships.state} IN ('rejected', 'cancelled') THEN 1 ELSE 0 END`,
      desc(memberships.updatedAt),
    )
    .limit(1);
  const seat = await getSeatMembership(userId);
  if (!membership) return seat ? { membership: null, seat } : null;
  const terms = await db
    .select({
      id: membershipTerms.id,
      kind: membershipTerms.kind,
      plan: membershipTerms.plan,
      startsAt: membershipTerms.startsAt,
      endsAt: membershipTerms.endsAt,
      activatedAt: membershipTerms.activatedAt,
      orderId: orders.id,
      orderState: orders.state,
      totalMinor: orders.totalMinor,
      currency: orders.currency,
      invoiceNumber: invoices.number,
    })
    .from(membershipTerms)
    .innerJoin(orders, eq(orders.id, membershipTerms.orderId))
    .innerJoin(invoices, eq(invoices.orderId, orders.id))
    .where(eq(membershipTerms.membershipId, membership.id))
    .orderBy(desc(membershipTerms.createdAt));
  const base =
    terms
      .filter((t) => t.activatedAt && t.kind !== "upgrade")
      .sort((a, b) => (b.endsAt as Date).getTime() - (a.endsAt as Date).getTime())[0] ?? null;
  const open = terms.filter((t) => !t.activatedAt && t.orderState === "awaiting_payment");
  const seats =
    membership.plan === "corporate"
      ? await db
          .select({
            id: membershipSeats.id,
            email: membershipSeats.email,
            acceptedAt: membershipSeats.acceptedAt,
            expiresAt: membershipSeats.expiresAt,
          })
          .from(membershipSeats)
          .where(
            and(eq(membershipSeats.membershipId, membership.id), isNull(membershipSeats.revokedAt)),
          )
          .orderBy(asc(membershipSeats.invitedAt))
      : [];
  const baseTerm = base ? { startsAt: base.startsAt as Date, endsAt: base.endsAt as Date } : null;
  return {
    membership,
    baseTerm,
    terms,
    openTerms: open,
    upgradeRequest: await pendingUpgradeRequest(db, membership.id),
    seats,
    seat,
    standing: describeStanding(
      membership,
      baseTerm,
      open.find((t) => t.kind === "join")?.invoiceNumber ?? null,
    ),
  };
}

/** The Corporate membership a person holds an accepted seat of (any state), if any. */
async function getSeatMembership(userId: string) {
  const [row] = await getDb()
    .select({
      organisationName: memberships.organisationName,
      state: memberships.state,
      membershipId: memberships.id,
    })
    .from(membershipSeats)
    .innerJoin(memberships, eq(memberships.id, membershipSeats.membershipId))
    .where(
      and(
        eq(membershipSeats.userId, userId),
        isNotNull(membershipSeats.acceptedAt),
        isNull(membershipSeats.revokedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The validity of a membership's card: its latest paid join/renewal term and its state. */
async function cardValidity(
  membership: { id: string; state: MembershipState; cancelRequestedAt: Date | null },
  now: Date,
) {
  const [term] = await getDb()
    .select({ startsAt: membershipTerms.startsAt, endsAt: membershipTerms.endsAt })
    .from(membershipTerms)
    .where(
      and(
        eq(membershipTerms.membershipId, membership.id),
        isNotNull(membershipTerms.activatedAt),
        inArray(membershipTerms.kind, ["join", "renewal"]),
      ),
    )
    .orderBy(desc(membershipTerms.endsAt))
    .limit(1);
  const validUntil = term?.endsAt ?? null;
  const accessUntil =
    validUntil && !membership.cancelRequestedAt ? addDaysTo(validUntil, GRACE_DAYS) : validUntil;
  const current =
    BENEFIT_STATES.includes(membership.state) &&
    Boolean(term?.startsAt && term.startsAt <= now && accessUntil && now < accessUntil);
  return {
    current,
    validFrom: term?.startsAt ?? null,
    validUntil,
    inGrace: current && validUntil !== null && validUntil <= now,
  };
}

const cardMembershipColumns = {
  id: memberships.id,
  memberName: memberships.memberName,
  organisationName: memberships.organisationName,
  plan: memberships.plan,
  state: memberships.state,
  cancelRequestedAt: memberships.cancelRequestedAt,
};

/**
 * What the public verification page may show: name, plan and validity only. A seat holder's card
 * (decision 0094) names the seat holder and the organisation whose Corporate membership it is
 * part of; it is current while that membership is and the seat is not revoked.
 */
export async function verifyCard(code: string, now = new Date()) {
  const [membership] = await getDb()
    .select(cardMembershipColumns)
    .from(memberships)
    .where(eq(memberships.cardCode, code));
  if (membership) {
    return {
      memberName: membership.memberName,
      plan: membership.plan,
      seatOf: null as string | null,
      ...(await cardValidity(membership, now)),
    };
  }
  const [seat] = await getDb()
    .select({ ...cardMembershipColumns, holder: user.name, revokedAt: membershipSeats.revokedAt })
    .from(membershipSeats)
    .innerJoin(memberships, eq(memberships.id, membershipSeats.membershipId))
    .innerJoin(user, eq(user.id, membershipSeats.userId))
    .where(and(eq(membershipSeats.cardCode, code), isNotNull(membershipSeats.acceptedAt)));
  if (!seat) return null;
  const validity = await cardValidity(seat, now);
  const revoked = Boolean(seat.revokedAt);
  return {
    memberName: seat.holder,
    plan: seat.plan,
    seatOf: seat.organisationName ?? seat.memberName,
    ...validity,
    current: validity.current && !revoked,
    inGrace: validity.inGrace && !revoked,
  };
}

/** The card of the signed-in person: their own membership's, else their Corporate seat's. */
export async function getOwnCard(userId: string) {
  const [row] = await getDb()
    .select({ cardCode: memberships.cardCode })
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        sql`${memberships.state} NOT IN ('rejected', 'cancelled', 'applied')`,
      ),
    )
    .limit(1);
  const own = row ? { code: row.cardCode, ...(await verifyCard(row.cardCode)) } : null;
  if (own?.current) return own;
  const [seat] = await getDb()
    .select({ cardCode: membershipSeats.cardCode })
    .from(membershipSeats)
    .where(
      and(
        eq(membershipSeats.userId, userId),
        isNotNull(membershipSeats.acceptedAt),
        isNull(membershipSeats.revokedAt),
        isNotNull(membershipSeats.cardCode),
      ),
    )
    .limit(1);
  if (seat?.cardCode) return { code: seat.cardCode, ...(await verifyCard(seat.cardCode)) };
  return own;
}

// ---------------------------------------------------------------------------------------------
// Back office (/admin/members)
// ---------------------------------------------------------------------------------------------
export type MemberFilter = {
  state?: MembershipState | null;
  q?: string | null;
  ids?: readonly string[];
};

/** Where a membership's paid terms end (the latest join/renewal). */
const termEndsAt = (membershipId: typeof memberships.id) =>
  sql<Date | null>`(SELECT max(t.ends_at) FROM ${membershipTerms} t
    WHERE t.membership_id = ${membershipId} AND t.activated_at IS NOT NULL
      AND t.kind IN ('join', 'renewal'))`.mapWith((v) => (v ? new Date(v) : null));

/**
 * The Members screen and its CSV: every membership, and every accepted seat of a Corporate
 * membership as a row of its own (`seatOf`: the organisation), in the state of the membership it
 * is part of (decision 0094). `ids` (upgrade requests) selects memberships only.
 */
export async function listMembersForAdmin(filter: MemberFilter, limit = 200) {
  const conditions = [];
  if (filter.state) conditions.push(eq(memberships.state, filter.state));
  if (filter.ids) conditions.push(inArray(memberships.id, [...filter.ids]));
  const q = filter.q?.trim();
  const like = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  if (like) {
    conditions.push(
      or(
        ilike(memberships.memberName, like),
        ilike(user.email, like),
        ilike(memberships.organisationName, like),
      ),
    );
  }
  const own = await getDb()
    .select({
      id: memberships.id,
      memberName: memberships.memberName,
      email: user.email,
      plan: memberships.plan,
      state: memberships.state,
      organisationName: memberships.organisationName,
      taxId: memberships.taxId,
      student: memberships.student,
      studentProofKey: memberships.studentProofKey,
      cancelRequestedAt: memberships.cancelRequestedAt,
      stateChangedAt: memberships.stateChangedAt,
      createdAt: memberships.createdAt,
      endsAt: termEndsAt(memberships.id),
    })
    .from(memberships)
    .innerJoin(user, eq(user.id, memberships.userId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(memberships.stateChangedAt))
    .limit(limit);
  if (filter.ids) return own.map((row) => ({ ...row, seatOf: null as string | null }));
  const seatConditions = [
    isNotNull(membershipSeats.acceptedAt),
    isNull(membershipSeats.revokedAt),
    eq(memberships.plan, "corporate"),
  ];
  if (filter.state) seatConditions.push(eq(memberships.state, filter.state));
  if (like) {
    seatConditions.push(
      or(
        ilike(user.name, like),
        ilike(user.email, like),
        ilike(memberships.organisationName, like),
      ) as ReturnType<typeof eq>,
    );
  }
  const seats = await getDb()
    .select({
      id: membershipSeats.id,
      memberName: user.name,
      email: user.email,
      plan: memberships.plan,
      state: memberships.state,
      organisationName: memberships.organisationName,
      taxId: memberships.taxId,
      cancelRequestedAt: memberships.cancelRequestedAt,
      stateChangedAt: memberships.stateChangedAt,
      createdAt: membershipSeats.acceptedAt,
      endsAt: termEndsAt(memberships.id),
      seatOf: sql<string>`coalesce(${memberships.organisationName}, ${memberships.memberName})`,
    })
    .from(membershipSeats)
    .innerJoin(memberships, eq(memberships.id, membershipSeats.membershipId))
    .innerJoin(user, eq(user.id, membershipSeats.userId))
    .where(and(...seatConditions))
    .orderBy(desc(memberships.stateChangedAt))
    .limit(limit);
  return [
    ...own.map((row) => ({ ...row, seatOf: null as string | null })),
    ...seats.map((row) => ({
      ...row,
      createdAt: row.createdAt as Date,
      student: false,
      studentProofKey: null as string | null,
    })),
  ]
    .sort((a, b) => b.stateChangedAt.getTime() - a.stateChangedAt.getTime())
    .slice(0, limit);
}

export async function countMembersByState() {
  const rows = await getDb()
    .select({ state: memberships.state, n: sql<number>`count(*)::int` })
    .from(memberships)
    .groupBy(memberships.state);
  return Object.fromEntries(rows.map((r) => [r.state, r.n])) as Partial<
    Record<MembershipState, number>
  >;
}

/** The student proof of an application (admins only: the caller checks the role). */
export async function getStudentProofKey(membershipId: string) {
  const [row] = await getDb()
    .select({ key: memberships.studentProofKey })
    .from(memberships)
    .where(eq(memberships.id, membershipId));
  return row?.key ?? null;
}

/** The latest notices with their outcome (the delivery log). */
export async function listNoticeLog(limit = 100) {
  return getDb()
    .select({
      id: membershipNotices.id,
      kind: membershipNotices.kind,
      status: membershipNotices.status,
      reason: membershipNotices.reason,
      attempts: membershipNotices.attempts,
      updatedAt: membershipNotices.updatedAt,
      memberName: memberships.memberName,
    })
    .from(membershipNotices)
    .innerJoin(memberships, eq(memberships.id, membershipNotices.membershipId))
    .orderBy(desc(membershipNotices.updatedAt))
    .limit(limit);
}

/** How late a notice may be before the check counts it as missed (hourly sweep + mail retries). */
export const NOTICE_SLACK_HOURS = 6;

export type MissedNotice = {
  term_id: string;
  membership_id: string;
  member_name: string;
  kind: MembershipNoticeKind;
  due_at: Date;
};

/**
 * "Members who should have had notice X and did not": every paid term whose notice X came due
 * (more than the slack ago, while the term existed) without a sent or skipped log row. Reads 0
 * when the lifecycle works; a failed notice counts as missed.
 */
export async function listMissedNotices(now = new Date()): Promise<MissedNotice[]> {
  const cutoff = new Date(now.getTime() - NOTICE_SLACK_HOURS * 3_600_000).toISOString();
  const kinds = sql.join(
    Object.entries(NOTICE_OFFSET_DAYS).map(([kind, days]) => sql`(${kind}, ${days}::int)`),
    sql`, `,
  );
  const rows = await queryRows<MissedNotice>(sql`
    SELECT t.id AS term_id, m.id AS membership_id, m.member_name, k.kind,
           t.ends_at + k.days * interval '1 day' AS due_at
    FROM ${membershipTerms} t
    JOIN ${memberships} m ON m.id = t.membership_id
    CROSS JOIN (VALUES ${kinds}) AS k(kind, days)
    WHERE t.activated_at IS NOT NULL AND t.kind IN ('join', 'renewal')
      AND t.ends_at + k.days * interval '1 day' <= ${cutoff}::timestamptz
      AND t.activated_at <= t.ends_at + k.days * interval '1 day'
      AND NOT EXISTS (SELECT 1 FROM ${membershipNotices} n WHERE n.term_id = t.id
        AND n.kind::text = k.kind AND n.status IN ('sent', 'skipped'))
    ORDER BY due_at
    LIMIT 200`);
  return rows.map((r) => ({ ...r, due_at: new Date(r.due_at) }));
}

export type RetentionRow = {
  month: string;
  plan: MembershipPlanId | null;
  ending: number;
  renewed: number;
  newMembers: number;
  lapsed: number;
  reactivated: number;
};

/**
 * Retention by month (UTC) for the last 12 months: per plan, terms that ended and how many were
 * renewed; per month, new members (first paid term), lapses and reactivations (from the audit
 * log, dated as of the calendar step that made them).
 */
export async function retentionReport(now = new Date()) {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1)).toISOString();
  const to = now.toISOString();
  const renewals = await queryRows<{
    month: string;
    plan: MembershipPlanId;
    ending: number;
    renewed: number;
  }>(sql`
    SELECT to_char(t.ends_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, t.plan,
           count(*)::int AS ending,
           count(*) FILTER (WHERE EXISTS (SELECT 1 FROM ${membershipTerms} r
             WHERE r.membership_id = t.membership_id AND r.kind = 'renewal'
               AND r.activated_at IS NOT NULL AND r.starts_at >= t.ends_at - interval '1 second'))::int AS renewed
    FROM ${membershipTerms} t
    WHERE t.activated_at IS NOT NULL AND t.kind IN ('join', 'renewal')
      AND t.ends_at >= ${from}::timestamptz AND t.ends_at <= ${to}::timestamptz
    GROUP BY 1, 2 ORDER BY 1, 2`);
  const movements = await queryRows<{
    month: string;
    new_members: number;
    lapsed: number;
    reactivated: number;
  }>(sql`
    WITH firsts AS (
      SELECT min(t.activated_at) AS at FROM ${membershipTerms} t
      WHERE t.activated_at IS NOT NULL GROUP BY t.membership_id
    ), moves AS (
      SELECT coalesce((a.details->>'asOf')::timestamptz, a.created_at) AS at, a.action,
             coalesce(a.details->>'reactivated', 'false') AS reactivated
      FROM audit_log a
      WHERE a.entity = 'membership' AND a.action IN ('membership.lapsed', 'membership.active')
    )
    SELECT month, sum(n)::int AS new_members, sum(l)::int AS lapsed, sum(r)::int AS reactivated FROM (
      SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, 1 AS n, 0 AS l, 0 AS r
        FROM firsts WHERE at >= ${from}::timestamptz
      UNION ALL
      SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM'),
             0, (action = 'membership.lapsed')::int,
             (action = 'membership.active' AND reactivated = 'true')::int
        FROM moves WHERE at >= ${from}::timestamptz
    ) x GROUP BY month ORDER BY month`);
  return {
    renewals: renewals.map((r) => ({
      ...r,
      rate: r.ending ? Math.round((r.renewed / r.ending) * 100) : null,
    })),
    movements: movements.map((m) => ({
      month: m.month,
      newMembers: m.new_members,
      lapsed: m.lapsed,
      reactivated: m.reactivated,
    })),
  };
}

/** The membership a renewal link points at, with its open renewal invoice (if any). */
export async function getRenewalView(membershipId: string) {
  const db = getDb();
  const [membership] = await db
    .select({
      id: memberships.id,
      memberName: memberships.memberName,
      plan: memberships.plan,
      state: memberships.state,
    })
    .from(memberships)
    .where(eq(memberships.id, membershipId));
  if (!membership) return null;
  const [open] = await db
    .select({ orderId: orders.id, invoiceNumber: invoices.number })
    .from(membershipTerms)
    .innerJoin(orders, eq(orders.id, membershipTerms.orderId))
    .innerJoin(invoices, eq(invoices.orderId, orders.id))
    .where(
      and(
        eq(membershipTerms.membershipId, membershipId),
        eq(membershipTerms.kind, "renewal"),
        isNull(membershipTerms.activatedAt),
        eq(orders.state, "awaiting_payment"),
      ),
    )
    .orderBy(desc(orders.createdAt))
    .limit(1);
  return { membership, open: open ?? null };
}

/** What the Membership section of /profile shows (plain, serialisable data). */
export async function getProfileMembership(userId: string, now = new Date()) {
  const overview = await getMembershipOverview(userId);
  if (!overview) return null;
  const { seat } = overview;
  const seatInfo = seat
    ? {
        organisationName: seat.organisationName ?? "your organisation",
        current: BENEFIT_STATES.includes(seat.state),
      }
    : null;
  if (!overview.membership) return { membership: null, seat: seatInfo };
  const { membership, terms, openTerms, seats, standing, baseTerm, upgradeRequest } = overview;
  const canUpgrade =
    membership.state === "active" &&
    !membership.cancelRequestedAt &&
    membership.plan !== "corporate" &&
    !upgradeRequest &&
    !openTerms.some((t) => t.kind === "upgrade");
  const seatExpired = (s: (typeof seats)[number]) => !s.acceptedAt && s.expiresAt <= now;
  return {
    seat: seatInfo,
    membership: {
      id: membership.id,
      plan: membership.plan,
      planName: PLAN_NAMES[membership.plan],
      state: membership.state,
      standing,
      hasCard:
        Boolean(baseTerm) && !["rejected", "cancelled", "applied"].includes(membership.state),
      canCancel:
        ["applied", "awaiting_payment", "grace"].includes(membership.state) ||
        (["active", "renewal_open"].includes(membership.state) && !membership.cancelRequestedAt),
      canUpgrade,
      /** Corporate is reviewed like an application: the Corporate form, not a one-click invoice. */
      canRequestCorporate: canUpgrade,
      upgradeWaitingForReview: Boolean(upgradeRequest),
      needsInvoice:
        membership.state === "awaiting_payment" && !openTerms.some((t) => t.kind === "join"),
      accessUntil: baseTerm ? formatDate(baseTerm.endsAt) : null,
      invoices: terms.map((t) => ({
        orderId: t.orderId,
        invoiceNumber: t.invoiceNumber,
        label: `${t.kind === "join" ? "Membership" : t.kind === "renewal" ? "Renewal" : "Upgrade"} · ${PLAN_NAMES[t.plan]}`,
        total: formatMinor(t.totalMinor, t.currency),
        state: t.orderState,
        period:
          t.startsAt && t.endsAt ? `${formatDate(t.startsAt)} – ${formatDate(t.endsAt)}` : null,
      })),
      seats: seats.map((s) => ({
        id: s.id,
        email: s.email,
        accepted: Boolean(s.acceptedAt),
        expired: seatExpired(s),
        expiresOn: formatDate(s.expiresAt),
      })),
      seatsLeft:
        membership.plan === "corporate"
          ? CORPORATE_SEATS - seats.filter((s) => !seatExpired(s)).length
          : 0,
      canInvite: membership.plan === "corporate" && BENEFIT_STATES.includes(membership.state),
    },
  };
}

export type ProfileMembershipData = Awaited<ReturnType<typeof getProfileMembership>>;

// ---------------------------------------------------------------------------------------------
// The billing contact (decision 0094)
// ---------------------------------------------------------------------------------------------
/**
 * How a membership order's mails address its payer (the order-line reaction `payer`): the
 * account holder by their account name; a billing contact at another address by the name given
 * for them, with a signed link to the invoice and receipts instead of the account's order page.
 */
export async function membershipOrderPayer(order: { id: string; billingEmail: string }) {
  const [row] = await getDb()
    .select({
      billingContactEmail: memberships.billingContactEmail,
      billingContactName: memberships.billingContactName,
      accountEmail: user.email,
      accountName: user.name,
    })
    .from(membershipTerms)
    .innerJoin(memberships, eq(memberships.id, membershipTerms.membershipId))
    .innerJoin(user, eq(user.id, memberships.userId))
    .where(eq(membershipTerms.orderId, order.id))
    .limit(1);
  if (!row) return null;
  const billing = order.billingEmail.trim().toLowerCase();
  if (billing === row.accountEmail.trim().toLowerCase()) return { greetName: row.accountName };
  const named = row.billingContactEmail?.trim().toLowerCase() === billing;
  return {
    greetName: (named && row.billingContactName?.trim()) || null,
    url: billingUrl(order.id),
  };
}

/** The membership an order pays for (the billing link opens membership orders only). */
export async function getMembershipOfOrder(orderId: string) {
  const [row] = await getDb()
    .select({
      memberName: memberships.memberName,
      organisationName: memberships.organisationName,
      plan: memberships.plan,
    })
    .from(membershipTerms)
    .innerJoin(memberships, eq(memberships.id, membershipTerms.membershipId))
    .where(eq(membershipTerms.orderId, orderId))
    .limit(1);
  return row ?? null;
}

/**
 * Current members (issue 30 item 8): the one definition every page that shows a member count
 * uses — people with member benefits, by state: memberships that are active, renewal open or in
 * grace, and the accepted, unrevoked seats of such Corporate memberships. One query.
 */
export async function countCurrentMembers(): Promise<number> {
  const rows = await queryRows<{ n: number | string }>(sql`
    SELECT (SELECT count(*) FROM ${memberships} m WHERE m.state IN ('active', 'renewal_open', 'grace'))
      + (SELECT count(*) FROM ${membershipSeats} s JOIN ${memberships} m ON m.id = s.membership_id
         WHERE m.plan = 'corporate' AND m.state IN ('active', 'renewal_open', 'grace')
           AND s.accepted_at IS NOT NULL AND s.revoked_at IS NULL) AS n`);
  return Number(rows[0]?.n ?? 0);
}
