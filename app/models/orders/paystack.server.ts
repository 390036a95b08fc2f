// Cards through Paystack (issue 31, decision 0101). "Pay by card" initializes a transaction for
// the order's balance due (subunits, a unique reference per attempt, the order's e-mail) and sends
// the buyer to Paystack's page. Nothing the browser or a webhook says is believed by itself: the
// return page and the `charge.success` webhook (signature checked on the raw body) both only lead
// to a verify call, and a payment is recorded once verify agrees on status, amount and currency —
// under the order's and the attempt's row locks, once per reference, whichever comes first.
import { randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { invoices, paystackCheckouts } from "~/db/schema";
import { recordAudit } from "~/lib/audit.server";
import { env } from "~/lib/env.server";
import { type Actor, actorId, auditIn } from "~/lib/lifecycle.server";
import { logger } from "~/lib/logger.server";
import { formatMinor } from "~/lib/money";
import { providerTakes } from "~/lib/payments/methods";
import {
  PaystackError,
  paystack,
  paystackConfig,
  validPaystackSignature,
} from "~/lib/payments/paystack.server";
import { ProviderUnavailableError } from "~/lib/payments/provider";
import { enqueueJob } from "~/models/jobs.server";
import { orderBalance } from "./balance";
import { ORDER_JOBS } from "./job-kinds";
import { OrderError } from "./order-error";
import { orderMachine, recordOnlinePaymentIn } from "./orders.server";
import { checkoutMachine } from "./paystack-checkouts.server";
import { refundHint } from "./provider-refunds.server";

const SYSTEM: Actor = { system: "paystack" };

export const CARDS_OFF_MESSAGE = "Card payments are not available.";

/**
 * After an attempt starts, Paystack is asked about it again at these delays, whatever happens:
 * a buyer who paid and closed the tab before the return page, with the webhook lost as well, is
 * still recorded (a callback is a hint; the verify is the proof). A paid attempt makes them no-ops.
 */
export const CARD_SAFETY_CHECKS_MS = [15 * 60_000, 2 * 3_600_000] as const;

/** Where Paystack sends the buyer back (it adds ?trxref=…&reference=…). */
export function cardReturnUrl(orderId: string) {
  return `${env().BASE_URL}/orders/${orderId}/card`;
}

/** A reference unique per attempt: the invoice's payment reference and 10 random hex digits. */
function newReference(paymentReference: string) {
  return `${paymentReference}-${randomBytes(5).toString("hex")}`;
}

export type CardCheckoutView = {
  state: string;
  amount: string;
  gatewayStatus: string | null;
  createdAt: string;
};

/** The order's latest card attempt (what its page shows). */
export async function latestCardCheckout(orderId: string): Promise<CardCheckoutView | null> {
  const [row] = await getDb()
    .select()
    .from(paystackCheckouts)
    .where(eq(paystackCheckouts.orderId, orderId))
    .orderBy(desc(paystackCheckouts.createdAt))
    .limit(1);
  return row
    ? {
        state: row.state,
        amount: formatMinor(row.amountMinor, row.currency),
        gatewayStatus: row.gatewayStatus,
        createdAt: row.createdAt.toISOString(),
      }
    : null;
}

/**
 * "Pay by card" (the route has checked the person may see the order): an attempt row (pending,
 * audited) for the balance due, then Paystack's initialize; the buyer goes to the page it gives.
 * Refused (409) when cards are off, the order is not awaiting payment, nothing is due, or
 * Paystack does not take its currency.
 */
export async function startCardPayment(input: { orderId: string; actor: Actor }) {
  const client = paystack();
  if (!client) throw new OrderError(CARDS_OFF_MESSAGE, 409);
  const db = getDb();
  const attempt = await db.transaction(async (tx) => {
    const order = await orderMachine.lock(tx, input.orderId);
    if (order.state !== "awaiting_payment") {
      throw new OrderError("This order is not awaiting payment.", 409);
    }
    if (!providerTakes("paystack", order.currency)) {
      throw new OrderError(
        `Cards are taken in KES and USD only; pay this ${order.currency} invoice another way.`,
        409,
      );
    }
    const due = orderBalance(order).dueMinor;
    if (due <= 0) throw new OrderError("Nothing is due on this order.", 409);
    const [invoice] = await tx
      .select({ number: invoices.number, paymentReference: invoices.paymentReference })
      .from(invoices)
      .where(eq(invoices.orderId, order.id));
    const [row] = await tx
      .insert(paystackCheckouts)
      .values({
        orderId: order.id,
        reference: newReference(invoice.paymentReference),
        amountMinor: due,
        currency: order.currency,
        requestedBy: actorId(input.actor),
      })
      .returning();
    for (const [index, delay] of CARD_SAFETY_CHECKS_MS.entries()) {
      await enqueueJob(tx, {
        kind: ORDER_JOBS.paystackVerify,
        payload: { reference: row.reference },
        runAt: new Date(Date.now() + delay),
        uniqueKey: `paystack:${row.reference}:safety-check-${index + 1}`,
      });
    }
    await auditIn(tx, input.actor, "paystack_checkout.start", row.id, {
      orderId: order.id,
      reference: row.reference,
      amountMinor: due,
      currency: order.currency,
    });
    return { row, email: order.billingEmail, invoiceNumber: invoice.number };
  });
  try {
    const page = await client.initialize({
      email: attempt.email,
      amountMinor: attempt.row.amountMinor,
      currency: attempt.row.currency,
      reference: attempt.row.reference,
      callbackUrl: cardReturnUrl(input.orderId),
      metadata: { orderId: input.orderId, invoice: attempt.invoiceNumber },
    });
    await db
      .update(paystackCheckouts)
      .set({ authorizationUrl: page.authorizationUrl })
      .where(eq(paystackCheckouts.id, attempt.row.id));
    return { url: page.authorizationUrl, reference: attempt.row.reference };
  } catch (error) {
    if (!(error instanceof PaystackError || error instanceof ProviderUnavailableError)) throw error;
    logger.warn({ err: error, orderId: input.orderId }, "Paystack initialize refused");
    await db.transaction(async (tx) => {
      const locked = await checkoutMachine.lock(tx, attempt.row.id);
      if (locked.state === "pending") {
        await checkoutMachine.move(tx, locked, "failed", SYSTEM, {
          set: { gatewayStatus: "not started", finishedAt: new Date() },
          details: { reason: error.message },
        });
      }
    });
    throw new OrderError(
      "The card payment could not be started. Please try again in a moment, or pay another way.",
      409,
    );
  }
}

export type CardOutcome =
  | { state: "paid"; late: boolean; recorded: boolean }
  | { state: "pending"; gatewayStatus: string }
  | { state: "mismatch" }
  | { state: "unknown" };

/**
 * Asks Paystack about an attempt (return page, webhook, job) and, when verify says success for
 * exactly the amount and currency the attempt asked, records ONE payment: the order locked first,
 * then the attempt; an attempt already paid records nothing again. A success for another amount,
 * currency or reference is not recorded and leaves a security entry. An attempt whose order has
 * closed meanwhile is still recorded, as credit (decision 0100).
 */
export async function confirmCardPayment(
  reference: string,
  request: Request | null = null,
): Promise<CardOutcome> {
  const client = paystack();
  if (!client) return { state: "unknown" };
  const db = getDb();
  const [attempt] = await db
    .select()
    .from(paystackCheckouts)
    .where(eq(paystackCheckouts.reference, reference));
  if (!attempt) return { state: "unknown" };
  if (attempt.state === "paid") return { state: "paid", late: false, recorded: false };
  const verified = await client.verify(reference);
  if (verified.status !== "success") {
    await db
      .update(paystackCheckouts)
      .set({ gatewayStatus: verified.status.slice(0, 40) })
      .where(and(eq(paystackCheckouts.id, attempt.id), eq(paystackCheckouts.state, "pending")));
    return { state: "pending", gatewayStatus: verified.status };
  }
  if (
    verified.reference !== attempt.reference ||
    verified.amountMinor !== attempt.amountMinor ||
    verified.currency !== attempt.currency
  ) {
    await recordAudit(request, {
      action: "paystack.webhook_forged",
      entity: "paystack_checkout",
      entityId: attempt.id,
      details: {
        reason: "verify disagrees with the attempt",
        reference,
        asked: { amountMinor: attempt.amountMinor, currency: attempt.currency },
        verified: { amountMinor: verified.amountMinor, currency: verified.currency },
      },
    });
    return { state: "mismatch" };
  }
  return db.transaction(async (tx): Promise<CardOutcome> => {
    // The order before the attempt: the order's expiry takes them in the same order.
    const order = await orderMachine.lock(tx, attempt.orderId);
    const locked = await checkoutMachine.lock(tx, attempt.id);
    if (locked.state === "paid") return { state: "paid", late: false, recorded: false };
    const recorded = await recordOnlinePaymentIn(
      tx,
      {
        orderId: order.id,
        provider: "paystack",
        method: "card",
        reference: locked.reference,
        amountMinor: verified.amountMinor,
        currency: order.currency,
        paidAt: verified.paidAt ?? new Date(),
      },
      SYSTEM,
    );
    await checkoutMachine.move(tx, locked, "paid", SYSTEM, {
      set: { paymentId: recorded.paymentId, gatewayStatus: "success", finishedAt: new Date() },
      details: {
        paymentId: recorded.paymentId,
        ...(order.state === "awaiting_payment" ? {} : { lateFor: order.state }),
      },
    });
    return {
      state: "paid",
      late: order.state !== "awaiting_payment",
      recorded: recorded.outcome === "recorded",
    };
  });
}

/** Job: verify an attempt a webhook named while Paystack could not be reached. */
export async function runPaystackVerify(payload: { reference: string }) {
  await confirmCardPayment(payload.reference);
}

export type WebhookAnswer = { status: 200 | 401 | 400 };

/**
 * Paystack's webhook: accepted only with a valid `x-paystack-signature` (HMAC-SHA512 of the raw
 * body with the secret key); a bad one is a security entry and a 401. `charge.success` leads to a
 * verify (confirmCardPayment), never straight to a payment; a webhook whose amount or currency
 * disagrees with the attempt is a security entry even when its signature is good. Refund events
 * ask the provider about the refund. Anything else is acknowledged and ignored.
 */
export async function acceptPaystackWebhook(
  rawBody: string,
  signature: string | null,
  request: Request | null,
): Promise<WebhookAnswer> {
  const config = paystackConfig();
  if (!config) return { status: 400 };
  if (!validPaystackSignature(rawBody, signature, config.secretKey)) {
    await recordAudit(request, {
      action: "paystack.webhook_forged",
      entity: "paystack_checkout",
      entityId: null,
      details: { reason: signature ? "bad signature" : "no signature" },
    });
    return { status: 401 };
  }
  let body: { event?: unknown; data?: Record<string, unknown> };
  try {
    body = JSON.parse(rawBody);
  } catch {
    return { status: 400 };
  }
  const data = body.data ?? {};
  if (body.event === "charge.success") {
    const reference = typeof data.reference === "string" ? data.reference.slice(0, 100) : "";
    if (!reference) return { status: 400 };
    const [attempt] = await getDb()
      .select()
      .from(paystackCheckouts)
      .where(eq(paystackCheckouts.reference, reference));
    if (!attempt) {
      // Signed but ours never started it (another integration on the same account): ignored.
      logger.warn({ reference }, "Paystack webhook for an unknown reference");
      return { status: 200 };
    }
    if (Number(data.amount) !== attempt.amountMinor || data.currency !== attempt.currency) {
      await recordAudit(request, {
        action: "paystack.webhook_forged",
        entity: "paystack_checkout",
        entityId: attempt.id,
        details: {
          reason: "webhook amount or currency differs from the attempt",
          reference,
          claimed: { amount: data.amount ?? null, currency: data.currency ?? null },
        },
      });
    }
    try {
      await confirmCardPayment(reference, request);
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError || error instanceof PaystackError)) {
        throw error;
      }
      // Paystack away: the verify is asked again by a job (the webhook stays acknowledged).
      await enqueueJob(getDb(), {
        kind: ORDER_JOBS.paystackVerify,
        payload: { reference },
        uniqueKey: `paystack:${reference}:verify`,
      });
    }
    return { status: 200 };
  }
  if (typeof body.event === "string" && body.event.startsWith("refund.")) {
    const id = data.id ?? data.refund_reference;
    if (id !== undefined && id !== null) await refundHint("paystack", String(id));
    return { status: 200 };
  }
  return { status: 200 };
}

/**
 * The buyer came back from Paystack with a reference: only one of this order's attempts is
 * verified ("unknown" otherwise, which the route answers with 404).
 */
export async function returnFromPaystack(
  orderId: string,
  reference: string,
  request: Request | null,
): Promise<CardOutcome> {
  const [attempt] = await getDb()
    .select({ orderId: paystackCheckouts.orderId })
    .from(paystackCheckouts)
    .where(eq(paystackCheckouts.reference, reference));
  if (attempt?.orderId !== orderId) return { state: "unknown" };
  return confirmCardPayment(reference, request);
}
