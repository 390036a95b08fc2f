// Orders: every way an order, its invoice, its payments and receipts can change, one exported
// function per transition, each in one transaction with its audit row (style.md rule 11).
// E-mails and "what the order unlocks" are jobs enqueued in the same transaction (decision 0025).
import { randomUUID } from "node:crypto";
import { and, eq, or, sql } from "drizzle-orm";
import { alongside } from "~/db/alongside";
import { getDb } from "~/db/client.server";
import {
  type Currency,
  documentCounters,
  invoices,
  type OrderLineKind,
  type OrderRow,
  type OrderState,
  orderLines,
  orders,
  type PaymentMethod,
  type PaymentReceiptStatus,
  payments,
  receipts,
  refunds,
} from "~/db/schema";
import { formatKesRate, fromKesMinor, kesRate } from "~/lib/exchange-rates.server";
import {
  type Actor,
  actorId,
  auditIn,
  auditWrite,
  defineMachine,
  isPerson,
  type Tx,
} from "~/lib/lifecycle.server";
import { formatMinor, formatMinorAmount, MAX_SAFE_MINOR } from "~/lib/money";
import { hasRole } from "~/lib/roles";
import { enqueueJob, jobsInsert } from "~/models/jobs.server";
import { orderBalance } from "./balance";
import { ORDER_JOBS } from "./job-kinds";
import { OrderError } from "./order-error";
import {
  latestRefundablePayment,
  paymentMachine,
  refundFromPayment,
  reservedForRefunds,
} from "./payments.server";
import { cancelOpenPaypalCheckouts } from "./paypal-checkouts.server";
import { expireOpenCheckouts } from "./paystack-checkouts.server";
import { reactionsFor } from "./reactions.server";

/** An unpaid order is reminded this long before its hold ends (holds shorter than twice this are not). */
export const HOLD_REMINDER_BEFORE_MS = 24 * 3_600_000;

export type { Actor, Tx };

/**
 * Every legal state change of an order; anything else is refused. A closed order whose payments
 * cover it can be reinstated (→ paid) by staff, under the seat lock (issue 26).
 */
export const ORDER_TRANSITIONS: Record<OrderState, readonly OrderState[]> = {
  awaiting_payment: ["paid", "cancelled", "expired"],
  paid: ["refunded"],
  cancelled: ["paid"],
  expired: ["paid"],
  refunded: [],
};

/** A payment above this many times the amount due is refused as a typing slip (issue 26). */
export const AMOUNT_SANITY_FACTOR = 10;
export const AMOUNT_TOO_LARGE_MESSAGE =
  "This is more than ten times the amount due; check the amount.";
/** A payment that names no invoice has nothing to compare with: this is its upper bound. */
export const MAX_UNMATCHED_PAYMENT_MINOR = 10_000_000_00;

export { OrderError };

export const orderMachine = defineMachine<OrderState, OrderRow>({
  entity: "order",
  noun: "order",
  table: orders,
  transitions: ORDER_TRANSITIONS,
  error: (message, status) => new OrderError(message, status),
});

/** Next number of a gap-free series: the counter row stays locked until the transaction ends. */
async function nextInSeries(tx: Tx, series: string): Promise<number> {
  const [row] = await tx
    .insert(documentCounters)
    .values({ series, last: 1 })
    .onConflictDoUpdate({
      target: documentCounters.series,
      set: { last: sql`${documentCounters.last} + 1` },
    })
    .returning({ last: documentCounters.last });
  return row.last;
}

/**
 * The invoice's short payment reference, printed as the M-Pesa "Account number" (issue 34):
 * two-digit year, the sequence (six digits or more) and a mod-97 check of those digits, so a
 * mistyped digit or two swapped digits name no invoice. At most 12 characters (Daraja's
 * AccountReference). Migration 0017 computes the same for older invoices.
 */
export function paymentReferenceOf(year: number, sequence: number) {
  const base = `${String(year % 100).padStart(2, "0")}${String(sequence).padStart(6, "0")}`;
  return `${base}${String(Number(BigInt(base) % 97n)).padStart(2, "0")}`;
}

/** Whether text is a well-formed payment reference (its check digits agree). */
export function isPaymentReference(text: string) {
  const match = /^(\d{8,10})(\d{2})$/.exec(text.trim());
  return Boolean(match && Number(BigInt(match[1]) % 97n) === Number(match[2]));
}

export function documentNumber(prefix: "INV" | "RCT" | "CN", year: number, sequence: number) {
  return `${prefix}-${year}-${String(sequence).padStart(6, "0")}`;
}

const lockOrder = orderMachine.lock;

/** The kinds of line an order has: each kind's reactions run when it closes or is reinstated. */
async function lineKinds(tx: Tx, orderId: string) {
  const rows = await tx
    .selectDistinct({ kind: orderLines.kind })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId));
  return rows.map((row) => row.kind);
}

