import { count, desc, eq, isNull } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { contactMessages } from "~/db/schema";
import { recordAudit } from "~/lib/audit.server";

export const MESSAGES_PAGE_SIZE = 20;

export type InboxMessage = {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  region: string | null;
  createdAt: string;
  readAt: string | null;
};

/** Contact messages for staff, newest first; `unreadOnly` narrows to the unread ones. */
export async function listMessages({
  page: requestedPage = 1,
  unreadOnly = false,
}: {
  page?: number;
  unreadOnly?: boolean;
}) {
  const db = getDb();
  const where = unreadOnly ? isNull(contactMessages.readAt) : undefined;
  const [[{ total }], [{ unread }]] = await Promise.all([
    db.select({ total: count() }).from(contactMessages).where(where),
    db.select({ unread: count() }).from(contactMessages).where(isNull(contactMessages.readAt)),
  ]);
  const pageCount = Math.max(1, Math.ceil(total / MESSAGES_PAGE_SIZE));
  const page = Math.min(Math.max(1, requestedPage), pageCount);
  const rows = await db
    .select({
      id: contactMessages.id,
      name: contactMessages.name,
      email: contactMessages.email,
      subject: contactMessages.subject,
      message: contactMessages.message,
      region: contactMessages.region,
      createdAt: contactMessages.createdAt,
      readAt: contactMessages.readAt,
    })
    .from(contactMessages)
    .where(where)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(MESSAGES_PAGE_SIZE)
    .offset((page - 1) * MESSAGES_PAGE_SIZE);
  const messages: InboxMessage[] = rows.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    readAt: r.readAt?.toISOString() ?? null,
  }));
  return { messages, total, unread, page, pageCount };
}

/** Marks a message read (now) or unread; false when it does not exist. */
export async function setMessageRead(id: string, read: boolean) {
  const rows = await getDb()
    .update(contactMessages)
    .set({ readAt: read ? new Date() : null })
    .where(eq(contactMessages.id, id))
    .returning({ id: contactMessages.id });
  return rows.length > 0;
}

/** Deletes a message and records who did; returns its subject, or null when it was not there. */
export async function deleteMessage(request: Request, id: string, actorId: string) {
  const [row] = await getDb()
    .delete(contactMessages)
    .where(eq(contactMessages.id, id))
    .returning({ id: contactMessages.id, subject: contactMessages.subject });
  if (!row) return null;
  await recordAudit(request, {
    action: "contact_message.delete",
    actorId,
    entity: "contact_message",
    entityId: row.id,
  });
  return row.subject;
}
