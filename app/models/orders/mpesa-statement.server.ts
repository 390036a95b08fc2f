// Reconciliation that does not depend on callbacks (issue 34 §6, decision 0098): staff upload the
// M-Pesa statement CSV from the organisation portal. Each completed line with money paid in is
// matched by its receipt number first; payments recorded with a receipt "to be matched" (or one
// only reported by a callback) are matched by account, amount, phone and time; a Paybill payment
// reported and not yet confirmed is confirmed; missing payments are recorded (the uploader in the
// audit row); the rest are listed. A line already recorded is skipped, so a re-upload changes nothing.
import { and, eq, gte, inArray, isNull, lte, ne, or, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { invoices, mpesaConfirmations, payments } from "~/db/schema";
import { parseCsv } from "~/lib/csv";
import { type Actor, auditIn, isPerson } from "~/lib/lifecycle.server";
import { parseMinorUnits } from "~/lib/money";
import { parseDarajaTime } from "./mpesa-paybill.server";
import { OrderError } from "./order-error";
import { invoiceForAccount, recordProviderPaymentIn } from "./orders.server";

export type StatementLine = {
  receipt: string;
  completedAt: Date | null;
  paidInMinor: number;
  account: string | null;
  /** The digits the portal shows of the payer's number ("2547******678"), for matching. */
  phoneDigits: string | null;
  status: string;
};

function parseTime(text: string): Date | null {
  const t = text.trim();
  // The portal: "2027-03-14 10:21:05" (Nairobi time); Daraja style "20270314102105" too.
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(t);
  if (m) {
    const [, y, mo, d, h, mi, s] = m.map((v) => Number(v ?? 0));
    return new Date(Date.UTC(y, mo - 1, d, h - 3, mi, s || 0));
  }
  return parseDarajaTime(t);
}

/**
 * The statement's lines with money paid in. Header names as the portal writes them ("Receipt
 * No.", "Completion Time", "Paid In", "Transaction Status", "Other Party Info", "A/C No.");
 * throws an OrderError (400) naming what is missing.
 */
export function parseStatement(text: string): StatementLine[] {
  const rows = parseCsv(text);
  const headerAt = rows.findIndex((r) => r.some((c) => /receipt\s*no/i.test(c)));
  if (headerAt === -1) {
    throw new OrderError(
      "This is not an M-Pesa statement: no 'Receipt No.' column. Download the statement as CSV from the M-Pesa organisation portal.",
      400,
    );
  }
  const header = rows[headerAt].map((c) => c.trim().toLowerCase());
  const col = (pattern: RegExp) => header.findIndex((c) => pattern.test(c));
  const at = {
    receipt: col(/^receipt\s*no/),
    completed: col(/^completion\s*time/),
    paidIn: col(/^paid\s*in/),
    status: col(/^transaction\s*status/),
    other: col(/^other\s*party/),
    account: col(/^a\/c\s*no|^account/),
  };
  if (at.paidIn === -1) throw new OrderError("The statement has no 'Paid In' column.", 400);
  const lines: StatementLine[] = [];
  for (const row of rows.slice(headerAt + 1)) {
    const receipt = (row[at.receipt] ?? "").trim().toUpperCase();
    const paidIn = parseMinorUnits((row[at.paidIn] ?? "").replace(/,/g, "").trim(), "KES");
    if (!/^[A-Z0-9]{6,20}$/.test(receipt) || !paidIn || paidIn <= 0) continue;
    const status = at.status === -1 ? "Completed" : (row[at.status] ?? "").trim();
    if (!/^completed$/i.test(status)) continue;
    const other = at.other === -1 ? "" : (row[at.other] ?? "");
    const phone = /(\d[\d*•]{8,13}\d)/.exec(other.replace(/\s/g, ""))?.[1] ?? null;
    lines.push({
      receipt,
      completedAt: at.completed === -1 ? null : parseTime(row[at.completed] ?? ""),
      paidInMinor: paidIn,
      account: at.account === -1 ? null : (row[at.account] ?? "").trim() || null,
      phoneDigits: phone,
      status,
    });
  }
  return lines;
}

/** Whether a masked statement number ("2547******678") can be this full number. */
export function samePhone(masked: string | null, full: string | null) {
  if (!masked || !full) return false;
  if (masked.length !== full.length) return false;
  return [...masked].every((c, i) => !/\d/.test(c) || c === full[i]);
}

export type StatementOutcome = {
  lines: number;
  alreadyRecorded: number;
  confirmed: number;
  recorded: number;
  unmatched: Array<{ receipt: string; amountMinor: number; account: string | null }>;
};

const MATCH_WINDOW_MS = 24 * 3_600_000;

/** Applies an uploaded statement (admins). Each line in its own transaction; idempotent. */
export async function reconcileStatement(text: string, actor: Actor): Promise<StatementOutcome> {
  if (isPerson(actor) && actor.role !== "admin") {
    throw new OrderError("Only admins can reconcile the M-Pesa statement.", 403);
  }
  const lines = parseStatement(text);
  const outcome: StatementOutcome = {
    lines: lines.length,
    alreadyRecorded: 0,
    confirmed: 0,
    recorded: 0,
    unmatched: [],
  };
  for (const line of lines) {
    const result = await getDb().transaction(async (tx) => {
      // 1. Known by its receipt: skipped, or a receipt only reported is now confirmed.
      const [known] = await tx
        .select()
        .from(payments)
        .where(
          and(
            eq(payments.method, "mpesa"),
            or(eq(payments.reference, line.receipt), eq(payments.mpesaReceipt, line.receipt)),
          ),
        )
        .for("update");
      if (known) {
        if (known.receiptStatus === "reported") {
          await tx
            .update(payments)
            .set({ receiptStatus: "confirmed" })
            .where(eq(payments.id, known.id));
          await auditIn(tx, actor, "payment.receipt_confirmed", known.id, {
            receipt: line.receipt,
            by: "statement",
          });
          return "confirmed" as const;
        }
        return "already" as const;
      }
      // 2. A payment whose receipt is to be matched (or was only reported, differently):
      //    same shillings, same account, the number the statement shows, within a day.
      const from = line.completedAt ? new Date(line.completedAt.getTime() - MATCH_WINDOW_MS) : null;
      const to = line.completedAt ? new Date(line.completedAt.getTime() + MATCH_WINDOW_MS) : null;
      const candidates = await tx
        .select({
          payment: payments,
          reference: invoices.paymentReference,
          number: invoices.number,
        })
        .from(payments)
        .leftJoin(invoices, eq(invoices.orderId, payments.orderId))
        .where(
          and(
            eq(payments.method, "mpesa"),
            inArray(payments.receiptStatus, ["to_be_matched", "reported"]),
            or(isNull(payments.mpesaReceipt), ne(payments.mpesaReceipt, line.receipt)),
            sql`coalesce(${payments.receivedMinor}, ${payments.amountMinor}) = ${line.paidInMinor}`,
            ...(from && to ? [gte(payments.paidAt, from), lte(payments.paidAt, to)] : []),
          ),
        );
      const match = candidates.find(
        (c) =>
          (!line.account ||
            line.account === c.reference ||
            line.account.toUpperCase() === c.number) &&
          (!line.phoneDigits || samePhone(line.phoneDigits, c.payment.payerPhone)),
      );
      if (match) {
        await tx
          .update(payments)
          .set({ mpesaReceipt: line.receipt, receiptStatus: "confirmed" })
          .where(eq(payments.id, match.payment.id));
        await auditIn(tx, actor, "payment.receipt_matched", match.payment.id, {
          receipt: line.receipt,
          was: match.payment.mpesaReceipt,
          by: "statement",
        });
        return "confirmed" as const;
      }
      // 3. Missing: recorded now (a Paybill confirmation still waiting is settled with it).
      const invoice = line.account ? await invoiceForAccount(tx, line.account) : undefined;
      const recorded = await recordProviderPaymentIn(
        tx,
        {
          orderId: invoice?.orderId ?? null,
          method: "mpesa",
          reference: line.receipt,
          kesMinor: line.paidInMinor,
          paidAt: line.completedAt ?? new Date(),
          payerAccount: line.account,
          mpesaReceipt: line.receipt,
          receiptStatus: "confirmed",
          payerPhone: null,
        },
        actor,
      );
      await tx
        .update(mpesaConfirmations)
        .set({
          state: recorded.outcome === "unmatched" ? "unmatched" : "recorded",
          confirmedAmountMinor: line.paidInMinor,
          paymentId: recorded.paymentId,
        })
        .where(
          and(
            eq(mpesaConfirmations.transId, line.receipt),
            eq(mpesaConfirmations.state, "reported"),
          ),
        );
      return recorded.outcome === "unmatched" ? ("unmatched" as const) : ("recorded" as const);
    });
    if (result === "already") outcome.alreadyRecorded++;
    else if (result === "confirmed") outcome.confirmed++;
    else if (result === "recorded") outcome.recorded++;
    else
      outcome.unmatched.push({
        receipt: line.receipt,
        amountMinor: line.paidInMinor,
        account: line.account,
      });
  }
  return outcome;
}