/** The order's move (paid: paid_at; closed: closed_at), then what closes with it (seats). */
async function changeState(
  tx: Tx,
  order: OrderRow,
  to: OrderState,
  actor: Actor,
  extra: Partial<OrderRow> = {},
  details: Record<string, unknown> = {},
) {
  const now = new Date();
  const updated = await orderMachine.move(tx, order, to, actor, {
    set: { ...(to === "paid" ? { paidAt: now } : { closedAt: now }), ...extra },
    details,
  });
  if (to === "cancelled" || to === "expired") {
    const reason = "reason" in details ? String(details.reason) : undefined;
    for (const kind of await lineKinds(tx, order.id)) {
      await reactionsFor(kind).closed?.(tx, updated, { to, actor, reason });
    }
    // Card attempts still open end with the hold (issue 31); one paid later is held as credit.
    await expireOpenCheckouts(tx, order.id, actor, `order ${to}`);
    // PayPal attempts not captured end too: nothing captures them afterwards (decision 0103).
    await cancelOpenPaypalCheckouts(tx, order.id, actor, `order ${to}`);
  }
  return updated;
}

// ---------------------------------------------------------------------------------------------
// Creating an order (with its invoice)
// ---------------------------------------------------------------------------------------------
export type NewOrderLine = {
  kind: OrderLineKind;
  referenceId: string;
  description: string;
  quantity: number;
  unitAmountMinor: number;
};

export type NewOrder = {
  buyer: { id: string; name: string; email: string };
  organisationName?: string | null;
  taxId?: string | null;
  currency: Currency;
  lines: NewOrderLine[];
  /** How long the order holds what it bought before an unpaid order expires. */
  holdMs: number;
};

/**
 * Creates an order awaiting payment with its gap-free invoice number, and enqueues the invoice
 * e-mail and the expiry at the end of the hold. `within` lets a caller (registration, membership)
 * create the order inside its own transaction, e.g. together with a held seat.
 */
export async function createOrder(input: NewOrder, within?: Tx) {
  const run = async (tx: Tx) => {
    const { order, issueInvoice } = await openOrder(input, tx);
    return { order, invoiceNumber: await issueInvoice() };
  };
  return within ? run(within) : getDb().transaction(run);
}

/**
 * An order without its invoice yet, in the caller's transaction; `issueInvoice()` draws the
 * gap-free number and writes the invoice (and the order's audit row). The counter row stays
 * locked from the draw to the commit, so a caller draws it as its last step (registration: after
 * the seats are counted) and orders of different events queue for the number only briefly while
 * a rolled-back order still gives its number back (decision 0113).
 */
export async function openOrder(input: NewOrder, tx: Tx) {
  if (input.lines.length === 0) throw new OrderError("An order needs at least one line.", 400);
  const lines = input.lines.map((line) => {
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) {
      throw new OrderError("Quantity must be at least 1.", 400);
    }
    if (!Number.isSafeInteger(line.unitAmountMinor) || line.unitAmountMinor < 0) {
      throw new OrderError("Amounts must be whole minor units.", 400);
    }
    return { ...line, lineTotalMinor: line.quantity * line.unitAmountMinor };
  });
  const totalMinor = lines.reduce((sum, line) => sum + line.lineTotalMinor, 0);
  const now = new Date();
  const orderId = randomUUID();
  const expiresAt = new Date(now.getTime() + input.holdMs);
  // A day before a hold of more than two days ends, the buyer is reminded (issue 30).
  const remindAt = new Date(expiresAt.getTime() - HOLD_REMINDER_BEFORE_MS);
  // The order with its lines, jobs and audit row: one statement (the lines name the order it
  // inserts). The invoice's number is in the invoice row, drawn last.
  const [order] = await alongside(tx, [
    tx.insert(orderLines).values(lines.map((line) => ({ ...line, orderId }))),
    jobsInsert(tx, [
      {
        kind: ORDER_JOBS.invoiceMail,
        payload: { orderId },
        uniqueKey: `order:${orderId}:invoice`,
      },
      {
        kind: ORDER_JOBS.expire,
        payload: { orderId },
        runAt: expiresAt,
        uniqueKey: `order:${orderId}:expire`,
      },
      ...(remindAt.getTime() - Date.now() >= HOLD_REMINDER_BEFORE_MS
        ? [
            {
              kind: ORDER_JOBS.holdReminder,
              payload: { orderId },
              runAt: remindAt,
              uniqueKey: `order:${orderId}:hold-reminder`,
            },
          ]
        : []),
    ]),
    auditWrite(tx, { id: input.buyer.id, role: "user" }, "order.create", orderId, {
      to: "awaiting_payment",
      totalMinor,
      currency: input.currency,
    }),
  ])
    .insert(orders)
    .values({
      id: orderId,
      buyerId: input.buyer.id,
      buyerName: input.buyer.name,
      billingEmail: input.buyer.email,
      organisationName: input.organisationName || null,
      taxId: input.taxId || null,
      currency: input.currency,
      totalMinor,
      expiresAt,
    })
    .returning();
  let issued: Promise<string> | undefined;
  const issueInvoice = () => {
    issued ??= (async () => {
      const year = now.getUTCFullYear();
      // One statement (a booking draws it under its seat locks, decision 0117): the series' next
      // number and the invoice with its number and payment reference, formatted as
      // documentNumber and paymentReferenceOf do (checked below) and as migration 0017 does.
      const result = await tx.execute(sql`
        WITH next AS (
          INSERT INTO ${documentCounters} (series, last) VALUES (${`INV-${year}`}, 1)
          ON CONFLICT (series) DO UPDATE SET last = ${documentCounters.last} + 1
          RETURNING last
        ), padded AS (
          SELECT last, repeat('0', greatest(0, 6 - length(last::text))) || last::text AS digits
          FROM next
        )
        INSERT INTO ${invoices} (order_id, number, year, sequence, payment_reference, issued_at)
        SELECT ${order.id}, 'INV-' || ${String(year)} || '-' || digits, ${year}::int, last,
          ${String(year % 100).padStart(2, "0")} || digits
            || lpad(((${String(year % 100).padStart(2, "0")} || digits)::bigint % 97)::text, 2, '0'),
          ${now}::timestamptz
        FROM padded
        RETURNING number, sequence, payment_reference`);
      const [row] = (
        result as unknown as {
          rows: Array<{ number: string; sequence: number; payment_reference: string }>;
        }
      ).rows;
      const sequence = Number(row.sequence);
      if (
        row.number !== documentNumber("INV", year, sequence) ||
        row.payment_reference !== paymentReferenceOf(year, sequence)
      ) {
        throw new Error(`Invoice ${row.number} is not numbered as documentNumber says`);
      }
      return row.number;
    })();
    return issued;
  };
  return { order, issueInvoice };
}

