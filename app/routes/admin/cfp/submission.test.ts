// The editor's submission page (issue 32): refused forms come back with their message and what was
// typed; addresses are never shown whole; the rules the page shows hold in the action.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { user } from "~/db/schema";
import type { PersonActor } from "~/lib/lifecycle.server";
import { createCall } from "~/models/cfp/calls.server";
import { saveDraft, submit } from "~/models/cfp/submissions.server";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../../tests/helpers/db";
import { sessionCookieFor } from "../../../../tests/helpers/session";
import { action, loader } from "./submission";

wireProcess();

const ORIGIN = "http://localhost:3000";
const DAY = 86_400_000;

// biome-ignore lint/suspicious/noExplicitAny: route args carry more than the test needs
const args = (cookie: string, id: string, body?: Record<string, string>): any => {
  const form = new FormData();
  for (const [key, value] of Object.entries(body ?? {})) form.set(key, value);
  return {
    request: new Request(`${ORIGIN}/admin/submissions/${id}`, {
      method: body ? "POST" : "GET",
      headers: { cookie, Origin: ORIGIN },
      body: body ? form : undefined,
    }),
    params: { id },
    context: { cspNonce: "", requestId: "" },
  };
};

// biome-ignore lint/suspicious/noExplicitAny: data() or a plain value
const answer = (result: any) =>
  result && typeof result === "object" && "init" in result
    ? { status: result.init?.status ?? 200, data: result.data }
    : { status: 200, data: result };

describe("the editor's submission page", () => {
  const database = useTestDatabase();
  let editorCookie = "";
  let submissionId = "";

  async function person(role: "user" | "editor", email: string) {
    const id = randomUUID();
    await database.db.insert(user).values({
      id,
      name: `Person ${id.slice(0, 4)}`,
      email,
      role,
      twoFactorEnabled: role !== "user",
    });
    return { id, role } as PersonActor;
  }

  beforeAll(async () => {
    const editor = await person("editor", "editor.page@example.test");
    editorCookie = await sessionCookieFor(editor.id);
    const author = await person("user", "author.page@example.test");
    await person("user", "known.reviewer@example.test");
    const call = await createCall(
      editor,
      {
        title: "Editor page call",
        description: "",
        tracks: [],
        submissionDeadline: new Date(Date.now() + 30 * DAY),
        reviewDeadline: new Date(Date.now() + 60 * DAY),
        eventId: null,
        blindMode: "double",
        criteria: ["Relevance"],
      },
      { open: true },
    );
    const draft = await saveDraft(
      author,
      { callId: call.id },
      {
        title: "Editor page paper",
        abstract: "An abstract.",
        keywords: ["one", "two", "three"],
        track: null,
        authors: [
          { name: "Author Page", email: "author.page@example.test", corresponding: true },
          { name: "Co Author", email: "co.author.page@example.test" },
        ],
        declaration: true,
        manuscript: new TextEncoder().encode("%PDF-1.4\n% manuscript\n%%EOF\n"),
      },
    );
    await submit(author, draft.id);
    submissionId = draft.id;
  });

  it("refuses an author as reviewer with the message under the field and the typed values", async () => {
    const refused = answer(
      await action(
        args(editorCookie, submissionId, {
          intent: "assign",
          email: "co.author.page@example.test",
          dueDate: "2099-01-31",
        }),
      ),
    );
    expect(refused.status).toBe(400);
    expect(refused.data.fieldErrors.email).toEqual([
      "An author of this submission cannot review it.",
    ]);
    expect(refused.data.values).toMatchObject({ dueDate: "2099-01-31" });
    const noDate = answer(
      await action(args(editorCookie, submissionId, { intent: "assign", email: "x@example.test" })),
    );
    expect(noDate.status).toBe(400);
    expect(noDate.data.fieldErrors.dueDate).toEqual(["Choose the due date"]);
  });

  it("asks reviewers by address and never shows an address whole", async () => {
    for (const email of ["known.reviewer@example.test", "new.reviewer@example.test"]) {
      const asked = answer(
        await action(
          args(editorCookie, submissionId, { intent: "assign", email, dueDate: "2099-01-31" }),
        ),
      );
      expect(asked.data).toMatchObject({ intent: "assign", done: expect.stringMatching(/asked/) });
    }
    const page = answer(await loader(args(editorCookie, submissionId))).data;
    const text = JSON.stringify(page);
    for (const email of [
      "known.reviewer@example.test",
      "new.reviewer@example.test",
      "author.page@example.test",
      "co.author.page@example.test",
    ]) {
      expect(text).not.toContain(email);
    }
    expect(page.assignments).toHaveLength(2);
    expect(page.assignments[1]).toMatchObject({ waitingForAccount: true });
    expect(page.can).toMatchObject({ assign: true, deskReject: false, decide: false });
  });

  it("holds the rules the page shows: no decision before two reviews, no desk-reject in review", async () => {
    const early = answer(
      await action(
        args(editorCookie, submissionId, { intent: "decide", outcome: "accepted", letter: "Yes" }),
      ),
    );
    expect(early.status).toBe(409);
    expect(early.data.formError).toMatch(/at least 2 submitted reviews/);
    const desk = answer(
      await action(args(editorCookie, submissionId, { intent: "desk-reject", reason: "Scope" })),
    );
    expect(desk.status).toBe(409);
    const unknown = answer(await action(args(editorCookie, submissionId, { intent: "nope" })));
    expect(unknown.status).toBe(400);
  });
});
