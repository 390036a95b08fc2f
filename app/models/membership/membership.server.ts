// Memberships: every way a membership, its terms, its notice log and its corporate seats can
// change — one exported function per transition, each in one transaction with its audit row
// (style.md rule 11). Money goes through orders (the invoice, payments, receipts); a paid
// membership order activates its term in the order's unlock job (the wiring module's reaction).
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import {
  type MembershipNoticeKind,
  type MembershipPlanId,
  type MembershipRow,
  type MembershipState,
  type MembershipTermRow,
  membershipNotices,
  membershipSeats,
  memberships,
  membershipTerms,
  membershipUpgradeRequests,
  orders,
  user,
} from "~/db/schema";
import { env } from "~/lib/env.server";
import { formatDate } from "~/lib/format";
import {
  type Actor,
  actorId,
  auditIn,
  DomainError,
  defineMachine,
  isPerson,
  type Tx,
} from "~/lib/lifecycle.server";
import { hasRole } from "~/lib/roles";
import { enqueueJob, enqueueMail } from "~/models/jobs.server";
import { cancelOrder, createOrder } from "~/models/orders/orders.server";
import { MEMBERSHIP_JOBS } from "./job-kinds";
import {
  applicationApprovedMail,
  applicationRejectedMail,
  type ForBilling,
  membershipLapsedMail,
  upgradeApprovedMail,
  upgradeRejectedMail,
} from "./membership-mails";
import {
  addDays,
  addOneYear,
  CORPORATE_SEATS,
  GRACE_DAYS,
  JOIN_HOLD_DAYS,
  MEMBERSHIP_CURRENCY,
  NOTICE_KINDS,
  noticeDueAt,
  PLAN_NAMES,
  PLAN_PRICE_MINOR,
  planPriceMinor,
  RENEWAL_OPENS_DAYS,
  SEAT_INVITATION_DAYS,
  upgradeAmountMinor,
} from "./plans";
import {
  type CorporateDetails,
  corporateDetails,
  pendingUpgradeRequest,
  UPGRADE_REVIEW,
} from "./queries.server";
import { billingUrl } from "./renewal-link.server";

export type { Actor };

/** Every legal state change of a membership; anything else is refused. */
export const MEMBERSHIP_TRANSITIONS: Record<MembershipState, readonly MembershipState[]> = {
  // Staff approve (→ awaiting_payment) or reject; the applicant may withdraw.
  applied: ["awaiting_payment", "rejected", "cancelled"],
  awaiting_payment: ["active", "cancelled"],
  active: ["renewal_open", "cancelled"],
  renewal_open: ["active", "grace", "cancelled"],
  grace: ["active", "lapsed", "cancelled"],
  // A lapsed member re-joins (new invoice), or pays the renewal invoice late.
  lapsed: ["awaiting_payment", "active"],
  rejected: [],
  cancelled: [],
};

/** The memberships' refusals (the domain error, under the name their routes catch). */
export class MembershipError extends DomainError {}

export const membershipMachine = defineMachine<MembershipState, MembershipRow>({
  entity: "membership",
  noun: "membership",
  table: memberships,
  transitions: MEMBERSHIP_TRANSITIONS,
  error: (message, status) => new MembershipError(message, status),
});

export const canTransition = membershipMachine.canMove;

const lockMembership = membershipMachine.lock;

/** The membership's move, dated `at` (the calendar sweep runs "as of" a date). */
function changeState(
  tx: Tx,
  membership: MembershipRow,
  to: MembershipState,
  actor: Actor,
  details: Record<string, unknown> = {},
  extra: Partial<MembershipRow> = {},
  at = new Date(),
) {
  return membershipMachine.move(tx, membership, to, actor, {
    set: { stateChangedAt: at, ...extra },
    details,
  });
}

function assertOwnerOrAdmin(membership: MembershipRow, actor: Actor) {
  if (!isPerson(actor)) return;
  if (membership.userId === actor.id || hasRole(actor.role, "admin")) return;
  throw new MembershipError("Membership not found", 404);
}

function assertAdmin(actor: Actor) {
  if (isPerson(actor) && !hasRole(actor.role, "admin")) {
    throw new MembershipError("Only admins can review memberships.", 403);
  }
}

/** The latest paid join/renewal term: the one that decides the dates (upgrades only change the plan). */
export async function currentBaseTerm(
  db: Pick<Tx, "select">,
  membershipId: string,
): Promise<(MembershipTermRow & { startsAt: Date; endsAt: Date }) | null> {
  const [term] = await db
    .select()
    .from(membershipTerms)
    .where(
      and(
        eq(membershipTerms.membershipId, membershipId),
        isNotNull(membershipTerms.activatedAt),
        inArray(membershipTerms.kind, ["join", "renewal"]),
      ),
    )
    .orderBy(desc(membershipTerms.endsAt))
    .limit(1);
  return (term as MembershipTermRow & { startsAt: Date; endsAt: Date }) ?? null;
}