// ---------------------------------------------------------------------------------------------
// Payments
// ---------------------------------------------------------------------------------------------
export type PaymentInput = {
  method: PaymentMethod;
  reference: string;
  amountMinor: number;
  currency: Currency;
  paidAt: Date;
  /** The invoice number the payer quoted (the M-Pesa account number). */
  invoiceNumber: string;
  proofKey?: string | null;
};

export type RecordPaymentResult =
  | { outcome: "duplicate"; paymentId: string; orderId: string | null }
  | { outcome: "unmatched"; paymentId: string }
  | {
      outcome: "matched";
      paymentId: string;
      orderId: string;
      receiptNumber: string;
      orderPaid: boolean;
      /** The order's state after the payment, and what it now holds beyond what it keeps. */
      orderState: OrderState;
      creditMinor: number;
      /** The amount credited, in the invoice's currency, and what arrived when it was converted. */
      amountMinor: number;
      currency: Currency;
      received: Received | null;
    };

/** M-Pesa codes and bank references compare without case or spaces. */
export function normaliseReference(reference: string) {
  return reference.replace(/\s+/g, "").toUpperCase();
}

/**
 * The invoice a payer's account names: its invoice number (any case) or its short payment
 * reference (spaces ignored), the "Account number" M-Pesa payers type (issue 34).
 */
export async function invoiceForAccount(tx: Tx, account: string) {
  const text = account.trim();
  if (!text) return undefined;
  const [invoice] = await tx
    .select({ orderId: invoices.orderId, number: invoices.number })
    .from(invoices)
    .where(
      or(
        eq(invoices.number, text.toUpperCase()),
        eq(invoices.paymentReference, text.replace(/\s+/g, "")),
      ),
    )
    .limit(1);
  return invoice;
}

/** Staff may record for an order: admins for any, editors for event orders only. */
async function assertMayHandle(tx: Tx, actor: Actor, orderId: string | null) {
  if (!isPerson(actor) || hasRole(actor.role, "admin")) return;
  if (!hasRole(actor.role, "editor")) throw new OrderError("Forbidden", 403);
  if (!orderId) throw new OrderError("Only admins can record payments that match no invoice.", 403);
  const [other] = await tx
    .select({ id: orderLines.id })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), sql`${orderLines.kind} <> 'event_ticket'`))
    .limit(1);
  if (other) throw new OrderError("Editors can record payments for event orders only.", 403);
}

/** Separation of duties: nobody handles the money of an order they bought themselves. */
function assertNotOwnOrder(actor: Actor, order: OrderRow, what: string) {
  if (isPerson(actor) && order.buyerId === actor.id) {
    throw new OrderError(
      `You bought this order, so you cannot ${what} for it; ask another staff member.`,
      403,
    );
  }
}

/** Cash and "other" leave no trail outside the system: only admins record them. */
function assertMayUseMethod(actor: Actor, method: PaymentMethod) {
  if (
    (method === "cash" || method === "other") &&
    isPerson(actor) &&
    !hasRole(actor.role, "admin")
  ) {
    throw new OrderError("Only admins can record cash and other payments.", 403);
  }
}

