// PayPal (Orders v2) for unpaid orders (issue 31, decision 0103). Every PayPal order we create is a
// row (paypal_checkouts): the balance due when the buyer started, in the order's currency. The
// buyer approves on PayPal and comes back; we capture then. A capture is recorded ONCE, as one
// payment whose reference is PayPal's capture id, whichever reaches us first: the buyer's return
// (our own capture call, PayPal's answer) or the PAYMENT.CAPTURE.COMPLETED webhook — which counts
// only once PayPal's verify-webhook-signature says SUCCESS and PayPal's own order agrees with what
// the webhook claims and with what we asked (status, amount, currency). Both paths take the
// order's row lock, then the checkout's, and only a checkout not yet captured records.
import { randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import {
  invoices,
  orders,
  type PaypalCheckoutRow,
  type PaypalCheckoutState,
  paypalCheckouts,
} from "~/db/schema";
import { recordAudit } from "~/lib/audit.server";
import { env } from "~/lib/env.server";
import { type Actor, auditIn } from "~/lib/lifecycle.server";
import { logger } from "~/lib/logger.server";
import { formatMinor } from "~/lib/money";
import {
  type PaypalCapture,
  PaypalError,
  type PaypalOrder,
  parseCapture,
  paypal,
  paypalTakes,
} from "~/lib/payments/paypal.server";
import { orderBalance } from "./balance";
import { OrderError } from "./order-error";
import { orderMachine, recordOnlinePaymentIn } from "./orders.server";
import { paypalCheckoutMachine } from "./paypal-checkouts.server";

const SYSTEM: Actor = { system: "paypal" };

/** The security-centre entry for a webhook PayPal does not vouch for (high risk). */
export const PAYPAL_FORGED_ACTION = "paypal.webhook_forged";

/** Where PayPal sends webhooks: configure this URL (and its id, PAYPAL_WEBHOOK_ID) at PayPal. */
export const PAYPAL_WEBHOOK_PATH = "/api/payments/hooks/paypal/webhook";

export function paypalReturnUrl(orderId: string) {
  return `${env().BASE_URL}/orders/${orderId}/paypal/return`;
}

export function paypalCancelUrl(orderId: string) {
  return `${env().BASE_URL}/orders/${orderId}/paypal/cancel`;
}

/** What PayPal would be asked for: the balance due of an unpaid order in USD, EUR or GBP. */
export function paypalDue(order: { state: string; currency: string; dueMinor: number }) {
  if (order.state !== "awaiting_payment" || order.dueMinor <= 0) return null;
  return paypalTakes(order.currency) ? order.dueMinor : null;
}

export type PaypalCheckoutView = {
  state: PaypalCheckoutState;
  amount: string;
  failure: string | null;
};

/** The order's latest PayPal attempt (what its page says about it). */
export async function latestPaypalCheckout(orderId: string): Promise<PaypalCheckoutView | null> {
  const [row] = await getDb()
    .select()
    .from(paypalCheckouts)
    .where(eq(paypalCheckouts.orderId, orderId))
    .orderBy(desc(paypalCheckouts.createdAt))
    .limit(1);
  return row
    ? { state: row.state, amount: formatMinor(row.amountMinor, row.currency), failure: row.failure }
    : null;
}

/** The attempt a buyer returns from PayPal with (`token` = PayPal's order id), on this order only. */
export async function paypalCheckoutFor(orderId: string, token: string) {
  if (!token || token.length > 64) return null;
  const [row] = await getDb()
    .select()
    .from(paypalCheckouts)
    .where(and(eq(paypalCheckouts.paypalOrderId, token), eq(paypalCheckouts.orderId, orderId)));
  return row
    ? {
        state: row.state,
        amount: formatMinor(row.amountMinor, row.currency),
        paypalOrderId: row.paypalOrderId,
      }
    : null;
}

/**
 * Creates a PayPal order for the balance due of an unpaid order (the route has checked the person
 * may see it) and returns where the buyer approves it. The attempt's row and audit row commit once
 * PayPal accepted the order; its id is the PayPal-Request-Id, so a retried call makes no second order.
 */
export async function startPaypalCheckout(input: { orderId: string; actor: Actor }) {
  const client = paypal();
  if (!client) throw new OrderError("PayPal payments are not available.", 409);
  const db = getDb();
  const [row] = await db
    .select({ order: orders, invoiceNumber: invoices.number })
    .from(orders)
    .innerJoin(invoices, eq(invoices.orderId, orders.id))
    .where(eq(orders.id, input.orderId));
  if (!row) throw new OrderError("Order not found", 404);
  const { order } = row;
  if (order.state !== "awaiting_payment") {
    throw new OrderError("This order is not awaiting payment.", 409);
  }
  if (!paypalTakes(order.currency)) {
    throw new OrderError(`PayPal does not take ${order.currency}; choose another way to pay.`, 409);
  }
  const due = paypalDue({ ...order, dueMinor: orderBalance(order).dueMinor });
  if (!due) throw new OrderError("Nothing is due on this order.", 409);
  const id = randomUUID();
  let created: PaypalOrder;
  try {
    created = await client.createOrder({
      amountMinor: due,
      currency: order.currency,
      // PayPal refuses a second payment under one invoice id: each attempt has its own.
      invoiceId: `${row.invoiceNumber}-${id.slice(0, 8)}`,
      customId: id,
      description: `Kongamano invoice ${row.invoiceNumber}`,
      returnUrl: paypalReturnUrl(order.id),
      cancelUrl: paypalCancelUrl(order.id),
      requestId: id,
    });
  } catch (error) {
    if (!(error instanceof PaypalError)) throw error;
    logger.warn({ err: error, orderId: order.id }, "PayPal refused to create an order");
    throw new OrderError(`PayPal could not start the payment: ${error.message}`, 409);
  }
  await db.transaction(async (tx) => {
    await tx.insert(paypalCheckouts).values({
      id,
      orderId: order.id,
      paypalOrderId: created.id,
      amountMinor: due,
      currency: order.currency,
      requestedBy: "id" in input.actor ? input.actor.id : null,
    });
    await auditIn(tx, input.actor, "paypal_checkout.create", id, {
      orderId: order.id,
      paypalOrderId: created.id,
      amountMinor: due,
      currency: order.currency,
    });
  });
  return { checkoutId: id, paypalOrderId: created.id, approveUrl: created.approveUrl as string };
}

export type SettleOutcome =
  | "recorded"
  | "duplicate"
  | "pending"
  | "declined"
  | "mismatch"
  | "not_approved";

/** The completed capture of a PayPal order that agrees with what we asked, or why not. */
function confirmedCapture(
  checkout: PaypalCheckoutRow,
  order: PaypalOrder,
  captureId?: string,
): { capture: PaypalCapture } | { outcome: Exclude<SettleOutcome, "recorded" | "duplicate"> } {
  const capture = captureId
    ? order.captures.find((c) => c.id === captureId)
    : (order.captures.find((c) => c.status === "COMPLETED") ?? order.captures[0]);
  if (!capture) return { outcome: order.status === "APPROVED" ? "pending" : "not_approved" };
  // A capture refunded since still arrived (REFUNDED / PARTIALLY_REFUNDED follow COMPLETED).
  if (!["COMPLETED", "REFUNDED", "PARTIALLY_REFUNDED"].includes(capture.status)) {
    return { outcome: capture.status === "PENDING" ? "pending" : "declined" };
  }
  if (
    !capture.amount ||
    capture.amount.minor !== checkout.amountMinor ||
    capture.amount.currency !== checkout.currency
  ) {
    return { outcome: "mismatch" };
  }
  return { capture };
}

async function securityEntry(request: Request | null, details: Record<string, unknown>) {
  await recordAudit(request, {
    action: PAYPAL_FORGED_ACTION,
    entity: "paypal_checkout",
    entityId: typeof details.checkoutId === "string" ? details.checkoutId : null,
    details,
  });
}

/**
 * Records the capture PayPal confirmed for an attempt, once: under the order's row lock, then
 * the checkout's, a checkout not yet captured records one payment (reference = capture id, in the
 * order's currency; on an order closed meanwhile it is held as credit for staff) and becomes
 * captured. A second arrival (the other path, a repeated webhook) finds it captured.
 */
async function settle(
  checkoutId: string,
  paypalOrder: PaypalOrder,
  via: "return" | "webhook",
  request: Request | null,
  captureId?: string,
): Promise<SettleOutcome> {
  const db = getDb();
  const [checkout] = await db
    .select()
    .from(paypalCheckouts)
    .where(eq(paypalCheckouts.id, checkoutId));
  if (!checkout) throw new OrderError("PayPal payment not found", 404);
  if (checkout.state === "captured") return "duplicate";
  const confirmed = confirmedCapture(checkout, paypalOrder, captureId);
  if ("outcome" in confirmed) {
    if (confirmed.outcome === "mismatch" || confirmed.outcome === "declined") {
      if (confirmed.outcome === "mismatch") {
        const found = captureId
          ? paypalOrder.captures.find((c) => c.id === captureId)
          : paypalOrder.captures[0];
        await securityEntry(request, {
          checkoutId,
          via,
          reason: "PayPal's capture does not match the amount asked",
          asked: formatMinor(checkout.amountMinor, checkout.currency),
          captured: found?.amount ? formatMinor(found.amount.minor, found.amount.currency) : null,
          captureId: found?.id ?? null,
        });
      }
      await db.transaction(async (tx) => {
        const locked = await paypalCheckoutMachine.lock(tx, checkoutId);
        if (locked.state !== "created") return;
        await paypalCheckoutMachine.move(tx, locked, "failed", SYSTEM, {
          set: {
            failure:
              confirmed.outcome === "mismatch"
                ? "PayPal captured another amount than was asked; staff will look into it."
                : "PayPal declined the payment.",
            finishedAt: new Date(),
          },
          details: { via, outcome: confirmed.outcome },
        });
      });
    }
    return confirmed.outcome;
  }
  const { capture } = confirmed;
  return db.transaction(async (tx) => {
    await orderMachine.lock(tx, checkout.orderId);
    const locked = await paypalCheckoutMachine.lock(tx, checkoutId);
    if (locked.state === "captured") return "duplicate" as const;
    const recorded = await recordOnlinePaymentIn(
      tx,
      {
        orderId: locked.orderId,
        provider: "paypal",
        method: "paypal",
        reference: capture.id,
        amountMinor: capture.amount?.minor ?? locked.amountMinor,
        currency: locked.currency,
        paidAt: capture.createTime ?? new Date(),
      },
      SYSTEM,
    );
    await paypalCheckoutMachine.move(tx, locked, "captured", SYSTEM, {
      set: { captureId: capture.id, paymentId: recorded.paymentId, finishedAt: new Date() },
      details: { via, captureId: capture.id, paymentId: recorded.paymentId },
    });
    return recorded.outcome === "duplicate" ? ("duplicate" as const) : ("recorded" as const);
  });
}

export type ReturnOutcome = SettleOutcome | "closed" | "changed" | "unavailable";

/**
 * The buyer is back from PayPal (`token` = PayPal's order id). A checkout of this order that is
 * not captured yet is captured now — unless the order stopped waiting for this amount meanwhile
 * (closed, or paid otherwise): then nothing is captured and no money moves. PayPal answering that
 * the order was captured already (a second tab, a retry) is read back and recorded the same way.
 */
export async function returnFromPaypal(input: {
  orderId: string;
  token: string;
  request?: Request | null;
}): Promise<ReturnOutcome> {
  const client = paypal();
  if (!client) throw new OrderError("PayPal payments are not available.", 409);
  const db = getDb();
  const [checkout] = await db
    .select()
    .from(paypalCheckouts)
    .where(
      and(
        eq(paypalCheckouts.paypalOrderId, input.token),
        eq(paypalCheckouts.orderId, input.orderId),
      ),
    );
  if (!checkout) throw new OrderError("This PayPal payment is not on this order.", 404);
  if (checkout.state === "captured") return "duplicate";
  if (checkout.state !== "created") {
    // Closed before any capture (its order closed, or PayPal declined): never captured now; a
    // capture PayPal already made (its webhook not here yet) is still recorded.
    let known: PaypalOrder;
    try {
      known = await client.getOrder(checkout.paypalOrderId);
    } catch (error) {
      if (!(error instanceof PaypalError)) throw error;
      return "unavailable";
    }
    if (known.captures.length === 0) return checkout.state === "cancelled" ? "closed" : "declined";
    return settle(checkout.id, known, "return", input.request ?? null);
  }
  const [order] = await db.select().from(orders).where(eq(orders.id, checkout.orderId));
  const due = paypalDue({ ...order, dueMinor: orderBalance(order).dueMinor });
  if (due !== checkout.amountMinor) {
    await cancelCheckout(
      checkout.id,
      due === null ? "the order is no longer awaiting payment" : "the balance changed",
    );
    return due === null ? "closed" : "changed";
  }
  let paypalOrder: PaypalOrder;
  try {
    paypalOrder = await client.captureOrder(checkout.paypalOrderId, `capture-${checkout.id}`);
  } catch (error) {
    if (!(error instanceof PaypalError)) throw error;
    if (error.issue === "ORDER_NOT_APPROVED") return "not_approved";
    if (error.issue === "INSTRUMENT_DECLINED") return "declined";
    try {
      // Captured already (another tab, the webhook's path), or our call's answer was lost.
      paypalOrder = await client.getOrder(checkout.paypalOrderId);
    } catch (again) {
      if (!(again instanceof PaypalError)) throw again;
      logger.warn({ err: again, checkoutId: checkout.id }, "PayPal unreachable on return");
      return "unavailable";
    }
  }
  return settle(checkout.id, paypalOrder, "return", input.request ?? null);
}

/** created → cancelled: the order stopped waiting for this amount before it was captured. */
async function cancelCheckout(checkoutId: string, reason: string) {
  await getDb().transaction(async (tx) => {
    const locked = await paypalCheckoutMachine.lock(tx, checkoutId);
    if (locked.state !== "created") return;
    await paypalCheckoutMachine.move(tx, locked, "cancelled", SYSTEM, {
      set: { failure: reason, finishedAt: new Date() },
      details: { reason },
    });
  });
}

export type WebhookOutcome = SettleOutcome | "forged" | "ignored" | "unknown" | "unavailable";

/**
 * A webhook delivery: nothing in it is believed until PayPal says so. Its signature is checked by
 * PayPal's verify-webhook-signature (FAILURE: a security-centre entry, nothing else); for
 * PAYMENT.CAPTURE.COMPLETED, PayPal's own order is then read, and the capture is recorded only
 * when PayPal's answer agrees with what the webhook claims and with what we asked.
 */
export async function acceptPaypalWebhook(
  rawBody: string,
  headers: Headers,
  request: Request | null,
): Promise<WebhookOutcome> {
  const client = paypal();
  if (!client) return "ignored";
  if (!(await client.verifyWebhook(headers, rawBody))) {
    await securityEntry(request, {
      reason: "PayPal did not verify the webhook's signature",
      transmissionId: headers.get("paypal-transmission-id")?.slice(0, 100) ?? null,
    });
    return "forged";
  }
  const event = JSON.parse(rawBody) as { event_type?: unknown; resource?: unknown; id?: unknown };
  if (event.event_type !== "PAYMENT.CAPTURE.COMPLETED") return "ignored";
  const claimed = parseCapture(event.resource);
  if (!claimed) return "ignored";
  let paypalOrderId = claimed.orderId;
  try {
    paypalOrderId ??= (await client.getCapture(claimed.id)).orderId;
  } catch (error) {
    if (!(error instanceof PaypalError)) throw error;
    if (error.status === 0 || error.status >= 500) return "unavailable";
    paypalOrderId = null;
  }
  const [checkout] = paypalOrderId
    ? await getDb()
        .select()
        .from(paypalCheckouts)
        .where(eq(paypalCheckouts.paypalOrderId, paypalOrderId))
    : [];
  if (!checkout) {
    // Genuine but not ours (another integration on the same PayPal account), or made up.
    logger.warn({ captureId: claimed.id, paypalOrderId }, "PayPal webhook for an unknown order");
    return "unknown";
  }
  if (checkout.state === "captured") return "duplicate";
  let paypalOrder: PaypalOrder;
  try {
    paypalOrder = await client.getOrder(checkout.paypalOrderId);
  } catch (error) {
    if (!(error instanceof PaypalError)) throw error;
    if (error.status === 0 || error.status >= 500) return "unavailable";
    throw error;
  }
  const actual = paypalOrder.captures.find((c) => c.id === claimed.id);
  const agrees =
    actual &&
    actual.status === claimed.status &&
    actual.amount?.minor === claimed.amount?.minor &&
    actual.amount?.currency === claimed.amount?.currency;
  if (!agrees) {
    await securityEntry(request, {
      checkoutId: checkout.id,
      reason: "the webhook's capture differs from PayPal's own order",
      captureId: claimed.id,
      claimed: claimed.amount ? formatMinor(claimed.amount.minor, claimed.amount.currency) : null,
      claimedStatus: claimed.status,
      confirmed: actual?.amount ? formatMinor(actual.amount.minor, actual.amount.currency) : null,
      confirmedStatus: actual?.status ?? null,
    });
    return "mismatch";
  }
  return settle(checkout.id, paypalOrder, "webhook", request, claimed.id);
}
