import { randomUUID } from "node:crypto";
import { parseWithZod } from "@conform-to/zod/v4";
import { and, eq } from "drizzle-orm";
import type { $ZodType } from "zod/v4/core";
import type { Database } from "~/db/client.server";
import { auditLog, user } from "~/db/schema";
import type { PersonActor } from "~/lib/lifecycle.server";

/** A staff account to act as in model tests (audit rows reference it). */
export async function createActor(db: Database, role: "editor" | "admin" = "editor") {
  const id = randomUUID();
  await db.insert(user).values({ id, name: `Test ${role}`, email: `${id}@example.test`, role });
  const request = new Request("http://localhost/admin", {
    headers: { "user-agent": "vitest" },
  });
  return { id, ctx: { id, role, request } satisfies PersonActor };
}

/** The audit rows written for one entity id. */
export function auditRowsFor(db: Database, entity: string, entityId: string) {
  return db
    .select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, entityId)))
    .orderBy(auditLog.createdAt);
}

/**
 * Parses form fields with a form schema as an action would (Conform's coercion included) and
 * returns the outcome in one shape: `value` on success, `error` (field → messages) otherwise.
 */
export function parseForm<Schema extends $ZodType>(
  schema: Schema,
  fields: Record<string, string | string[] | File>,
) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) formData.append(name, item);
  }
  const submission = parseWithZod(formData, { schema });
  return submission.status === "success"
    ? { status: "success" as const, value: submission.value, error: undefined }
    : { status: "error" as const, value: undefined, error: submission.error ?? {} };
}