/**
 * A slip of the keyboard (an extra zero or three) is refused: at most ten times what the order
 * still asks for, or ten times its total once nothing is due (a duplicate payment is let in and
 * held as credit).
 */
function assertSaneAmount(order: OrderRow, amountMinor: number) {
  const due = order.totalMinor - (order.paidMinor - order.refundedMinor);
  const reference = due > 0 ? due : order.totalMinor;
  if (
    amountMinor > reference * AMOUNT_SANITY_FACTOR ||
    order.paidMinor + amountMinor > MAX_SAFE_MINOR
  ) {
    throw new OrderError(AMOUNT_TOO_LARGE_MESSAGE, 400);
  }
}

/** What arrived in shillings against an invoice in another currency, and the rate used. */
export type Received = { receivedMinor: number; receivedCurrency: "KES"; exchangeRate: string };

/**
 * A payment in the invoice's currency is taken as it is. Shillings against an invoice in another
 * currency (issue 29: M-Pesa moves KES only) are converted at the rate configured in KES_RATES —
 * never one typed by staff — rounded down (the payer is never credited more than arrived); the
 * payment then keeps what arrived and the rate. Anything else is refused (400).
 */
function inInvoiceCurrency(
  order: OrderRow,
  amountMinor: number,
  currency: Currency,
): { amountMinor: number; received: Received | null } {
  if (currency === order.currency) return { amountMinor, received: null };
  if (currency !== "KES") {
    throw new OrderError(`The invoice is in ${order.currency}; record the payment in it.`, 400);
  }
  const rate = kesRate(order.currency);
  if (!rate) {
    throw new OrderError(
      `The invoice is in ${order.currency} and no KES rate is configured for it; record the payment in ${order.currency}.`,
      400,
    );
  }
  const converted = fromKesMinor(amountMinor, order.currency, rate);
  if (converted <= 0) {
    throw new OrderError(
      `${formatMinor(amountMinor, "KES")} is less than ${formatMinor(1, order.currency)} at ${formatKesRate(rate, order.currency)}; check the amount.`,
      400,
    );
  }
  return {
    amountMinor: converted,
    received: { receivedMinor: amountMinor, receivedCurrency: "KES", exchangeRate: rate },
  };
}

/**
 * Records a payment once per (method, reference): two staff entering the same M-Pesa code at the
 * same moment end with one payment. A payment quoting a known invoice is matched to its order
 * (receipt issued, receipt e-mail enqueued, order paid when covered); otherwise it is kept
 * unmatched for reconciliation.
 */
export async function recordPayment(input: PaymentInput, actor: Actor) {
  const reference = normaliseReference(input.reference);
  if (!reference) throw new OrderError("Enter the payment reference.", 400);
  if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0) {
    throw new OrderError("Enter an amount greater than 0.", 400);
  }
  assertMayUseMethod(actor, input.method);
  return getDb().transaction(async (tx): Promise<RecordPaymentResult> => {
    const invoice = await invoiceForAccount(tx, input.invoiceNumber);
    const orderId = invoice?.orderId ?? null;
    await assertMayHandle(tx, actor, orderId);
    let { amountMinor, currency } = input;
    let received: Received | null = null;
    if (orderId) {
      // Locked before the payment goes in: two payments at once apply one after the other.
      const order = await lockOrder(tx, orderId);
      assertNotOwnOrder(actor, order, "record a payment");
      ({ amountMinor, received } = inInvoiceCurrency(order, input.amountMinor, input.currency));
      currency = order.currency;
      assertSaneAmount(order, amountMinor);
    } else if (input.amountMinor > MAX_UNMATCHED_PAYMENT_MINOR) {
      throw new OrderError(
        `A payment that matches no invoice can be at most ${formatMinor(MAX_UNMATCHED_PAYMENT_MINOR, input.currency)}; check the amount and the invoice number.`,
        400,
      );
    }
    const [payment] = await tx
      .insert(payments)
      .values({
        orderId: null,
        payerAccount: input.invoiceNumber.trim() || null,
        method: input.method,
        reference,
        amountMinor,
        // A conversion leaves the payment in the invoice's currency, with what arrived beside it.
        currency,
        ...received,
        paidAt: input.paidAt,
        proofKey: input.proofKey ?? null,
        recordedBy: actorId(actor),
      })
      .onConflictDoNothing({ target: [payments.method, payments.reference] })
      .returning();
    if (!payment) {
      const [existing] = await tx
        .select({ id: payments.id, orderId: payments.orderId })
        .from(payments)
        .where(and(eq(payments.method, input.method), eq(payments.reference, reference)));
      return { outcome: "duplicate", paymentId: existing.id, orderId: existing.orderId };
    }
    await auditIn(tx, actor, "payment.record", payment.id, {
      method: input.method,
      reference,
      amountMinor,
      currency: payment.currency,
      ...received,
      invoice: input.invoiceNumber,
    });
    if (!orderId) return { outcome: "unmatched", paymentId: payment.id };
    return {
      outcome: "matched",
      paymentId: payment.id,
      amountMinor,
      currency,
      received,
      ...(await applyPayment(tx, payment.id, orderId, actor)),
    };
  });
}

