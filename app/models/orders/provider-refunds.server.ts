// Refunds back to the source (issue 31, decision 0100). For a payment an online provider took
// (payments.provider: Paystack, PayPal) the money goes back through the provider's API, and the
// refund is recorded only when the provider confirms it:
//
//   1. reserve   — one transaction under the order's and the payment's row locks: refuse more
//                  than the payment (and the order) has left, less what other provider refunds
//                  still on their way hold; insert a provider_refunds row `requested` + audit.
//   2. ask       — outside any transaction: RefundingProvider.refund (provider.ts).
//   3. settle    — one transaction under the request's row lock:
//                  completed → recordRefundIn (refund row, credit note, mail, the payment's and the
//                              order's states: a part leaves the order paid, all of it `refunded`),
//                              request → completed, linked to the refund;
//                  pending   → request → pending, a query job asks again with backoff;
//                  failed    → request → failed (the reservation is freed), shown to staff.
//      A provider that could not be reached leaves the request `requested` (still reserved):
//      whether it took the refund is not known, so it is not asked again blindly; staff see it.
//
// M-Pesa and offline refunds stay recorded by staff with their reference (recordRefund).
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import {
  type OnlineProviderName,
  type ProviderRefundRow,
  type ProviderRefundState,
  payments,
  providerRefunds,
} from "~/db/schema";
import { type Actor, actorId, auditIn, defineMachine, isPerson } from "~/lib/lifecycle.server";
import { logger } from "~/lib/logger.server";
import { formatMinor } from "~/lib/money";
import { PROVIDER_METHOD } from "~/lib/payments/methods";
import {
  type ProviderRefundResult,
  ProviderUnavailableError,
  type RefundingProvider,
} from "~/lib/payments/provider";
import { refunderFor } from "~/lib/payments/refunders.server";
import { hasRole } from "~/lib/roles";
import { enqueueJob } from "~/models/jobs.server";
import { ORDER_JOBS } from "./job-kinds";
import { OrderError } from "./order-error";
import { orderMachine, recordRefundIn } from "./orders.server";
import { paymentMachine, refundableOf, reservedForRefunds } from "./payments.server";

const SYSTEM: Actor = { system: "provider-refunds" };

export const PROVIDER_REFUND_TRANSITIONS: Record<
  ProviderRefundState,
  readonly ProviderRefundState[]
> = {
  requested: ["pending", "completed", "failed"],
  pending: ["completed", "failed"],
  completed: [],
  failed: [],
};

export const providerRefundMachine = defineMachine<ProviderRefundState, ProviderRefundRow>({
  entity: "provider_refund",
  noun: "refund",
  table: providerRefunds,
  transitions: PROVIDER_REFUND_TRANSITIONS,
  error: (message, status) => new OrderError(message, status),
});

export const PROVIDER_NAMES: Record<OnlineProviderName, string> = {
  paystack: "Paystack",
  paypal: "PayPal",
};

/** Asking again about a refund still on its way: 1 min, 2, 4 … at most an hour apart. */
export function refundQueryDelayMs(round: number) {
  return Math.min(60_000 * 2 ** Math.max(round - 1, 0), 3_600_000);
}
/** A refund still not final after this long is left to staff (it stays reserved and visible). */
export const REFUND_GIVE_UP_ROUNDS = 30;

export type ProviderRefundInput = {
  orderId: string;
  paymentId: string;
  amountMinor: number;
  reason?: string | null;
};

export type ProviderRefundOutcome = {
  request: ProviderRefundRow;
  /** Set when the provider confirmed it at once. */
  creditNoteNumber: string | null;
  orderState: string | null;
};

/**
 * Refunds (part of) a payment a provider took, through that provider (admins only; not their own
 * order). Returns the request as it stands: completed (with its credit note), pending, or failed
 * (the provider's reason). Refused with 400 when more than is left is asked for.
 */
