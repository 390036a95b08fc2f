// M-Pesa Express (STK Push) for unpaid orders (issue 34, decision 0096). Every push we send is a
// row; Daraja's callbacks are unsigned, so a callback is only a hint: it schedules an STK query,
// and only Daraja's own answer that the push succeeded records ONE payment for the push — for the
// amount we asked for, against the push's order, keyed by its CheckoutRequestID. Pushes with no
// callback are queried with backoff until final.
import { and, desc, eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import {
  type Currency,
  invoices,
  type MpesaPushRow,
  type MpesaPushState,
  mpesaPushes,
  orders,
} from "~/db/schema";
import { recordAudit } from "~/lib/audit.server";
import { env } from "~/lib/env.server";
import { fromKesMinor, kesRate, toKesMinor } from "~/lib/exchange-rates.server";
import { type Actor, auditIn, defineMachine, type Tx } from "~/lib/lifecycle.server";
import { logger } from "~/lib/logger.server";
import { formatMinor, isCurrency } from "~/lib/money";
import { DarajaError, daraja, hookUrl, mpesaOnline } from "~/lib/payments/daraja.server";
import { maskPhone, normaliseKenyanPhone, PHONE_MESSAGE } from "~/lib/payments/phone";
import { enqueueJob } from "~/models/jobs.server";
import { orderBalance } from "./balance";
import { ORDER_JOBS } from "./job-kinds";
import { OrderError } from "./order-error";
import { recordProviderPaymentIn } from "./orders.server";

const SYSTEM: Actor = { system: "mpesa" };

export const PUSH_TRANSITIONS: Record<MpesaPushState, readonly MpesaPushState[]> = {
  pending: ["paid", "cancelled", "timed_out", "failed"],
  paid: [],
  cancelled: [],
  timed_out: [],
  failed: [],
};

export const pushMachine = defineMachine<MpesaPushState, MpesaPushRow>({
  entity: "mpesa_push",
  noun: "M-Pesa request",
  table: mpesaPushes,
  transitions: PUSH_TRANSITIONS,
  error: (message, status) => new OrderError(message, status),
});

/** First query of a push with no final answer, then doubling, at most this long apart. */
export const FIRST_QUERY_AFTER_MS = 60_000;
const MAX_QUERY_GAP_MS = 10 * 60_000;
/** A push Daraja still calls "processing" after this long is given up as failed. */
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;
/** While a push younger than this is pending, another is not sent for the same order. */
export const PUSH_PENDING_WINDOW_MS = 3 * 60_000;

/** Delay before query round `round` (1-based): 60 s, then 30 s, 60 s, 2 min … ≤ 10 min. */
export function queryDelayMs(round: number) {
  if (round <= 1) return FIRST_QUERY_AFTER_MS;
  return Math.min(15_000 * 2 ** (round - 1), MAX_QUERY_GAP_MS);
}

/**
 * What M-Pesa can ask for an order: its balance due in whole shillings (a foreign-currency order
 * at the KES_RATES rate, rounded up), the rate used, and this push's part (at most
 * MPESA_MAX_AMOUNT). Null when M-Pesa cannot pay it (no rate, nothing due).
 */
export function mpesaAmounts(order: { currency: string; dueMinor: number }) {
  if (order.dueMinor <= 0 || !isCurrency(order.currency)) return null;
  const currency = order.currency as Currency;
  const rate = currency === "KES" ? null : kesRate(currency);
  if (currency !== "KES" && !rate) return null;
  const kesMinor = rate ? toKesMinor(order.dueMinor, currency, rate) : order.dueMinor;
  const dueKes = Math.ceil(kesMinor / 100);
  const max = env().MPESA_MAX_AMOUNT;
  const partKes = Math.min(dueKes, max);
  const creditMinor = rate ? fromKesMinor(partKes * 100, currency, rate) : partKes * 100;
  return {
    currency,
    rate,
    dueKes,
    partKes,
    /** How many pushes the balance takes at the limit. */
    parts: Math.ceil(dueKes / max),
    creditMinor: Math.max(creditMinor, 1),
  };
}

export type PushView = {
  id: string;
  state: MpesaPushState;
  amount: string;
  phone: string;
  resultDesc: string | null;
  receipt: string | null;
  createdAt: string;
};

function viewOf(push: MpesaPushRow): PushView {
  return {
    id: push.id,
    state: push.state,
    amount: formatMinor(push.amountKes * 100, "KES"),
    phone: maskPhone(push.phone),
    resultDesc: push.resultDesc,
    receipt: push.state === "paid" ? push.callbackReceipt : null,
    createdAt: push.createdAt.toISOString(),
  };
}

/** The order's latest push (what its page shows and polls). */
export async function latestPush(orderId: string): Promise<PushView | null> {
  const [push] = await getDb()
    .select()
    .from(mpesaPushes)
    .where(eq(mpesaPushes.orderId, orderId))
    .orderBy(desc(mpesaPushes.createdAt))
    .limit(1);
  return push ? viewOf(push) : null;
}

/** The latest pushes of every order, for staff (phones masked). */
export async function listRecentPushes(limit = 50) {
  const rows = await getDb()
    .select({ push: mpesaPushes, invoiceNumber: invoices.number })
    .from(mpesaPushes)
    .innerJoin(invoices, eq(invoices.orderId, mpesaPushes.orderId))
    .orderBy(desc(mpesaPushes.createdAt))
    .limit(limit);
  return rows.map(({ push, invoiceNumber }) => ({ ...viewOf(push), invoiceNumber }));
}

/**
 * Sends an STK push for an unpaid order (the route has checked the person may see it): the
 * balance due in whole shillings, or its next part when above MPESA_MAX_AMOUNT. The push row,
 * its audit row and the first query (in about a minute) commit together once Daraja accepted it.
 */
export async function startStkPush(input: { orderId: string; phone: string; actor: Actor }) {
  const client = daraja();
  if (!client || !mpesaOnline()) throw new OrderError("M-Pesa payments are not available.", 409);
  const phone = normaliseKenyanPhone(input.phone);
  if (!phone) throw new OrderError(PHONE_MESSAGE, 400, "phone");
  const db = getDb();
  const [row] = await db
    .select({ order: orders, reference: invoices.paymentReference })
    .from(orders)
    .innerJoin(invoices, eq(invoices.orderId, orders.id))
    .where(eq(orders.id, input.orderId));
  if (!row) throw new OrderError("Order not found", 404);
  const { order } = row;
  if (order.state !== "awaiting_payment") {
    throw new OrderError("This order is not awaiting payment.", 409);
  }
  const amounts = mpesaAmounts({
    currency: order.currency,
    dueMinor: orderBalance(order).dueMinor,
  });
  if (!amounts) throw new OrderError("M-Pesa cannot pay this order.", 409);
  const [recent] = await db
    .select({ id: mpesaPushes.id })
    .from(mpesaPushes)
    .where(
      and(
        eq(mpesaPushes.orderId, order.id),
        eq(mpesaPushes.state, "pending"),
        sql`${mpesaPushes.createdAt} > now() - ${PUSH_PENDING_WINDOW_MS} * interval '1 millisecond'`,
      ),
    )
    .limit(1);
  if (recent) {
    throw new OrderError(
      "A payment request is already on its way to your phone. Enter your M-Pesa PIN there, or wait a few minutes and try again.",
      409,
    );
  }
  let answer: Awaited<ReturnType<typeof client.stkPush>>;
  try {
    answer = await client.stkPush({
      phone,
      amountKes: amounts.partKes,
      accountReference: row.reference,
      transactionDesc: "Kongamano",
      callbackUrl: hookUrl("stk"),
    });
  } catch (error) {
    if (!(error instanceof DarajaError)) throw error;
    logger.warn({ err: error, orderId: order.id }, "STK push refused");
    throw new OrderError(`M-Pesa could not send the request: ${error.message}`, 409);
  }
  return db.transaction(async (tx) => {
    const [push] = await tx
      .insert(mpesaPushes)
      .values({
        orderId: order.id,
        amountKes: amounts.partKes,
        creditMinor: amounts.creditMinor,
        exchangeRate: amounts.rate,
        phone,
        merchantRequestId: answer.merchantRequestId,
        checkoutRequestId: answer.checkoutRequestId,
        requestedBy: "id" in input.actor ? input.actor.id : null,
      })
      .returning();
    await auditIn(tx, input.actor, "mpesa_push.request", push.id, {
      orderId: order.id,
      amountKes: amounts.partKes,
      exchangeRate: amounts.rate,
      phone: maskPhone(phone),
      checkoutRequestId: answer.checkoutRequestId,
    });
    await enqueueQuery(tx, push.id, 1);
    return viewOf(push);
  });
}

function enqueueQuery(tx: Tx, pushId: string, round: number) {
  return enqueueJob(tx, {
    kind: ORDER_JOBS.mpesaPushQuery,
    payload: { pushId, round },
    runAt: new Date(Date.now() + queryDelayMs(round)),
    uniqueKey: `mpesa-push:${pushId}:query:${round}`,
  });
}

// ---------------------------------------------------------------------------------------------
// Callbacks: hints only
// ---------------------------------------------------------------------------------------------
export type StkCallback = {
  checkoutRequestId: string;
  resultCode: number;
  resultDesc: string;
  receipt: string | null;
  amount: number | null;
};

/** Daraja's Body.stkCallback, or null when the body is not one. */
export function parseStkCallback(body: unknown): StkCallback | null {
  const callback = (body as { Body?: { stkCallback?: Record<string, unknown> } })?.Body
    ?.stkCallback;
  if (!callback || typeof callback !== "object") return null;
  const checkoutRequestId = callback.CheckoutRequestID;
  const resultCode = Number(callback.ResultCode);
  if (typeof checkoutRequestId !== "string" || !checkoutRequestId || checkoutRequestId.length > 100)
    return null;
  if (!Number.isInteger(resultCode)) return null;
  const items = (callback.CallbackMetadata as { Item?: unknown })?.Item;
  const item = (name: string) =>
    Array.isArray(items)
      ? (items.find((i) => (i as { Name?: unknown })?.Name === name) as { Value?: unknown })?.Value
      : undefined;
  const receipt = item("MpesaReceiptNumber");
  const amount = Number(item("Amount"));
  return {
    checkoutRequestId,
    resultCode,
    resultDesc: String(callback.ResultDesc ?? "").slice(0, 300),
    receipt:
      typeof receipt === "string" && /^[A-Z0-9]{6,20}$/i.test(receipt)
        ? receipt.toUpperCase()
        : null,
    amount: Number.isFinite(amount) ? amount : null,
  };
}

/** Leaves a security-centre entry (the Security Center lists `mpesa.callback_forged`). */
async function securityEntry(request: Request | null, details: Record<string, unknown>) {
  await recordAudit(request, {
    action: "mpesa.callback_forged",
    entity: "mpesa_push",
    entityId: typeof details.pushId === "string" ? details.pushId : null,
    details,
  });
}

/**
 * An STK callback arrived: nothing is recorded from it. A known push gets the reported receipt
 * noted and a query scheduled at once; an unknown CheckoutRequestID is a security-centre entry.
 */
export async function acceptStkCallback(body: unknown, request: Request | null) {
  const callback = parseStkCallback(body);
  if (!callback) {
    await securityEntry(request, { reason: "not an STK callback" });
    return "ignored" as const;
  }
  const db = getDb();
  const [push] = await db
    .select({ id: mpesaPushes.id, state: mpesaPushes.state })
    .from(mpesaPushes)
    .where(eq(mpesaPushes.checkoutRequestId, callback.checkoutRequestId));
  if (!push) {
    await securityEntry(request, {
      reason: "unknown CheckoutRequestID",
      checkoutRequestId: callback.checkoutRequestId,
      resultCode: callback.resultCode,
    });
    return "unknown" as const;
  }
  await db.transaction(async (tx) => {
    // The first receipt reported is kept (shown as "reported by the callback" once confirmed).
    await tx
      .update(mpesaPushes)
      .set({
        callbackAt: sql`coalesce(${mpesaPushes.callbackAt}, now())`,
        ...(callback.resultCode === 0 && callback.receipt
          ? { callbackReceipt: sql`coalesce(${mpesaPushes.callbackReceipt}, ${callback.receipt})` }
          : {}),
      })
      .where(eq(mpesaPushes.id, push.id));
    await auditIn(tx, SYSTEM, "mpesa_push.callback", push.id, {
      resultCode: callback.resultCode,
      resultDesc: callback.resultDesc,
      receipt: callback.receipt,
    });
    if (push.state === "pending") {
      await enqueueJob(tx, {
        kind: ORDER_JOBS.mpesaPushQuery,
        payload: { pushId: push.id, round: 0, afterCallback: callback.resultCode },
        uniqueKey: `mpesa-push:${push.id}:callback`,
      });
    }
  });
  return "accepted" as const;
}

// ---------------------------------------------------------------------------------------------
// Confirmation: Daraja's STK query decides
// ---------------------------------------------------------------------------------------------
function finalState(resultCode: number): MpesaPushState {
  if (resultCode === 0) return "paid";
  if (resultCode === 1032) return "cancelled";
  if (resultCode === 1037) return "timed_out";
  return "failed";
}

/**
 * Asks Daraja about a push (the query job). Still processing: asked again later (backoff), not an
 * error. Final: under the push's row lock, a pending push moves to its final state, and a
 * success records one payment for the amount we asked for. A callback that claimed success for a
 * push Daraja calls anything else is a security-centre entry.
 */
export async function confirmPush(pushId: string, round: number, now = new Date()) {
  const client = daraja();
  const db = getDb();
  const [push] = await db.select().from(mpesaPushes).where(eq(mpesaPushes.id, pushId));
  if (push?.state !== "pending" || !client) return push?.state ?? null;
  const answer = await client.stkQuery(push.checkoutRequestId);
  if (answer.state === "pending") {
    await db.transaction(async (tx) => {
      await tx
        .update(mpesaPushes)
        .set({ queries: sql`${mpesaPushes.queries} + 1` })
        .where(eq(mpesaPushes.id, pushId));
      if (now.getTime() - push.createdAt.getTime() > GIVE_UP_AFTER_MS) {
        const locked = await pushMachine.lock(tx, pushId);
        if (locked.state === "pending") {
          await pushMachine.move(tx, locked, "failed", SYSTEM, {
            set: { resultDesc: "No final answer from M-Pesa", finishedAt: now },
            details: { reason: "still processing after a day" },
          });
        }
        return;
      }
      await enqueueQuery(tx, pushId, Math.max(round, 1) + 1);
    });
    return "pending" as const;
  }
  const to = finalState(answer.resultCode);
  return db.transaction(async (tx) => {
    const locked = await pushMachine.lock(tx, pushId);
    await tx
      .update(mpesaPushes)
      .set({ queries: sql`${mpesaPushes.queries} + 1` })
      .where(eq(mpesaPushes.id, pushId));
    if (locked.state !== "pending") return locked.state;
    let paymentId: string | null = null;
    if (to === "paid") {
      const recorded = await recordProviderPaymentIn(
        tx,
        {
          orderId: locked.orderId,
          method: "mpesa",
          reference: locked.checkoutRequestId,
          kesMinor: locked.amountKes * 100,
          exchangeRate: locked.exchangeRate,
          paidAt: locked.callbackAt ?? now,
          payerAccount: null,
          mpesaReceipt: locked.callbackReceipt,
          receiptStatus: locked.callbackReceipt ? "reported" : "to_be_matched",
          payerPhone: locked.phone,
        },
        SYSTEM,
      );
      paymentId = recorded.paymentId;
    } else if (locked.callbackReceipt) {
      // Someone told us this push succeeded, with a receipt; Daraja says it did not.
      await auditIn(tx, SYSTEM, "mpesa.callback_forged", locked.id, {
        reason: `callback claimed success; Daraja answered ${answer.resultCode}`,
        checkoutRequestId: locked.checkoutRequestId,
        reportedReceipt: locked.callbackReceipt,
      });
    }
    await pushMachine.move(tx, locked, to, SYSTEM, {
      set: {
        resultCode: answer.resultCode,
        resultDesc: answer.resultDesc,
        paymentId,
        finishedAt: now,
        ...(to === "paid" ? {} : { callbackReceipt: null }),
      },
      details: {
        resultCode: answer.resultCode,
        resultDesc: answer.resultDesc,
        ...(paymentId ? { paymentId } : {}),
      },
    });
    return to;
  });
}

/** Job handler: one round of asking about a push. */
export async function runPushQuery(payload: { pushId: string; round?: number }) {
  await confirmPush(payload.pushId, payload.round ?? 1);
}