/** A payment a provider confirmed (M-Pesa STK Push, Paybill), recorded by the system (issue 34). */
export type ProviderPaymentInput = {
  /** Null: the account named no open invoice; the payment is kept unmatched for staff. */
  orderId: string | null;
  method: PaymentMethod;
  /** The key that makes it once: the CheckoutRequestID of a push, the TransID of a Paybill payment. */
  reference: string;
  /** Shillings that arrived (KES cents). */
  kesMinor: number;
  /** The rate agreed when the push was sent (foreign-currency order); else the configured one. */
  exchangeRate?: string | null;
  paidAt: Date;
  payerAccount: string | null;
  mpesaReceipt: string | null;
  receiptStatus: PaymentReceiptStatus;
  payerPhone: string | null;
};

/**
 * Records a payment a provider confirmed, in the caller's transaction, once per (method,
 * reference): a second confirmation of the same push or TransID finds the first ("duplicate").
 * Against an order it is converted at the given rate when the order is in another currency, then
 * applied like any payment (receipt, mail, paid and unlocked when covered; held as credit on a
 * closed order, for the "needs attention" list). No sanity bound: the money did arrive.
 */
export async function recordProviderPaymentIn(
  tx: Tx,
  input: ProviderPaymentInput,
  actor: Actor,
): Promise<{ outcome: "duplicate" | "recorded" | "unmatched"; paymentId: string }> {
  const reference = normaliseReference(input.reference);
  const [existing] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.method, input.method), eq(payments.reference, reference)));
  if (existing) return { outcome: "duplicate", paymentId: existing.id };
  let amountMinor = input.kesMinor;
  let currency: Currency = "KES";
  let received: Received | null = null;
  if (input.orderId) {
    const order = await lockOrder(tx, input.orderId);
    if (order.currency !== "KES") {
      const rate = input.exchangeRate ?? kesRate(order.currency);
      const converted = rate ? fromKesMinor(input.kesMinor, order.currency, rate) : 0;
      if (rate && converted > 0) {
        amountMinor = converted;
        currency = order.currency;
        received = { receivedMinor: input.kesMinor, receivedCurrency: "KES", exchangeRate: rate };
      } else {
        // No rate to credit it with: kept unmatched in shillings for staff (matchPayment converts).
        input = { ...input, orderId: null };
      }
    }
  }
  const [payment] = await tx
    .insert(payments)
    .values({
      orderId: null,
      payerAccount: input.payerAccount,
      method: input.method,
      reference,
      amountMinor,
      currency,
      ...received,
      paidAt: input.paidAt,
      recordedBy: actorId(actor),
      mpesaReceipt: input.mpesaReceipt,
      receiptStatus: input.receiptStatus,
      payerPhone: input.payerPhone,
    })
    .onConflictDoNothing({ target: [payments.method, payments.reference] })
    .returning();
  if (!payment) {
    const [first] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.method, input.method), eq(payments.reference, reference)));
    return { outcome: "duplicate", paymentId: first.id };
  }
  await auditIn(tx, actor, "payment.record", payment.id, {
    method: input.method,
    reference,
    amountMinor,
    currency,
    ...received,
    invoice: input.payerAccount,
    mpesaReceipt: input.mpesaReceipt,
    receiptStatus: input.receiptStatus,
  });
  if (!input.orderId) return { outcome: "unmatched", paymentId: payment.id };
  await applyPayment(tx, payment.id, input.orderId, actor);
  return { outcome: "recorded", paymentId: payment.id };
}

/** A payment an online provider took and confirmed (Paystack, PayPal; issue 31). */
export type OnlinePaymentInput = {
  orderId: string;
  provider: "paystack" | "paypal";
  method: PaymentMethod;
  /** The provider's key for it (Paystack transaction reference, PayPal capture id). */
  reference: string;
  /** As the provider confirmed it: must be in the order's currency (the caller checked). */
  amountMinor: number;
  currency: Currency;
  paidAt: Date;
};

/**
 * Records, in the caller's transaction, a payment an online provider confirmed (its verify /
 * capture call agreed), once per (method, reference): the return page, the webhook and a job
 * racing each other end with one payment. The late-success rule is the one every payment
 * follows (applyPayment, decision 0100): on an order no longer awaiting payment (expired,
 * cancelled, paid) the money is recorded all the same and held as credit, which puts the order on
 * the Payments screen's "Needs attention" list to refund or reinstate (never reviving it without
 * its seats); the receipt mail says so.
 */