export async function refundThroughProvider(
  input: ProviderRefundInput,
  actor: Actor,
): Promise<ProviderRefundOutcome> {
  if (isPerson(actor) && !hasRole(actor.role, "admin")) {
    throw new OrderError("Only admins can record refunds.", 403);
  }
  if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0) {
    throw new OrderError("Enter an amount greater than 0.", 400);
  }
  const db = getDb();
  const { request, refunder, paymentReference } = await db.transaction(async (tx) => {
    const order = await orderMachine.lock(tx, input.orderId);
    if (isPerson(actor) && order.buyerId === actor.id) {
      throw new OrderError(
        "You bought this order, so you cannot record a refund for it; ask another staff member.",
        403,
      );
    }
    const [owner] = await tx
      .select({ orderId: payments.orderId })
      .from(payments)
      .where(eq(payments.id, input.paymentId));
    if (!owner) throw new OrderError("Payment not found", 404);
    if (owner.orderId !== order.id) {
      throw new OrderError("This payment is not on this order; choose one of its payments.", 400);
    }
    const payment = await paymentMachine.lock(tx, input.paymentId);
    if (!payment.provider) {
      throw new OrderError(
        "This payment was not made online; record its refund with the reference of the money sent back.",
        400,
      );
    }
    const refunder = refunderFor(payment.provider);
    if (!refunder) {
      throw new OrderError(
        `${PROVIDER_NAMES[payment.provider]} is not configured, so this payment cannot be refunded through it now.`,
        409,
      );
    }
    const orderLeft =
      order.paidMinor - order.refundedMinor - (await reservedForRefunds(tx, { orderId: order.id }));
    const paymentLeft =
      refundableOf(payment) - (await reservedForRefunds(tx, { paymentId: payment.id }));
    const left = Math.min(orderLeft, paymentLeft);
    if (input.amountMinor > left) {
      throw new OrderError(
        left <= 0
          ? `Nothing of payment ${payment.reference} is left to refund.`
          : `At most ${formatMinor(left, payment.currency)} can be refunded from payment ${payment.reference}: what it paid and was not refunded or asked back yet.`,
        400,
      );
    }
    const [request] = await tx
      .insert(providerRefunds)
      .values({
        orderId: order.id,
        paymentId: payment.id,
        provider: payment.provider,
        amountMinor: input.amountMinor,
        currency: payment.currency,
        reason: input.reason?.trim() || null,
        requestedBy: actorId(actor),
      })
      .returning();
    await auditIn(tx, actor, "provider_refund.request", request.id, {
      orderId: order.id,
      paymentId: payment.id,
      provider: payment.provider,
      amountMinor: input.amountMinor,
      currency: payment.currency,
    });
    return { request, refunder, paymentReference: payment.reference };
  });
  let result: ProviderRefundResult;
  try {
    result = await refunder.refund({
      paymentReference,
      amountMinor: request.amountMinor,
      currency: request.currency,
      requestId: request.id,
      note: request.reason ?? undefined,
    });
  } catch (error) {
    if (!(error instanceof ProviderUnavailableError)) throw error;
    // Whether the provider took it is not known: asking again could refund twice. The request
    // stays `requested` (its amount reserved) and listed for staff, who check the provider's
    // dashboard (decision 0100).
    logger.warn({ err: error, requestId: request.id }, "provider refund: provider away");
    return { request, creditNoteNumber: null, orderState: null };
  }
  return settleProviderRefund(request.id, result, actor, 1);
}

/**
 * Applies what the provider said about a refund request, once, under the request's row lock (a
 * webhook, the query job and the first answer may race: the first final answer wins).
 */
export async function settleProviderRefund(
  requestId: string,
  result: ProviderRefundResult,
  actor: Actor = SYSTEM,
  round = 1,
): Promise<ProviderRefundOutcome> {
  return getDb().transaction(async (tx) => {
    const request = await providerRefundMachine.lock(tx, requestId);
    if (request.state === "completed" || request.state === "failed") {
      return { request, creditNoteNumber: null, orderState: null };
    }
    if (result.status === "pending") {
      let updated = request;
      if (request.state === "requested") {
        updated = await providerRefundMachine.move(tx, request, "pending", actor, {
          set: { providerRefundId: result.providerRefundId },
          details: { providerRefundId: result.providerRefundId },
        });
      }
      if (round <= REFUND_GIVE_UP_ROUNDS) {
        await enqueueJob(tx, {
          kind: ORDER_JOBS.providerRefundQuery,
          payload: { requestId, round },
          runAt: new Date(Date.now() + refundQueryDelayMs(round)),
          uniqueKey: `provider-refund:${requestId}:query:${round}`,
        });
      }
      return { request: updated, creditNoteNumber: null, orderState: null };
    }
    if (result.status === "failed") {
      const updated = await providerRefundMachine.move(tx, request, "failed", actor, {
        set: {
          failure: result.reason.slice(0, 500),
          providerRefundId: result.providerRefundId ?? request.providerRefundId,
          finishedAt: new Date(),
        },
        details: { reason: result.reason.slice(0, 500) },
      });
      return { request: updated, creditNoteNumber: null, orderState: null };
    }
    // Completed: the provider says the money went back. Recorded for what we asked (the
    // provider's amount is logged when it differs; it never decides more than was reserved).
    if (result.amountMinor !== request.amountMinor || result.currency !== request.currency) {
      logger.warn(
        { requestId, asked: request.amountMinor, confirmed: result.amountMinor },
        "provider refund confirmed with another amount",
      );
    }
    const recorded = await recordRefundIn(
      tx,
      {
        orderId: request.orderId,
        paymentId: request.paymentId,
        amountMinor: request.amountMinor,
        method: PROVIDER_METHOD[request.provider],
        reference: result.providerRefundId,
        reason: request.reason,
      },
      // The refund was asked for by a person; its recording is theirs when they are here.
      actor,
      { requestId },
    );
    const updated = await providerRefundMachine.move(tx, request, "completed", actor, {
      set: {
        providerRefundId: result.providerRefundId,
        refundId: recorded.refund.id,
        finishedAt: new Date(),
      },
      details: { creditNote: recorded.refund.creditNoteNumber, refundId: recorded.refund.id },
    });
    return {
      request: updated,
      creditNoteNumber: recorded.refund.creditNoteNumber,
      orderState: recorded.order.state,
    };
  });
}

