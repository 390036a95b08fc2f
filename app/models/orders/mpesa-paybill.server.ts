// Paybill payments made from the M-Pesa menu (C2B, issue 34, decision 0098). A confirmation is a
// hint too: it is kept as "reported", the Transaction Status API is asked about its TransID, and
// only Daraja's result (delivered to our result URL, matched by the ConversationID Daraja gave
// us and the TransID) records the payment — for the confirmed amount, once per TransID. The
// account (BillRefNumber) names the invoice by its payment reference or number; an unknown one is
// kept unmatched for staff; a closed order's payment is held as credit ("needs attention").
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { type MpesaConfirmationRow, mpesaConfirmations } from "~/db/schema";
import { recordAudit } from "~/lib/audit.server";
import { type Actor, auditIn, type Tx } from "~/lib/lifecycle.server";
import { parseMinorUnits } from "~/lib/money";
import { daraja, darajaConfig, hookUrl } from "~/lib/payments/daraja.server";
import { maskPhone } from "~/lib/payments/phone";
import { enqueueJob } from "~/models/jobs.server";
import { ORDER_JOBS } from "./job-kinds";
import { OrderError } from "./order-error";
import { invoiceForAccount, recordProviderPaymentIn } from "./orders.server";

const SYSTEM: Actor = { system: "mpesa-paybill" };
const TRANS_ID = /^[A-Z0-9]{6,20}$/;

/** "20191122063845" (Nairobi time) → the instant; null when malformed. */
export function parseDarajaTime(value: unknown): Date | null {
  const text = String(value ?? "");
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  const at = new Date(Date.UTC(y, mo - 1, d, h - 3, mi, s));
  return Number.isNaN(at.getTime()) ? null : at;
}

async function securityEntry(request: Request | null, details: Record<string, unknown>) {
  await recordAudit(request, {
    action: "mpesa.callback_forged",
    entity: "mpesa_confirmation",
    entityId: typeof details.confirmationId === "string" ? details.confirmationId : null,
    details,
  });
}

/** Status query round `round`: at once, then 1, 2, 4 … minutes (at most an hour apart). */
function statusDelayMs(round: number) {
  return round <= 1 ? 0 : Math.min(60_000 * 2 ** (round - 2), 3_600_000);
}

function enqueueStatusQuery(
  db: Parameters<typeof enqueueJob>[0],
  confirmationId: string,
  round: number,
) {
  return enqueueJob(db, {
    kind: ORDER_JOBS.mpesaStatusQuery,
    payload: { confirmationId, round },
    runAt: new Date(Date.now() + statusDelayMs(round)),
    uniqueKey: `mpesa-confirmation:${confirmationId}:status:${round}`,
  });
}

/**
 * A Paybill confirmation arrived: kept once per TransID as "reported" (with its audit row) and,
 * when the Transaction Status initiator is configured, the query about it scheduled. Nothing is
 * recorded as paid from it.
 */
export async function acceptConfirmation(body: unknown, request: Request | null) {
  const b = (body ?? {}) as Record<string, unknown>;
  const transId = String(b.TransID ?? "").toUpperCase();
  const amountMinor = parseMinorUnits(String(b.TransAmount ?? ""), "KES");
  if (!TRANS_ID.test(transId) || !amountMinor || amountMinor <= 0) {
    await securityEntry(request, { reason: "not a Paybill confirmation" });
    return "ignored" as const;
  }
  const billRef =
    String(b.BillRefNumber ?? "")
      .trim()
      .slice(0, 40) || null;
  const msisdn = String(b.MSISDN ?? "").slice(0, 64) || null;
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .insert(mpesaConfirmations)
      .values({
        transId,
        billRefNumber: billRef,
        amountMinor,
        msisdn,
        payerName: String(b.FirstName ?? "").slice(0, 80) || null,
        transTime: parseDarajaTime(b.TransTime),
      })
      .onConflictDoNothing({ target: mpesaConfirmations.transId })
      .returning();
    if (!row) return "duplicate" as const;
    await auditIn(tx, SYSTEM, "mpesa_confirmation.report", row.id, {
      transId,
      account: billRef,
      amountMinor,
      phone: maskPhone(msisdn),
    });
    if (darajaConfig()?.initiator) await enqueueStatusQuery(tx, row.id, 1);
    return "reported" as const;
  });
}