/** Creates a pending term with its order (and invoice); the term is dated once the order is paid. */
async function createTermOrder(
  tx: Tx,
  membership: MembershipRow,
  buyer: { id: string; name: string; email: string },
  term: { kind: "join" | "renewal" | "upgrade"; plan: MembershipPlanId; amountMinor: number },
  holdMs: number,
  description: string,
) {
  const termId = crypto.randomUUID();
  const { order, invoiceNumber } = await createOrder(
    {
      buyer,
      organisationName: membership.organisationName,
      taxId: membership.taxId,
      currency: MEMBERSHIP_CURRENCY,
      holdMs: Math.max(holdMs, 86_400_000),
      lines: [
        {
          kind: "membership_term",
          referenceId: termId,
          description,
          quantity: 1,
          unitAmountMinor: term.amountMinor,
        },
      ],
    },
    tx,
  );
  await tx.insert(membershipTerms).values({
    id: termId,
    membershipId: membership.id,
    kind: term.kind,
    plan: term.plan,
    orderId: order.id,
  });
  return { termId, orderId: order.id, invoiceNumber };
}

function joinDescription(plan: MembershipPlanId, student: boolean) {
  return `${PLAN_NAMES[plan]} membership, one year${student ? " (student rate, 50% off)" : ""}`;
}

async function buyerOf(tx: Tx, membership: MembershipRow) {
  const [person] = await tx
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .where(eq(user.id, membership.userId));
  if (!person) throw new MembershipError("The member's account no longer exists.", 404);
  return {
    id: person.id,
    name: membership.billingContactName || membership.memberName || person.name,
    email: membership.billingContactEmail || person.email,
  };
}

type MailRecipient = { to: string; greetName: string | null; forBilling?: ForBilling };

/**
 * Who the membership's mail goes to, each greeted by their own name (decision 0094): the
 * applicant at their account address, and the billing contact (when one was given at another
 * address) with the billing variant of the mail.
 */
async function recipientsOf(tx: Tx, membership: MembershipRow): Promise<MailRecipient[]> {
  const [person] = await tx
    .select({ email: user.email, name: user.name })
    .from(user)
    .where(eq(user.id, membership.userId));
  if (!person) throw new MembershipError("The member's account no longer exists.", 404);
  const applicant: MailRecipient = { to: person.email, greetName: person.name };
  const billing = membership.billingContactEmail?.trim();
  if (!billing || billing.toLowerCase() === person.email.trim().toLowerCase()) return [applicant];
  return [
    applicant,
    {
      to: billing,
      greetName: membership.billingContactName?.trim() || null,
      forBilling: { applicant: person.name, organisationName: membership.organisationName },
    },
  ];
}

/** One enqueued mail per recipient, keyed apart so each is sent once. */
async function enqueueForEach(
  tx: Tx,
  recipients: MailRecipient[],
  key: string,
  render: (recipient: MailRecipient) => { subject: string; text: string; html: string },
) {
  for (const recipient of recipients) {
    await enqueueMail(tx, recipient.forBilling ? `${key}:billing` : key, {
      to: recipient.to,
      ...render(recipient),
    });
  }
}

const profileUrl = () => `${env().BASE_URL}/profile#membership`;

