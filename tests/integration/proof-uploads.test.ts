/**
 * Proof uploads against the production build (issue 26 §8): the student proof (membership
 * application) and the payment proof (back office) forms say "at most 5 MB", so a 1–5 MB file is
 * taken end to end and a larger one gets the form's own message with 400, never a bare 413.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "~/models/seed/demo-accounts";
import { type RunningServer, startServer } from "../helpers/server-process";

const MB = 1024 * 1024;
const TOO_LARGE = "The proof file must be at most 5 MB.";

/** A PDF of `bytes` bytes (the proof check reads the signature, not the structure). */
function pdf(bytes: number) {
  const body = Buffer.alloc(bytes, 0x20);
  body.write("%PDF-1.4\n");
  body.write("\n%%EOF\n", bytes - 7);
  return new File([body], "proof.pdf", { type: "application/pdf" });
}

describe("proof uploads up to 5 MB", () => {
  let server: RunningServer;
  let cookie = "";

  beforeAll(async () => {
    server = await startServer({ REQUIRE_ADMIN_MFA: "false", REQUIRE_EDITOR_MFA: "false" });
    const admin = DEMO_ACCOUNTS.find((a) => a.role === "admin")!;
    const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify({ email: admin.email, password: DEMO_PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
  });

  const submit = (path: string, form: FormData) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, Origin: server.url },
      body: form,
    });

  const application = (proof: File) => {
    const form = new FormData();
    form.append("plan", "individual");
    form.append("memberName", "Amina Wanjiru");
    form.append("student", "on");
    form.append("studentProof", proof);
    return form;
  };

  it("answers a 6 MB student proof with the form's message and 400", async () => {
    const response = await submit("/membership/apply/individual", application(pdf(6 * MB)));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(TOO_LARGE);
  });

  it("answers a 6 MB payment proof with the form's message and 400", async () => {
    const form = new FormData();
    form.append("intent", "record");
    form.append("proof", pdf(6 * MB));
    const response = await submit("/admin/payments", form);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(TOO_LARGE);
  });

  it("answers an over-limit proof sent in chunks (no Content-Length) the same way", async () => {
    const boundary = "zz";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="plan"\r\n\r\nindividual\r\n--${boundary}\r\nContent-Disposition: form-data; name="studentProof"; filename="p.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`;
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request({
        host: "127.0.0.1",
        port: server.port,
        path: "/membership/apply/individual",
        method: "POST",
        agent: false,
        headers: {
          cookie,
          Origin: server.url,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Transfer-Encoding": "chunked",
        },
      });
      request.on("response", (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
      });
      request.on("error", reject);
      request.write(head);
      for (let i = 0; i < 6; i++) request.write(Buffer.alloc(MB, 0x20));
      request.end(`\r\n--${boundary}--\r\n`);
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(TOO_LARGE);
  });

  it("passes a 4 MB payment proof to the action (its form is checked, not its size)", async () => {
    const form = new FormData();
    form.append("intent", "record");
    form.append("proof", pdf(4 * MB));
    const response = await submit("/admin/payments", form);
    // No invoice, amount or method: the form's field errors, not a size refusal.
    expect(response.status).toBe(400);
    expect(await response.text()).not.toContain(TOO_LARGE);
  });

  it("takes a 4 MB student proof end to end: the application is received", async () => {
    const response = await submit("/membership/apply/individual", application(pdf(4 * MB)));
    expect(
      response.status,
      await response
        .clone()
        .text()
        .then((t) => t.slice(0, 300)),
    ).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/(orders\/|profile)/);
  });
});
