/**
 * Manuscript uploads against the production build (issue 32): the submission form says "one PDF
 * of at most 10 MB", so a 3 MB file reaches the action (which reads it) and a larger one gets the
 * form's own message with 400, never the server's bare 413 for forms over 1 MB.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "~/models/seed/demo-accounts";
import { type RunningServer, startServer } from "../helpers/server-process";

const MB = 1024 * 1024;

/** A "PDF" of `bytes` bytes with no text (the action refuses it as a scan, after reading it). */
function pdf(bytes: number) {
  const body = Buffer.alloc(bytes, 0x20);
  body.write("%PDF-1.4\n");
  body.write("\n%%EOF\n", bytes - 7);
  return new File([body], "paper.pdf", { type: "application/pdf" });
}

describe("manuscript uploads up to 10 MB", () => {
  let server: RunningServer;
  const cookies: Record<"editor" | "user", string> = { editor: "", user: "" };
  let callId = "";

  const send = (path: string, cookie: string, form: FormData | URLSearchParams) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, Origin: server.url },
      body: form,
    });

  beforeAll(async () => {
    server = await startServer({ REQUIRE_ADMIN_MFA: "false", REQUIRE_EDITOR_MFA: "false" });
    for (const role of ["editor", "user"] as const) {
      const account = DEMO_ACCOUNTS.find((a) => a.role === role)!;
      const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: server.url },
        body: JSON.stringify({ email: account.email, password: DEMO_PASSWORD }),
      });
      expect(signIn.status).toBe(200);
      cookies[role] = signIn.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
    }
    const created = await send(
      "/admin/calls/new",
      cookies.editor,
      new URLSearchParams({
        title: "Upload limits call",
        criteria: "Originality",
        submissionDeadline: "2099-01-01",
        reviewDeadline: "2099-02-01",
        eventId: "none",
        blindMode: "double",
      }),
    );
    expect(created.status).toBe(302);
    const list = await (
      await fetch(`${server.url}/admin/calls`, { headers: { cookie: cookies.editor } })
    ).text();
    callId = /\/admin\/calls\/([0-9a-f-]{36})\/edit/.exec(list)?.[1] ?? "";
    const opened = await send(
      "/admin/calls",
      cookies.editor,
      new URLSearchParams({ intent: "open", id: callId }),
    );
    expect(opened.status).toBe(302);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  const form = (file: File) => {
    const body = new FormData();
    body.append("title", "A paper");
    body.append("authors[0].name", "Amina Wanjiru");
    body.append("intent", "save");
    body.append("manuscript", file);
    return body;
  };

  it("reads a 3 MB manuscript in the action (this one refused by the form's own check)", async () => {
    const response = await send(`/papers/calls/${callId}/submit`, cookies.user, form(pdf(3 * MB)));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/text-based PDF|could not be read/);
  });

  it("answers a manuscript over 10 MB with the form's message, not a bare 413", async () => {
    const response = await send(`/papers/calls/${callId}/submit`, cookies.user, form(pdf(11 * MB)));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Please upload a PDF of at most 10 MB");
  });
});