/** The query job: asks the Transaction Status API; the answer comes to our result URL. */
export async function runStatusQuery(payload: { confirmationId: string; round?: number }) {
  const client = daraja();
  const db = getDb();
  const [row] = await db
    .select()
    .from(mpesaConfirmations)
    .where(eq(mpesaConfirmations.id, payload.confirmationId));
  if (row?.state !== "reported" || !client) return;
  const answer = await client.transactionStatus({
    transactionId: row.transId,
    resultUrl: hookUrl("result"),
    timeoutUrl: hookUrl("timeout"),
  });
  await db.transaction(async (tx) => {
    await tx
      .update(mpesaConfirmations)
      .set({ conversationId: answer.conversationId })
      .where(eq(mpesaConfirmations.id, row.id));
    await auditIn(tx, SYSTEM, "mpesa_confirmation.query", row.id, {
      transId: row.transId,
      conversationId: answer.conversationId,
    });
    // If no result comes, ask again later (a result recorded meanwhile makes this a no-op).
    await enqueueStatusQuery(tx, row.id, (payload.round ?? 1) + 1);
  });
}

type StatusResult = {
  resultCode: number;
  resultDesc: string;
  conversationId: string;
  transactionId: string;
  params: Map<string, unknown>;
};

export function parseStatusResult(body: unknown): StatusResult | null {
  const result = (body as { Result?: Record<string, unknown> })?.Result;
  if (!result || typeof result !== "object") return null;
  const resultCode = Number(result.ResultCode);
  const conversationId = String(result.ConversationID ?? "");
  if (!Number.isInteger(resultCode) || !conversationId) return null;
  const list = (result.ResultParameters as { ResultParameter?: unknown })?.ResultParameter;
  const params = new Map<string, unknown>();
  for (const item of Array.isArray(list) ? list : list ? [list] : []) {
    const { Key, Value } = (item ?? {}) as { Key?: unknown; Value?: unknown };
    if (typeof Key === "string") params.set(Key, Value);
  }
  return {
    resultCode,
    resultDesc: String(result.ResultDesc ?? "").slice(0, 300),
    conversationId,
    transactionId: String(result.TransactionID ?? params.get("ReceiptNo") ?? "").toUpperCase(),
    params,
  };
}

/**
 * A Transaction Status result: it counts only for the confirmation whose query Daraja answered
 * with this ConversationID and whose TransID it names. Completed → the payment is recorded for
 * the confirmed amount against the invoice the account names (or kept unmatched); anything else
 * → the confirmation is rejected and a security-centre entry left.
 */
export async function acceptStatusResult(body: unknown, request: Request | null) {
  const result = parseStatusResult(body);
  if (!result) {
    await securityEntry(request, { reason: "not a Transaction Status result" });
    return "ignored" as const;
  }
  const db = getDb();
  const [candidate] = await db
    .select({ id: mpesaConfirmations.id })
    .from(mpesaConfirmations)
    .where(
      and(
        eq(mpesaConfirmations.conversationId, result.conversationId),
        eq(mpesaConfirmations.transId, result.transactionId),
      ),
    );
  if (!candidate) {
    await securityEntry(request, {
      reason: "Transaction Status result for no query of ours",
      transId: result.transactionId,
    });
    return "unknown" as const;
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(mpesaConfirmations)
      .where(eq(mpesaConfirmations.id, candidate.id))
      .for("update");
    if (row.state !== "reported") return "duplicate" as const;
    const status = String(result.params.get("TransactionStatus") ?? "");
    const amount = parseMinorUnits(String(result.params.get("Amount") ?? ""), "KES");
    if (result.resultCode !== 0 || status !== "Completed" || !amount || amount <= 0) {
      await tx
        .update(mpesaConfirmations)
        .set({ state: "rejected", resultCode: result.resultCode, resultDesc: result.resultDesc })
        .where(eq(mpesaConfirmations.id, row.id));
      await auditIn(tx, SYSTEM, "mpesa.callback_forged", row.id, {
        reason: `Daraja does not confirm Paybill payment ${row.transId}: ${result.resultDesc || status}`,
        transId: row.transId,
      });
      return "rejected" as const;
    }
    return recordConfirmation(tx, row, amount, SYSTEM, result.resultCode, result.resultDesc);
  });
}