export async function recordOnlinePaymentIn(
  tx: Tx,
  input: OnlinePaymentInput,
  actor: Actor,
): Promise<{ outcome: "duplicate" | "recorded"; paymentId: string; orderState: OrderState }> {
  const reference = input.reference.trim();
  if (!reference) throw new OrderError("A provider payment needs its reference.", 400);
  // The order first, then the payment (as recordPayment): two confirmations wait on the order.
  const order = await lockOrder(tx, input.orderId);
  if (order.currency !== input.currency) {
    throw new OrderError(
      `The payment is in ${input.currency}, the order in ${order.currency}; it was not recorded.`,
      409,
    );
  }
  const [payment] = await tx
    .insert(payments)
    .values({
      orderId: null,
      payerAccount: null,
      method: input.method,
      reference,
      amountMinor: input.amountMinor,
      currency: input.currency,
      paidAt: input.paidAt,
      recordedBy: actorId(actor),
      provider: input.provider,
    })
    .onConflictDoNothing({ target: [payments.method, payments.reference] })
    .returning();
  if (!payment) {
    const [first] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.method, input.method), eq(payments.reference, reference)));
    return { outcome: "duplicate", paymentId: first.id, orderState: order.state };
  }
  await auditIn(tx, actor, "payment.record", payment.id, {
    method: input.method,
    provider: input.provider,
    reference,
    amountMinor: input.amountMinor,
    currency: input.currency,
    ...(order.state === "awaiting_payment" ? {} : { lateFor: order.state, heldAsCredit: true }),
  });
  const applied = await applyPayment(tx, payment.id, order.id, actor);
  return { outcome: "recorded", paymentId: payment.id, orderState: applied.orderState };
}

/** Matches a payment kept unmatched to the invoice it was for (admins: they alone see them). */
export async function matchPayment(paymentId: string, invoiceNumber: string, actor: Actor) {
  if (isPerson(actor) && !hasRole(actor.role, "admin")) {
    throw new OrderError("Only admins can match payments that matched no invoice.", 403);
  }
  return getDb().transaction(async (tx) => {
    const payment = await paymentMachine.lock(tx, paymentId);
    if (payment.orderId) throw new OrderError("This payment is already matched.");
    const invoice = await invoiceForAccount(tx, invoiceNumber);
    if (!invoice) throw new OrderError("No invoice has this number.", 400);
    await assertMayHandle(tx, actor, invoice.orderId);
    const order = await lockOrder(tx, invoice.orderId);
    assertNotOwnOrder(actor, order, "match a payment");
    if (order.currency !== payment.currency && payment.currency !== "KES") {
      throw new OrderError(
        `The invoice is in ${order.currency}, the payment in ${payment.currency}.`,
        400,
      );
    }
    // Shillings kept unmatched are converted once they meet a foreign-currency invoice.
    const { amountMinor, received } = inInvoiceCurrency(
      order,
      payment.amountMinor,
      payment.currency,
    );
    assertSaneAmount(order, amountMinor);
    if (received) {
      await tx
        .update(payments)
        .set({ amountMinor, currency: order.currency, ...received })
        .where(eq(payments.id, payment.id));
    }
    await auditIn(tx, actor, "payment.match", payment.id, {
      invoice: invoiceNumber,
      ...(received ? { amountMinor, currency: order.currency, ...received } : {}),
    });
    return applyPayment(tx, payment.id, invoice.orderId, actor);
  });
}

/** The state an order was in when a payment reached it: what the receipt mail tells the payer. */
export type ReceiptMailPayload = {
  paymentId: string;
  orderStateBefore?: OrderState;
  /** The balance right after this payment (a later payment must not change this one's mail). */
  dueMinor?: number;
  creditMinor?: number;
};

/**
 * Links a payment to its (locked) order, issues the receipt, and marks the order paid if covered.
 * On an order that is no longer awaiting payment (paid, expired, cancelled, refunded) the money is
 * recorded all the same and held as credit: staff refund it or reinstate the order (issue 26).
 */
async function applyPayment(tx: Tx, paymentId: string, orderId: string, actor: Actor) {
  const [payment] = await tx
    .update(payments)
    .set({ orderId })
    .where(eq(payments.id, paymentId))
    .returning();
  const [order] = await tx
    .update(orders)
    .set({ paidMinor: sql`${orders.paidMinor} + ${payment.amountMinor}` })
    .where(eq(orders.id, orderId))
    .returning();
  const year = new Date().getUTCFullYear();
  const receiptNumber = documentNumber("RCT", year, await nextInSeries(tx, `RCT-${year}`));
  await tx.insert(receipts).values({ number: receiptNumber, paymentId, orderId });
  const orderPaid =
    order.state === "awaiting_payment" && order.paidMinor - order.refundedMinor >= order.totalMinor;
  if (orderPaid) await markOrderPaid(tx, order, actor);
  const after = orderBalance(orderPaid ? { ...order, state: "paid" } : order);
  const payload: ReceiptMailPayload = {
    paymentId,
    orderStateBefore: order.state,
    dueMinor: after.dueMinor,
    creditMinor: after.creditMinor,
  };
  await enqueueJob(tx, {
    kind: ORDER_JOBS.receiptMail,
    payload,
    uniqueKey: `payment:${paymentId}:receipt`,
  });
  return {
    orderId,
    receiptNumber,
    orderPaid,
    orderState: orderPaid ? ("paid" as const) : order.state,
    creditMinor: after.creditMinor,
  };
}

