import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { auditLog, contactMessages, user } from "~/db/schema";
import { useTestDatabase } from "../../../tests/helpers/db";
import { deleteMessage, listMessages, MESSAGES_PAGE_SIZE, setMessageRead } from "./messages.server";

describe("inbox", () => {
  const database = useTestDatabase();
  const request = () => new Request("http://localhost:3000/admin/messages", { method: "POST" });

  async function addMessage(subject: string, createdAt: Date) {
    const [row] = await database.db
      .insert(contactMessages)
      .values({ name: "Sender", email: "sender@example.com", subject, message: "Hi", createdAt })
      .returning({ id: contactMessages.id });
    return row.id;
  }

  beforeEach(async () => {
    await database.db.delete(auditLog);
    await database.db.delete(contactMessages);
  });

  it("lists newest first with the unread count, and pages", async () => {
    for (let i = 0; i < MESSAGES_PAGE_SIZE + 2; i++) {
      await addMessage(`Subject ${i}`, new Date(Date.UTC(2026, 0, 1, 0, i)));
    }
    const first = await listMessages({});
    expect(first.messages[0].subject).toBe(`Subject ${MESSAGES_PAGE_SIZE + 1}`);
    expect(first).toMatchObject({ total: MESSAGES_PAGE_SIZE + 2, unread: MESSAGES_PAGE_SIZE + 2 });
    expect(first.pageCount).toBe(2);
    expect((await listMessages({ page: 2 })).messages.map((m) => m.subject)).toEqual([
      "Subject 1",
      "Subject 0",
    ]);
  });

  it("marks read and unread, and filters the unread", async () => {
    const a = await addMessage("A", new Date(Date.UTC(2026, 0, 1)));
    await addMessage("B", new Date(Date.UTC(2026, 0, 2)));
    expect(await setMessageRead(a, true)).toBe(true);
    let inbox = await listMessages({});
    expect(inbox.unread).toBe(1);
    expect(inbox.messages.find((m) => m.id === a)?.readAt).not.toBeNull();
    expect((await listMessages({ unreadOnly: true })).messages.map((m) => m.subject)).toEqual([
      "B",
    ]);
    await setMessageRead(a, false);
    inbox = await listMessages({});
    expect(inbox.unread).toBe(2);
    expect(await setMessageRead(randomUUID(), true)).toBe(false);
  });

  it("deletes with an audit row", async () => {
    const actor = randomUUID();
    await database.db
      .insert(user)
      .values({ id: actor, name: "Ed", email: `${actor}@example.com`, role: "editor" });
    const id = await addMessage("Bye", new Date());
    expect(await deleteMessage(request(), id, actor)).toBe("Bye");
    expect(await deleteMessage(request(), id, actor)).toBeNull();
    expect((await listMessages({})).total).toBe(0);
    expect(await database.db.select().from(auditLog)).toMatchObject([
      { action: "contact_message.delete", actorId: actor, entityId: id },
    ]);
  });
});