/** Records a confirmed Paybill payment (Daraja's result, or staff confirming one reported). */
async function recordConfirmation(
  tx: Tx,
  row: MpesaConfirmationRow,
  amountMinor: number,
  actor: Actor,
  resultCode: number | null,
  resultDesc: string | null,
) {
  const invoice = row.billRefNumber ? await invoiceForAccount(tx, row.billRefNumber) : undefined;
  const recorded = await recordProviderPaymentIn(
    tx,
    {
      orderId: invoice?.orderId ?? null,
      method: "mpesa",
      reference: row.transId,
      kesMinor: amountMinor,
      paidAt: row.transTime ?? row.createdAt,
      payerAccount: row.billRefNumber,
      mpesaReceipt: row.transId,
      receiptStatus: "confirmed",
      payerPhone: row.msisdn,
    },
    actor,
  );
  const state = recorded.outcome === "unmatched" ? "unmatched" : "recorded";
  await tx
    .update(mpesaConfirmations)
    .set({
      state,
      confirmedAmountMinor: amountMinor,
      paymentId: recorded.paymentId,
      resultCode,
      resultDesc,
    })
    .where(eq(mpesaConfirmations.id, row.id));
  await auditIn(tx, actor, `mpesa_confirmation.${state}`, row.id, {
    transId: row.transId,
    amountMinor,
    paymentId: recorded.paymentId,
    outcome: recorded.outcome,
  });
  return state;
}

/** A Transaction Status query timed out in Daraja's queue: ask again (backoff). */
export async function acceptStatusTimeout(body: unknown, request: Request | null) {
  const result = parseStatusResult(body);
  if (!result) {
    await securityEntry(request, { reason: "not a Transaction Status time-out" });
    return;
  }
  const [row] = await getDb()
    .select({ id: mpesaConfirmations.id, state: mpesaConfirmations.state })
    .from(mpesaConfirmations)
    .where(eq(mpesaConfirmations.conversationId, result.conversationId));
  if (row?.state === "reported") {
    await enqueueJob(getDb(), {
      kind: ORDER_JOBS.mpesaStatusQuery,
      payload: { confirmationId: row.id, round: 2 },
      runAt: new Date(Date.now() + 60_000),
      uniqueKey: `mpesa-confirmation:${row.id}:timeout:${result.conversationId}`,
    });
  }
}

/**
 * Staff confirm a reported Paybill payment they checked on the M-Pesa portal (admins; used when
 * no Transaction Status initiator is configured): recorded for the amount reported.
 */
export async function confirmReportedPayment(confirmationId: string, actor: Actor) {
  if ("role" in actor && actor.role !== "admin") {
    throw new OrderError("Only admins can confirm M-Pesa payments.", 403);
  }
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(mpesaConfirmations)
      .where(eq(mpesaConfirmations.id, confirmationId))
      .for("update");
    if (!row) throw new OrderError("Payment not found", 404);
    if (row.state !== "reported") throw new OrderError("This payment is already handled.", 409);
    return recordConfirmation(tx, row, row.amountMinor, actor, null, null);
  });
}

/** Paybill payments reported and not confirmed yet (the Payments screen). */
export async function listReportedConfirmations(limit = 100) {
  const rows = await getDb()
    .select()
    .from(mpesaConfirmations)
    .where(inArray(mpesaConfirmations.state, ["reported", "rejected"]))
    .orderBy(desc(mpesaConfirmations.createdAt))
    .limit(limit);
  return rows.map((row) => ({ ...row, msisdn: maskPhone(row.msisdn) }));
}

/** Registers our confirmation and validation URLs for the shortcode (start-up, admin action). */
export async function registerPaybillUrls(actor: Actor) {
  const client = daraja();
  if (!client) throw new OrderError("M-Pesa online is not configured.", 409);
  const confirmationUrl = hookUrl("confirmation");
  const answer = await client.registerUrls({
    confirmationUrl,
    validationUrl: hookUrl("validation"),
  });
  await getDb().transaction((tx) =>
    auditIn(tx, actor, "mpesa.register_urls", darajaConfig()?.shortcode ?? "", {
      description: answer.description,
    }),
  );
  return answer;
}

/** At start-up: the registration as a job (retried with backoff while Daraja is away). */
export async function enqueuePaybillRegistration() {
  if (!darajaConfig()) return;
  await enqueueJob(getDb(), {
    kind: ORDER_JOBS.mpesaRegisterUrls,
    payload: {},
    uniqueKey: `mpesa:register-urls:${new Date().toISOString().slice(0, 13)}`,
  });
}

export const countReported = () =>
  getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(mpesaConfirmations)
    .where(eq(mpesaConfirmations.state, "reported"));