/** awaiting_payment → paid (internal: payments decide it), then what the order unlocks runs as a job. */
export async function markOrderPaid(tx: Tx, order: OrderRow, actor: Actor) {
  const updated = await changeState(tx, order, "paid", actor, {}, { paidMinor: order.paidMinor });
  await enqueueJob(tx, {
    kind: ORDER_JOBS.unlock,
    payload: { orderId: order.id },
    uniqueKey: `order:${order.id}:unlock`,
  });
  return updated;
}

// ---------------------------------------------------------------------------------------------
// Closing an order
// ---------------------------------------------------------------------------------------------
export const PART_PAID_CANCEL_MESSAGE =
  "Part of this order is paid, so it cannot be cancelled online. Please contact us to cancel it and arrange a refund.";

/**
 * awaiting_payment → cancelled, by the buyer or staff. A buyer cannot cancel once money is on
 * the order (the page hides the button; this is the rule). Staff can: the money then shows in
 * the Payments screen's "Needs attention" list, to refund.
 */
export async function cancelOrder(orderId: string, actor: Actor, reason?: string, within?: Tx) {
  const run = async (tx: Tx) => {
    const order = await lockOrder(tx, orderId);
    const asBuyer = isPerson(actor) && order.buyerId === actor.id;
    if (isPerson(actor) && !asBuyer) await assertMayHandle(tx, actor, orderId);
    if (asBuyer && order.state === "awaiting_payment" && order.paidMinor > order.refundedMinor) {
      throw new OrderError(PART_PAID_CANCEL_MESSAGE, 409, undefined, "part_paid");
    }
    return changeState(tx, order, "cancelled", actor, {}, reason ? { reason } : {});
  };
  return within ? run(within) : getDb().transaction(run);
}

/** awaiting_payment → expired once its hold has passed (the expiry job); a no-op otherwise. */
export async function expireOrder(orderId: string, now = new Date()) {
  return getDb().transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (order.state !== "awaiting_payment" || order.expiresAt > now) return null;
    return changeState(tx, order, "expired", { system: "order-expiry" });
  });
}

// ---------------------------------------------------------------------------------------------
// Reinstating a closed order that was paid after all (issue 26)
// ---------------------------------------------------------------------------------------------
/** Line kinds whose order cannot be reinstated without their side (they hold limited stock). */
const KINDS_NEEDING_A_SIDE: readonly OrderLineKind[] = ["event_ticket"];

/**
 * expired | cancelled → paid, by staff, when the payments held cover the total. Each line kind's
 * side takes back what the order bought (seats only if still free), then the paid order unlocks
 * as any paid order does (tickets, membership term) from the unlock job.
 */
export async function reinstateOrder(orderId: string, actor: Actor) {
  return getDb().transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    await assertMayHandle(tx, actor, orderId);
    assertNotOwnOrder(actor, order, "reinstate it");
    if (order.state !== "expired" && order.state !== "cancelled") {
      throw new OrderError(
        `Only an expired or cancelled order can be reinstated; this one is ${order.state.replace("_", " ")}.`,
      );
    }
    const { heldMinor } = orderBalance(order);
    if (heldMinor < order.totalMinor) {
      throw new OrderError(
        `The payments held (${formatMinor(heldMinor, order.currency)}) do not cover the total (${formatMinor(order.totalMinor, order.currency)}); refund them instead.`,
      );
    }
    for (const kind of await lineKinds(tx, orderId)) {
      const side = reactionsFor(kind).reinstate;
      if (side) await side(tx, order, actor);
      else if (KINDS_NEEDING_A_SIDE.includes(kind)) {
        throw new OrderError(`Reinstating ${kind.replace("_", " ")} orders is not possible here.`);
      }
    }
    const updated = await changeState(
      tx,
      order,
      "paid",
      actor,
      { closedAt: null },
      { reinstated: true, paidMinor: order.paidMinor, refundedMinor: order.refundedMinor },
    );
    await enqueueJob(tx, {
      kind: ORDER_JOBS.unlock,
      payload: { orderId: order.id },
      uniqueKey: `order:${order.id}:unlock`,
    });
    return updated;
  });
}

// ---------------------------------------------------------------------------------------------
// Refunds (issue 26): money given back, each with its gap-free credit note
// ---------------------------------------------------------------------------------------------
export type RefundInput = {
  orderId: string;
  /** The payment the money goes back from; when absent, the latest one with money left. */
  paymentId?: string | null;
  amountMinor: number;
  method: PaymentMethod;
  /** The reversal's transaction code or the bank reference. */
  reference: string;
  reason?: string | null;
};

