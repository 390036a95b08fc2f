import { type Database, getDb } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { logger } from "./logger.server";
import { clientIp, userAgent } from "./request.server";

export type AuditEntry = {
  /** e.g. 'auth.sign_in', 'auth.sign_in_failed', 'event.create', 'user.role_change' */
  action: string;
  actorId?: string | null;
  /** The e-mail the action concerned (attempted sign-in, invitation). Scrubbed on deletion. */
  actorEmail?: string | null;
  entity?: string;
  entityId?: string | null;
  details?: Record<string, unknown>;
};

function auditValues(request: Request | null, entry: AuditEntry) {
  return {
    action: entry.action,
    actorId: entry.actorId ?? null,
    actorEmail: entry.actorEmail ?? null,
    entity: entry.entity ?? null,
    entityId: entry.entityId ?? null,
    details: entry.details ?? null,
    ip: request ? clientIp(request) : null,
    userAgent: request ? userAgent(request) : null,
  };
}

/** Writes one audit row with the caller's IP and user agent. Never throws: failures are logged. */
export async function recordAudit(request: Request | null, entry: AuditEntry) {
  try {
    await getDb().insert(auditLog).values(auditValues(request, entry));
  } catch (error) {
    logger.error({ err: error, action: entry.action }, "audit write failed");
  }
}

/**
 * Writes the audit row inside the caller's transaction, so the change and its record commit or
 * roll back together (state transitions of orders and payments). Throws like any other write.
 */
export async function recordAuditIn(
  tx: Pick<Database, "insert">,
  request: Request | null,
  entry: AuditEntry,
) {
  await auditInsert(tx, request, entry);
}

/** The insert of one audit row, not yet run: to send with the change it records (`alongside`). */
export function auditInsert(
  tx: Pick<Database, "insert">,
  request: Request | null,
  entry: AuditEntry,
) {
  return tx.insert(auditLog).values(auditValues(request, entry));
}