/** The pending (unpaid, open) term of a kind, with its order, if any. */
async function pendingTerm(tx: Tx, membershipId: string, kind: "join" | "renewal" | "upgrade") {
  const [row] = await tx
    .select({ termId: membershipTerms.id, orderId: orders.id })
    .from(membershipTerms)
    .innerJoin(orders, eq(orders.id, membershipTerms.orderId))
    .where(
      and(
        eq(membershipTerms.membershipId, membershipId),
        eq(membershipTerms.kind, kind),
        isNull(membershipTerms.activatedAt),
        eq(orders.state, "awaiting_payment"),
      ),
    )
    .limit(1);
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------
// Applying
// ---------------------------------------------------------------------------------------------
export type ApplicationInput = {
  plan: MembershipPlanId;
  memberName: string;
  organisationName?: string | null;
  taxId?: string | null;
  billingContactName?: string | null;
  billingContactEmail?: string | null;
  /** A stored proof of student status: the application waits for staff approval. */
  studentProofKey?: string | null;
};

/** What a Corporate membership needs, applying or upgrading (the apply form's messages). */
export type { CorporateDetails };

function assertCorporateDetails(details: CorporateDetails) {
  const required = [
    ["organisationName", "Enter the organisation's name"],
    ["taxId", "Enter the KRA PIN or VAT number"],
    ["billingContactEmail", "Enter the billing contact's e-mail address"],
  ] as const;
  for (const [field, message] of required) {
    if (!details[field]?.trim()) throw new MembershipError(message, 400, field);
  }
}

/** Applications that staff review before an invoice is issued. */
export function needsReview(input: { plan: MembershipPlanId; studentProofKey?: string | null }) {
  return input.plan === "corporate" || Boolean(input.studentProofKey);
}

/**
 * A person applies for a plan: a new membership (or their lapsed one, re-joining). Without
 * anything to review, it goes straight to awaiting_payment with its order and invoice;
 * student and corporate applications wait in `applied` for staff.
 */
export async function applyForMembership(
  person: { id: string; name: string; email: string; request?: Request | null },
  input: ApplicationInput,
) {
  const actor: Actor = { id: person.id, role: "user", request: person.request };
  if (input.plan === "corporate") assertCorporateDetails(input);
  return getDb().transaction(async (tx) => {
    const [live] = await tx
      .select()
      .from(memberships)
      .where(
        and(
          eq(memberships.userId, person.id),
          sql`${memberships.state} NOT IN ('rejected', 'cancelled')`,
        ),
      )
      .for("update");
    if (live && live.state !== "lapsed") {
      throw new MembershipError("You already have a membership: see your profile.", 409);
    }
    const details = {
      plan: input.plan,
      memberName: input.memberName.trim(),
      ...corporateDetails(input),
      student: false,
      studentProofKey: input.studentProofKey ?? null,
      rejectionReason: null,
      cancelRequestedAt: null,
    };
    const review = needsReview(input);
    let membership: MembershipRow;
    if (live) {
      // Re-joining: the same membership (and card) comes back, with a new application.
      [membership] = await tx
        .update(memberships)
        .set(details)
        .where(eq(memberships.id, live.id))
        .returning();
      await auditIn(tx, actor, "membership.rejoin", live.id, { plan: input.plan });
      if (review) {
        throw new MembershipError(
          "To re-join with a student or corporate application, please contact us.",
          400,
        );
      }
    } else {
      [membership] = await tx
        .insert(memberships)
        .values({
          ...details,
          userId: person.id,
          state: "applied",
          cardCode: randomBytes(16).toString("base64url"),
        })
        .returning();
      await auditIn(tx, actor, "membership.applied", membership.id, {
        to: "applied",
        plan: input.plan,
        review,
      });
    }
    if (review) return { membership, invoiceNumber: null, orderId: null };
    return issueJoinInvoice(tx, membership, actor, "applied automatically (nothing to review)");
  });
}

/** The first year's term with its order and invoice, at the plan's (student) price. */
async function createJoinTermOrder(tx: Tx, membership: MembershipRow) {
  return createTermOrder(
    tx,
    membership,
    await buyerOf(tx, membership),
    {
      kind: "join",
      plan: membership.plan,
      amountMinor: planPriceMinor(membership.plan, membership.student),
    },
    JOIN_HOLD_DAYS * 86_400_000,
    joinDescription(membership.plan, membership.student),
  );
}

async function issueJoinInvoice(tx: Tx, membership: MembershipRow, actor: Actor, note: string) {
  const { orderId, invoiceNumber } = await createJoinTermOrder(tx, membership);
  const updated = await changeState(tx, membership, "awaiting_payment", actor, {
    note,
    invoice: invoiceNumber,
  });
  return { membership: updated, invoiceNumber, orderId };
}

/** A person whose invoice expired (or was cancelled) asks for a new one. */
export async function reissueJoinInvoice(membershipId: string, actor: Actor) {
  return getDb().transaction(async (tx) => {
    const membership = await lockMembership(tx, membershipId);
    assertOwnerOrAdmin(membership, actor);
    if (membership.state !== "awaiting_payment") {
      throw new MembershipError("This membership is not waiting for a payment.");
    }
    const open = await pendingTerm(tx, membership.id, "join");
    if (open) return open;
    const created = await createJoinTermOrder(tx, membership);
    await auditIn(tx, actor, "membership.invoice_reissued", membership.id, {
      invoice: created.invoiceNumber,
    });
    return created;
  });
}

/**
 * Staff approve an application (student proof, corporate) and the invoice is issued; for an
 * active member's Corporate upgrade request, the upgrade invoice is issued instead.
 */
export async function approveApplication(membershipId: string, actor: Actor, now = new Date()) {
  assertAdmin(actor);
  return getDb().transaction(async (tx) => {
    let membership = await lockMembership(tx, membershipId);
    if (membership.state !== "applied") return approveUpgradeRequest(tx, membership, actor, now);
    if (membership.studentProofKey && !membership.student) {
      [membership] = await tx
        .update(memberships)
        .set({ student: true })
        .where(eq(memberships.id, membership.id))
        .returning();
    }
    const result = await issueJoinInvoice(tx, membership, actor, "approved");
    await enqueueForEach(
      tx,
      await recipientsOf(tx, membership),
      `membership:${membership.id}:approved:${result.invoiceNumber}`,
      ({ greetName, forBilling }) =>
        applicationApprovedMail({
          greetName,
          plan: membership.plan,
          student: membership.student,
          invoiceNumber: result.invoiceNumber,
          profileUrl: profileUrl(),
          forBilling: forBilling && { ...forBilling, invoiceUrl: billingUrl(result.orderId, now) },
        }),
    );
    return result;
  });
}

/** Staff reject an application (or an upgrade request); the reason is e-mailed to the person. */
export async function rejectApplication(membershipId: string, reason: string, actor: Actor) {
  assertAdmin(actor);
  const why = reason.trim();
  if (!why) throw new MembershipError("Give the reason (it is e-mailed to the applicant).", 400);
  return getDb().transaction(async (tx) => {
    const membership = await lockMembership(tx, membershipId);
    if (membership.state !== "applied") return rejectUpgradeRequest(tx, membership, why, actor);
    const updated = await changeState(
      tx,
      membership,
      "rejected",
      actor,
      { reason: why },
      { rejectionReason: why },
    );
    // The applicant's own mail: a rejection has nothing for the billing contact to do.
    const [applicant] = await recipientsOf(tx, membership);
    await enqueueMail(tx, `membership:${membership.id}:rejected`, {
      to: applicant.to,
      ...applicationRejectedMail({
        greetName: applicant.greetName,
        plan: membership.plan,
        reason: why,
        applyUrl: `${env().BASE_URL}/membership`,
      }),
    });
    return updated;
  });
}

// ---------------------------------------------------------------------------------------------
// Payment → active (the unlock job of a paid order calls this, possibly more than once)
// ---------------------------------------------------------------------------------------------
/**
 * Dates and activates the term its order paid for. Idempotent: a term is activated once, however
 * many times the job runs (the membership row is locked while deciding).
 */
export async function activateTerm(termId: string, now = new Date()) {
  return getDb().transaction(async (tx) => {
    const [found] = await tx
      .select({ membershipId: membershipTerms.membershipId })
      .from(membershipTerms)
      .where(eq(membershipTerms.id, termId));
    if (!found) return null;
    const membership = await lockMembership(tx, found.membershipId);
    const [term] = await tx.select().from(membershipTerms).where(eq(membershipTerms.id, termId));
    if (term.activatedAt) return null;
    const actor: Actor = { system: "membership-payment" };
    const base = await currentBaseTerm(tx, membership.id);
    let startsAt: Date;
    let endsAt: Date;
    if (term.kind === "upgrade") {
      if (!base || base.endsAt <= now) return null; // nothing left to upgrade
      startsAt = now;
      endsAt = base.endsAt;
    } else if (term.kind === "renewal" && base && addDays(base.endsAt, GRACE_DAYS) > now) {
      // Renewed before the grace ended: the new year follows on without a gap.
      startsAt = base.endsAt;
      endsAt = addOneYear(base.endsAt);
    } else {
      startsAt = now;
      endsAt = addOneYear(now);
    }
    await tx
      .update(membershipTerms)
      .set({ startsAt, endsAt, activatedAt: now })
      .where(eq(membershipTerms.id, term.id));
    await auditIn(tx, actor, "membership_term.activated", term.id, {
      membershipId: membership.id,
      kind: term.kind,
      plan: term.plan,
      startsAt: startsAt.toISOString(),
      endsAt: endsAt.toISOString(),
    });
    if (term.kind === "upgrade") {
      await tx
        .update(memberships)
        .set({ plan: term.plan })
        .where(eq(memberships.id, membership.id));
      await auditIn(tx, actor, "membership.plan_changed", membership.id, {
        from: membership.plan,
        to: term.plan,
      });
      return { membershipId: membership.id, state: membership.state };
    }
    if (membership.state === "active") return { membershipId: membership.id, state: "active" };
    const reactivated = membership.state === "lapsed";
    const updated = await changeState(
      tx,
      membership,
      "active",
      actor,
      { term: term.id, ...(reactivated ? { reactivated: true } : {}) },
      { plan: term.plan, cancelRequestedAt: null },
      now,
    );
    return { membershipId: membership.id, state: updated.state };
  });
}

// ---------------------------------------------------------------------------------------------
// Time moving forward: renewal_open → grace → lapsed, cancellations at period end, notices
// ---------------------------------------------------------------------------------------------
/** Renewal invoice for a membership whose renewal is open (created once; reused while unpaid). */
async function ensureRenewalOrder(
  tx: Tx,
  membership: MembershipRow,
  base: { endsAt: Date },
  now: Date,
) {
  const open = await pendingTerm(tx, membership.id, "renewal");
  if (open) return open;
  const buyer = await buyerOf(tx, membership);
  const graceEnd = addDays(base.endsAt, GRACE_DAYS);
  return createTermOrder(
    tx,
    membership,
    buyer,
    {
      kind: "renewal",
      plan: membership.plan,
      amountMinor: planPriceMinor(membership.plan, membership.student),
    },
    // Held until the end of grace (measured from the real clock the order's expiry runs on).
    graceEnd.getTime() - Math.min(now.getTime(), Date.now()),
    `${PLAN_NAMES[membership.plan]} membership renewal, ${formatDate(base.endsAt)} to ${formatDate(addOneYear(base.endsAt))}${membership.student ? " (student rate, 50% off)" : ""}`,
  );
}

/** A renewal invoice for the one-click link (the member asks for it again after cancelling it). */
export async function openRenewalInvoice(membershipId: string, now = new Date()) {
  return getDb().transaction(async (tx) => {
    const membership = await lockMembership(tx, membershipId);
    if (membership.state !== "renewal_open" && membership.state !== "grace") return null;
    const base = await currentBaseTerm(tx, membership.id);
    if (!base) return null;
    return ensureRenewalOrder(tx, membership, base, now);
  });
}

/**
 * Moves one membership to where the calendar says it is `at`, one audited step at a time
 * (a membership several steps behind — the worker was down — takes each step).
 */
async function advanceMembership(membershipId: string, at: Date) {
  return getDb().transaction(async (tx) => {
    let membership = await lockMembership(tx, membershipId);
    const base = await currentBaseTerm(tx, membership.id);
    if (!base) return membership.state;
    const actor: Actor = { system: "membership-calendar" };
    const details = { asOf: at.toISOString(), termEnd: base.endsAt.toISOString() };
    for (;;) {
      const { state } = membership;
      if (membership.cancelRequestedAt && (state === "active" || state === "renewal_open")) {
        if (base.endsAt > at) break;
        membership = await changeState(tx, membership, "cancelled", actor, details, {}, at);
        continue;
      }
      if (state === "active" && addDays(base.endsAt, -RENEWAL_OPENS_DAYS) <= at) {
        membership = await changeState(tx, membership, "renewal_open", actor, details, {}, at);
        await ensureRenewalOrder(tx, membership, base, at);
      } else if (state === "renewal_open" && base.endsAt <= at) {
        membership = await changeState(tx, membership, "grace", actor, details, {}, at);
      } else if (state === "grace" && addDays(base.endsAt, GRACE_DAYS) <= at) {
        membership = await changeState(tx, membership, "lapsed", actor, details, {}, at);
        await tellLapsed(tx, membership, base.endsAt);
      } else {
        break;
      }
    }
    return membership.state;
  });
}

/** The lapse mail (issue 30), once per lapsed term, to the member (the one who can join again). */
async function tellLapsed(tx: Tx, membership: MembershipRow, endedAt: Date) {
  const [applicant] = await recipientsOf(tx, membership).catch(() => []);
  if (!applicant) return;
  await enqueueMail(tx, `membership:${membership.id}:lapsed:${endedAt.toISOString()}`, {
    to: applicant.to,
    ...membershipLapsedMail({
      greetName: applicant.greetName,
      plan: membership.plan,
      endedAt,
      rejoinUrl: `${env().BASE_URL}/membership/apply/${membership.plan}`,
    }),
  });
}

/**
 * The calendar sweep (hourly schedule; tests run it "as of" any date — decision 0050): advances
 * every membership with a paid term, then enqueues each renewal notice that has come due and has
 * no log row yet (one job per term and kind, by unique key, so a notice is never sent twice).
 */
export async function sweepMemberships(at = new Date()) {
  const db = getDb();
  const due = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(
        inArray(memberships.state, ["active", "renewal_open", "grace"]),
        // Only memberships whose renewal has opened by `at` can have a step to take.
        sql`(SELECT max(t.ends_at) FROM ${membershipTerms} t WHERE t.membership_id = ${memberships.id}
          AND t.activated_at IS NOT NULL AND t.kind IN ('join', 'renewal'))
          - ${RENEWAL_OPENS_DAYS} * interval '1 day' <= ${at.toISOString()}::timestamptz`,
      ),
    );
  for (const { id } of due) await advanceMembership(id, at);

  const terms = await db
    .select({
      termId: membershipTerms.id,
      membershipId: membershipTerms.membershipId,
      endsAt: membershipTerms.endsAt,
      activatedAt: membershipTerms.activatedAt,
      logged: sql<MembershipNoticeKind[]>`coalesce((
        SELECT array_agg(n.kind::text) FROM ${membershipNotices} n
        WHERE n.term_id = ${membershipTerms.id} AND n.status <> 'failed'), '{}')`,
    })
    .from(membershipTerms)
    .where(
      and(
        isNotNull(membershipTerms.activatedAt),
        inArray(membershipTerms.kind, ["join", "renewal"]),
        sql`${membershipTerms.endsAt} - ${RENEWAL_OPENS_DAYS} * interval '1 day' <= ${at.toISOString()}::timestamptz`,
        sql`(SELECT count(*) FROM ${membershipNotices} n WHERE n.term_id = ${membershipTerms.id} AND n.status <> 'failed') < ${NOTICE_KINDS.length}`,
      ),
    );
  let enqueued = 0;
  for (const term of terms) {
    const endsAt = term.endsAt as Date;
    for (const kind of NOTICE_KINDS) {
      const dueAt = noticeDueAt(endsAt, kind);
      if (dueAt > at || term.logged.includes(kind)) continue;
      if ((term.activatedAt as Date) > dueAt) continue; // the term did not exist yet
      const { created } = await enqueueJob(db, {
        kind: MEMBERSHIP_JOBS.notice,
        payload: { termId: term.termId, kind, asOf: at.toISOString() },
        uniqueKey: `membership-notice:${term.termId}:${kind}`,
      });
      if (created) enqueued++;
    }
  }
  return { advanced: due.length, noticesEnqueued: enqueued };
}