/** The query job: asks the provider again about a refund not final yet. */
export async function runProviderRefundQuery(payload: { requestId: string; round?: number }) {
  const round = payload.round ?? 1;
  const [request] = await getDb()
    .select()
    .from(providerRefunds)
    .where(eq(providerRefunds.id, payload.requestId));
  if (!request || request.state === "completed" || request.state === "failed") return;
  const refunder: RefundingProvider | null = refunderFor(request.provider);
  if (!refunder) return;
  if (!request.providerRefundId) {
    // Never answered: whether the provider took it is not known. Left for staff (decision 0100).
    logger.warn({ requestId: request.id }, "provider refund without an answer; left for staff");
    return;
  }
  const result = await refunder.queryRefund(request.providerRefundId);
  await settleProviderRefund(request.id, result, SYSTEM, round + 1);
}

/** A provider's refund webhook names its refund: a hint to ask now. */
export async function refundHint(provider: OnlineProviderName, providerRefundId: string) {
  const [request] = await getDb()
    .select({ id: providerRefunds.id, state: providerRefunds.state })
    .from(providerRefunds)
    .where(
      and(
        eq(providerRefunds.provider, provider),
        eq(providerRefunds.providerRefundId, providerRefundId),
      ),
    );
  if (!request || (request.state !== "requested" && request.state !== "pending")) return false;
  await enqueueJob(getDb(), {
    kind: ORDER_JOBS.providerRefundQuery,
    payload: { requestId: request.id, round: 1 },
    uniqueKey: `provider-refund:${request.id}:hint:${providerRefundId}`,
  });
  return true;
}

export type ProviderRefundView = {
  id: string;
  provider: string;
  state: ProviderRefundState;
  amount: string;
  failure: string | null;
  createdAt: string;
};

/**
 * An order's refunds through providers still on their way (requested, pending), for its page;
 * with `failed` too for staff.
 */
export async function openProviderRefunds(
  orderId: string,
  withFailed = false,
): Promise<ProviderRefundView[]> {
  const rows = await getDb()
    .select()
    .from(providerRefunds)
    .where(
      and(
        eq(providerRefunds.orderId, orderId),
        inArray(
          providerRefunds.state,
          withFailed ? ["requested", "pending", "failed"] : ["requested", "pending"],
        ),
      ),
    )
    .orderBy(desc(providerRefunds.createdAt));
  return rows.map((r) => ({
    id: r.id,
    provider: PROVIDER_NAMES[r.provider],
    state: r.state,
    amount: formatMinor(r.amountMinor, r.currency),
    failure: r.failure,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** Refunds asked of providers and not final, for staff (newest first). */
export async function listPendingProviderRefunds(limit = 50) {
  return getDb()
    .select({
      id: providerRefunds.id,
      orderId: providerRefunds.orderId,
      provider: providerRefunds.provider,
      state: providerRefunds.state,
      amountMinor: providerRefunds.amountMinor,
      currency: providerRefunds.currency,
      createdAt: providerRefunds.createdAt,
      ageSeconds: sql<number>`extract(epoch from now() - ${providerRefunds.createdAt})::int`,
    })
    .from(providerRefunds)
    .where(inArray(providerRefunds.state, ["requested", "pending"]))
    .orderBy(desc(providerRefunds.createdAt))
    .limit(limit);
}