/**
 * Records money given back (admins only; the money goes back outside the system, this records
 * it): a refund row with its credit note CN-YYYY-NNNNNN, taken from one payment of the order and
 * never more than that payment has left (nor than the order holds). Under the order's and the
 * payment's row locks, the payment's refunded total and state follow (payments.server.ts), then
 * the order's: a paid order becomes refunded once everything paid is refunded; a partial refund
 * leaves it paid. The buyer is mailed the credit note.
 */
export async function recordRefund(input: RefundInput, actor: Actor) {
  if (isPerson(actor) && !hasRole(actor.role, "admin")) {
    throw new OrderError("Only admins can record refunds.", 403);
  }
  return getDb().transaction((tx) => recordRefundIn(tx, input, actor));
}

/** A refund through a provider, being recorded once the provider confirmed it (issue 31). */
export type ProviderRefundConfirmation = {
  /** The provider_refunds row: its own reservation is not held against it. */
  requestId: string;
};

/**
 * recordRefund in the caller's transaction. Staff record M-Pesa and offline refunds (a payment a
 * provider took goes back through the provider: refused here unless `viaProvider` names the
 * confirmed request, decision 0100). Refunds still on their way through a provider hold their
 * amounts back, so the two ways together never give back more than was paid.
 */
export async function recordRefundIn(
  tx: Tx,
  input: RefundInput,
  actor: Actor,
  viaProvider?: ProviderRefundConfirmation,
) {
  if (isPerson(actor) && !hasRole(actor.role, "admin")) {
    throw new OrderError("Only admins can record refunds.", 403);
  }
  const reference = normaliseReference(input.reference);
  if (!reference) throw new OrderError("Enter the refund reference.", 400);
  if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0) {
    throw new OrderError("Enter an amount greater than 0.", 400);
  }
  const order = await lockOrder(tx, input.orderId);
  assertNotOwnOrder(actor, order, "record a refund");
  const refundable =
    order.paidMinor -
    order.refundedMinor -
    (await reservedForRefunds(tx, { orderId: order.id }, viaProvider?.requestId));
  if (input.amountMinor > refundable) {
    throw new OrderError(
      refundable <= 0
        ? "Nothing paid on this order is left to refund."
        : `At most ${formatMinor(refundable, order.currency)} can be refunded: what was paid and not refunded yet.`,
      400,
    );
  }
  const paymentId = input.paymentId || (await latestRefundablePayment(tx, order.id));
  if (!paymentId) throw new OrderError("Nothing paid on this order is left to refund.", 400);
  if (!viaProvider) {
    const [source] = await tx
      .select({ provider: payments.provider })
      .from(payments)
      .where(eq(payments.id, paymentId));
    if (source?.provider) {
      throw new OrderError(
        `This payment was made through ${source.provider === "paystack" ? "Paystack" : "PayPal"}; refund it through ${source.provider === "paystack" ? "Paystack" : "PayPal"} from this screen.`,
        400,
      );
    }
  }
  const now = new Date();
  const year = now.getUTCFullYear();
  const sequence = await nextInSeries(tx, `CN-${year}`);
  const creditNoteNumber = documentNumber("CN", year, sequence);
  const payment = await refundFromPayment(
    tx,
    {
      orderId: order.id,
      paymentId,
      amountMinor: input.amountMinor,
      exceptRequestId: viaProvider?.requestId,
    },
    actor,
    { creditNote: creditNoteNumber },
  );
  const [refund] = await tx
    .insert(refunds)
    .values({
      orderId: order.id,
      paymentId: payment.id,
      amountMinor: input.amountMinor,
      currency: order.currency,
      method: input.method,
      reference,
      reason: input.reason?.trim() || null,
      creditNoteNumber,
      year,
      sequence,
      recordedBy: actorId(actor),
      createdAt: now,
    })
    .returning();
  const [updated] = await tx
    .update(orders)
    .set({ refundedMinor: sql`${orders.refundedMinor} + ${input.amountMinor}` })
    .where(eq(orders.id, order.id))
    .returning();
  await auditIn(tx, actor, "refund.record", refund.id, {
    orderId: order.id,
    paymentId: payment.id,
    creditNote: creditNoteNumber,
    amountMinor: input.amountMinor,
    amount: formatMinorAmount(input.amountMinor, order.currency),
    currency: order.currency,
    method: input.method,
    reference,
    ...(refund.reason ? { reason: refund.reason } : {}),
  });
  let final = updated;
  if (updated.state === "paid" && updated.refundedMinor === updated.paidMinor) {
    final = await changeState(
      tx,
      updated,
      "refunded",
      actor,
      {},
      { creditNote: creditNoteNumber, refundedMinor: updated.refundedMinor },
    );
  }
  await enqueueJob(tx, {
    kind: ORDER_JOBS.refundMail,
    payload: { refundId: refund.id },
    uniqueKey: `refund:${refund.id}:credit-note`,
  });
  return { refund, order: final, payment };
}