/** The delivery log row of a notice: sent, skipped (with the reason) or failed (retried). */
export async function recordNoticeOutcome(
  notice: { membershipId: string; termId: string; kind: MembershipNoticeKind },
  status: "sent" | "skipped" | "failed",
  reason: string | null = null,
) {
  await getDb().transaction(async (tx) => {
    const [row] = await tx
      .insert(membershipNotices)
      .values({ ...notice, status, reason })
      .onConflictDoUpdate({
        target: [membershipNotices.termId, membershipNotices.kind],
        set: { status, reason, attempts: sql`${membershipNotices.attempts} + 1` },
        // A notice once sent or skipped stays so.
        setWhere: sql`${membershipNotices.status} = 'failed'`,
      })
      .returning({ id: membershipNotices.id });
    if (row) {
      await auditIn(tx, { system: "membership-notices" }, `membership_notice.${status}`, row.id, {
        ...notice,
        ...(reason ? { reason } : {}),
      });
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Cancelling and upgrading (FAQ)
// ---------------------------------------------------------------------------------------------
/**
 * The member cancels: access continues until the end of the paid term (then `cancelled`), the
 * open renewal invoice is withdrawn. Before anything was paid, the application is withdrawn now.
 */
export async function cancelMembership(membershipId: string, actor: Actor, now = new Date()) {
  const pendingOrders = await getDb().transaction(async (tx) => {
    const membership = await lockMembership(tx, membershipId);
    assertOwnerOrAdmin(membership, actor);
    const open = await tx
      .select({ orderId: orders.id })
      .from(membershipTerms)
      .innerJoin(orders, eq(orders.id, membershipTerms.orderId))
      .where(
        and(
          eq(membershipTerms.membershipId, membership.id),
          isNull(membershipTerms.activatedAt),
          eq(orders.state, "awaiting_payment"),
        ),
      );
    if (
      membership.state === "applied" ||
      membership.state === "awaiting_payment" ||
      membership.state === "grace"
    ) {
      await changeState(tx, membership, "cancelled", actor, { at: "now" }, {}, now);
    } else if (membership.state === "active" || membership.state === "renewal_open") {
      if (membership.cancelRequestedAt) {
        throw new MembershipError("Your membership is already cancelled at the period end.");
      }
      await tx
        .update(memberships)
        .set({ cancelRequestedAt: now })
        .where(eq(memberships.id, membership.id));
      const base = await currentBaseTerm(tx, membership.id);
      await auditIn(tx, actor, "membership.cancel_requested", membership.id, {
        accessUntil: base?.endsAt.toISOString() ?? null,
      });
    } else {
      throw new MembershipError(
        `A ${membership.state.replace("_", " ")} membership cannot be cancelled.`,
      );
    }
    return open.map((o) => o.orderId);
  });
  for (const orderId of pendingOrders) {
    await cancelOrder(orderId, { system: "membership-cancelled" }, "membership cancelled");
  }
}

/** The prorated upgrade invoice; the plan changes when it is paid (activateTerm). */
async function issueUpgradeInvoice(
  tx: Tx,
  membership: MembershipRow,
  to: MembershipPlanId,
  actor: Actor,
  now: Date,
) {
  const open = await pendingTerm(tx, membership.id, "upgrade");
  if (open) throw new MembershipError("An upgrade invoice is already waiting for payment.");
  const base = await currentBaseTerm(tx, membership.id);
  if (!base) throw new MembershipError("Only an active membership can be upgraded.");
  const amountMinor = upgradeAmountMinor(membership.plan, to, membership.student, base, now);
  const buyer = await buyerOf(tx, membership);
  const created = await createTermOrder(
    tx,
    membership,
    buyer,
    { kind: "upgrade", plan: to, amountMinor },
    JOIN_HOLD_DAYS * 86_400_000,
    `Upgrade from ${PLAN_NAMES[membership.plan]} to ${PLAN_NAMES[to]} until ${formatDate(base.endsAt)} (prorated)`,
  );
  await auditIn(tx, actor, "membership.upgrade_requested", membership.id, {
    from: membership.plan,
    to,
    amountMinor,
    invoice: created.invoiceNumber,
  });
  return { ...created, amountMinor };
}

function assertUpgradable(membership: MembershipRow, to: MembershipPlanId) {
  if (membership.state !== "active" || membership.cancelRequestedAt) {
    throw new MembershipError("Only an active membership can be upgraded.");
  }
  if (PLAN_PRICE_MINOR[to] <= PLAN_PRICE_MINOR[membership.plan]) {
    throw new MembershipError("Choose a plan above your current one.", 400);
  }
}

/**
 * Upgrade to a dearer plan: an invoice for the prorated difference; the plan changes when paid.
 * Corporate is not sold this way: it is reviewed like an application (requestCorporateUpgrade).
 */
export async function startUpgrade(
  membershipId: string,
  to: MembershipPlanId,
  actor: Actor,
  now = new Date(),
) {
  return getDb().transaction(async (tx) => {
    const membership = await lockMembership(tx, membershipId);
    assertOwnerOrAdmin(membership, actor);
    assertUpgradable(membership, to);
    if (to === "corporate") {
      throw new MembershipError(
        "A Corporate upgrade is reviewed like an application: use the Corporate application form.",
        400,
      );
    }
    if (await pendingUpgradeRequest(tx, membership.id)) {
      throw new MembershipError("Your upgrade to Corporate is waiting for review.");
    }
    return issueUpgradeInvoice(tx, membership, to, actor, now);
  });
}

/**
 * An active member asks to become Corporate: the same details as a Corporate application, and
 * the same review (staff approve → the prorated upgrade invoice; reject → the reason by e-mail).
 * Nothing is invoiced and the plan does not change until staff approve.
 */
export async function requestCorporateUpgrade(
  membershipId: string,
  details: CorporateDetails,
  actor: Actor,
) {
  assertCorporateDetails(details);
  return getDb().transaction(async (tx) => {
    const membership = await lockMembership(tx, membershipId);
    assertOwnerOrAdmin(membership, actor);
    assertUpgradable(membership, "corporate");
    if (await pendingUpgradeRequest(tx, membership.id)) {
      throw new MembershipError("Your upgrade to Corporate is already waiting for review.");
    }
    if (await pendingTerm(tx, membership.id, "upgrade")) {
      throw new MembershipError("An upgrade invoice is already waiting for payment.");
    }
    await tx.insert(membershipUpgradeRequests).values({
      membershipId: membership.id,
      fromPlan: membership.plan,
      toPlan: "corporate",
      ...corporateDetails(details),
    });
    await auditIn(tx, actor, UPGRADE_REVIEW.requested, membership.id, {
      from: membership.plan,
      to: "corporate",
    });
    return membership;
  });
}

function decideUpgradeRequest(
  tx: Tx,
  requestId: string,
  decision: "approved" | "rejected",
  actor: Actor,
  now: Date,
) {
  return tx
    .update(membershipUpgradeRequests)
    .set({ decision, decidedAt: now, decidedBy: actorId(actor) })
    .where(eq(membershipUpgradeRequests.id, requestId));
}

async function approveUpgradeRequest(tx: Tx, current: MembershipRow, actor: Actor, now: Date) {
  const request = await pendingUpgradeRequest(tx, current.id);
  if (!request) {
    throw new MembershipError("Only applications waiting for review can be approved.");
  }
  assertUpgradable(current, request.to);
  const [membership] = await tx
    .update(memberships)
    .set(corporateDetails(request))
    .where(eq(memberships.id, current.id))
    .returning();
  const result = await issueUpgradeInvoice(tx, membership, request.to, actor, now);
  await decideUpgradeRequest(tx, request.id, "approved", actor, now);
  await auditIn(tx, actor, UPGRADE_REVIEW.approved, membership.id, {
    to: request.to,
    invoice: result.invoiceNumber,
  });
  await enqueueForEach(
    tx,
    await recipientsOf(tx, membership),
    `membership:${membership.id}:upgrade-approved:${result.invoiceNumber}`,
    ({ greetName, forBilling }) =>
      upgradeApprovedMail({
        greetName,
        from: membership.plan,
        to: request.to,
        invoiceNumber: result.invoiceNumber,
        profileUrl: profileUrl(),
        forBilling: forBilling && { ...forBilling, invoiceUrl: billingUrl(result.orderId, now) },
      }),
  );
  return { membership, invoiceNumber: result.invoiceNumber, orderId: result.orderId };
}

async function rejectUpgradeRequest(tx: Tx, membership: MembershipRow, why: string, actor: Actor) {
  const request = await pendingUpgradeRequest(tx, membership.id);
  if (!request) {
    throw new MembershipError("Only applications waiting for review can be rejected.");
  }
  await decideUpgradeRequest(tx, request.id, "rejected", actor, new Date());
  await auditIn(tx, actor, UPGRADE_REVIEW.rejected, membership.id, { to: request.to, reason: why });
  const [applicant] = await recipientsOf(tx, membership);
  await enqueueMail(
    tx,
    `membership:${membership.id}:upgrade-rejected:${request.requestedAt.getTime()}`,
    {
      to: applicant.to,
      ...upgradeRejectedMail({
        greetName: applicant.greetName,
        plan: membership.plan,
        to: request.to,
        reason: why,
        profileUrl: profileUrl(),
      }),
    },
  );
  return membership;
}

// ---------------------------------------------------------------------------------------------
// Corporate seats
// ---------------------------------------------------------------------------------------------
export function hashSeatToken(token: string) {
  return createHash("sha256").update(token).digest("hex");
}

/** A hash nobody holds the token of: the working link is made when the mail is sent. */
function unusableSeatTokenHash() {
  return hashSeatToken(randomBytes(24).toString("base64url"));
}

/**
 * The corporate contact invites a colleague by e-mail (up to 10 seats taken or invited, an
 * expired invitation not counting). Inviting an address again renews its invitation: a new
 * expiry, and the earlier link stops working. The token is made by the mail job at send time
 * (issueSeatInvitationLink), so it is never stored, nor in a job payload (decision 0076).
 */
export async function inviteSeat(
  membershipId: string,
  email: string,
  actor: Actor,
  now = new Date(),
) {
  const address = email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) {
    throw new MembershipError("Enter a valid e-mail address.", 400);
  }
  return getDb().transaction(async (tx) => {
    const membership = await lockMembership(tx, membershipId);
    assertOwnerOrAdmin(membership, actor);
    if (membership.plan !== "corporate") {
      throw new MembershipError("Only a Corporate membership has team seats.", 400);
    }
    if (!["active", "renewal_open", "grace"].includes(membership.state)) {
      throw new MembershipError("Seats can be given while the membership is active.", 400);
    }
    const live = and(
      eq(membershipSeats.membershipId, membership.id),
      isNull(membershipSeats.revokedAt),
    );
    const [existing] = await tx
      .select()
      .from(membershipSeats)
      .where(and(live, eq(membershipSeats.email, address)));
    if (existing?.acceptedAt) throw new MembershipError("This colleague already has a seat.", 400);
    const [{ n }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(membershipSeats)
      .where(
        and(
          live,
          sql`${membershipSeats.email} <> ${address}`,
          sql`(${membershipSeats.acceptedAt} IS NOT NULL OR ${membershipSeats.expiresAt} > ${now.toISOString()}::timestamptz)`,
        ),
      );
    if (n >= CORPORATE_SEATS) {
      throw new MembershipError(`All ${CORPORATE_SEATS} team seats are taken.`, 400);
    }
    const invitation = {
      invitedAt: now,
      expiresAt: addDays(now, SEAT_INVITATION_DAYS),
      tokenHash: unusableSeatTokenHash(),
    };
    let seat: typeof membershipSeats.$inferSelect | undefined;
    if (existing) {
      [seat] = await tx
        .update(membershipSeats)
        .set(invitation)
        .where(eq(membershipSeats.id, existing.id))
        .returning();
    } else {
      [seat] = await tx
        .insert(membershipSeats)
        .values({ membershipId: membership.id, email: address, ...invitation })
        .onConflictDoNothing()
        .returning();
      if (!seat) throw new MembershipError("This colleague is already invited.", 400);
    }
    await auditIn(
      tx,
      actor,
      existing ? "membership_seat.reinvited" : "membership_seat.invited",
      seat.id,
      {
        membershipId: membership.id,
        email: address,
        expiresAt: invitation.expiresAt.toISOString(),
      },
    );
    await enqueueJob(tx, {
      kind: MEMBERSHIP_JOBS.seatInvite,
      payload: { seatId: seat.id, invitedAt: now.toISOString() },
      uniqueKey: `membership-seat-invite:${seat.id}:${now.getTime()}`,
    });
    return seat;
  });
}

/**
 * At send time (the invitation mail job): a fresh token whose hash replaces the seat's, so only
 * the link in the mail being sent works. Null when there is nothing to send any more: the seat
 * was accepted, removed, has expired, or was invited again since (`invitedAt` moved on).
 */
export async function issueSeatInvitationLink(seatId: string, invitedAt: string, now = new Date()) {
  const token = randomBytes(24).toString("base64url");
  return getDb().transaction(async (tx) => {
    const [seat] = await tx
      .select()
      .from(membershipSeats)
      .where(eq(membershipSeats.id, seatId))
      .for("update");
    if (!seat || seat.revokedAt || seat.acceptedAt || seat.expiresAt <= now) return null;
    if (seat.invitedAt.getTime() !== new Date(invitedAt).getTime()) return null;
    const [membership] = await tx
      .select({
        memberName: memberships.memberName,
        organisationName: memberships.organisationName,
      })
      .from(memberships)
      .where(eq(memberships.id, seat.membershipId));
    await tx
      .update(membershipSeats)
      .set({ tokenHash: hashSeatToken(token) })
      .where(eq(membershipSeats.id, seat.id));
    return {
      token,
      email: seat.email,
      expiresAt: seat.expiresAt,
      memberName: membership.memberName,
      organisationName: membership.organisationName,
    };
  });
}

/** What a signed-in account that is not the invited one is told (never the invited address). */
export const SEAT_NOT_FOR_YOU =
  "This invitation is not for the account you are signed in with. Sign in with the e-mail address the invitation was sent to.";
export const SEAT_EXPIRED =
  "This invitation has expired. Ask the colleague who invited you to send a new one.";

/** The invited colleague accepts, signed in with the invited address, before the expiry. */
export async function acceptSeat(
  token: string,
  person: { id: string; email: string },
  now = new Date(),
) {
  return getDb().transaction(async (tx) => {
    const [seat] = await tx
      .select()
      .from(membershipSeats)
      .where(eq(membershipSeats.tokenHash, hashSeatToken(token)))
      .for("update");
    if (!seat || seat.revokedAt) throw new MembershipError("This invitation is not valid.", 404);
    if (seat.email !== person.email.toLowerCase()) throw new MembershipError(SEAT_NOT_FOR_YOU, 403);
    if (seat.acceptedAt) return seat;
    if (seat.expiresAt <= now) throw new MembershipError(SEAT_EXPIRED, 410);
    const [updated] = await tx
      .update(membershipSeats)
      // The seat holder's own card, verified like a member's (decision 0094).
      .set({ userId: person.id, acceptedAt: now, cardCode: randomBytes(16).toString("base64url") })
      .where(eq(membershipSeats.id, seat.id))
      .returning();
    await auditIn(tx, { id: person.id, role: "user" }, "membership_seat.accepted", seat.id, {
      membershipId: seat.membershipId,
    });
    return updated;
  });
}

/** The corporate contact frees a seat. */
export async function revokeSeat(seatId: string, actor: Actor) {
  return getDb().transaction(async (tx) => {
    const [seat] = await tx.select().from(membershipSeats).where(eq(membershipSeats.id, seatId));
    if (!seat) throw new MembershipError("Seat not found", 404);
    const membership = await lockMembership(tx, seat.membershipId);
    assertOwnerOrAdmin(membership, actor);
    if (seat.revokedAt) return;
    await tx
      .update(membershipSeats)
      .set({ revokedAt: new Date() })
      .where(eq(membershipSeats.id, seat.id));
    await auditIn(tx, actor, "membership_seat.revoked", seat.id, { membershipId: membership.id });
  });
}
