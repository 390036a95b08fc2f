import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEnv } from "../../tests/helpers/env";
import { startTestSmtp } from "../../tests/helpers/smtp";
import { env, setEnv } from "./env.server";
import { type Mail, sendMail } from "./mail.server";
import { renderMail } from "./mail-layout.server";

const pdf = Buffer.from("%PDF-1.7 invoice INV-2027-000042");

function invoiceMail(): Mail {
  return {
    to: "wanjiku@example.com",
    ...renderMail({
      subject: "Invoice INV-2027-000042 from Kongamano",
      greeting: "Dear Wanjirũ,",
      blocks: [
        { kind: "paragraph", text: "Pay by M-Pesa: Paybill 123456, account INV-2027-000042." },
        { kind: "button", label: "View your order", url: "http://localhost:3000/orders/o-1" },
      ],
    }),
    attachments: [
      { filename: "INV 2027/000042.pdf", content: pdf, contentType: "application/pdf" },
    ],
    messageId: "<abc@kongamano.org>",
  };
}

describe("mail without SMTP_URL", () => {
  it("writes the RFC 5322 message SMTP would carry as .eml, its attachments beside it", async () => {
    expect(env().SMTP_URL).toBeUndefined();
    const dir = path.join(env().DATA_DIR, "outbox");
    const before = new Set(await readdir(dir).catch(() => []));
    await sendMail(invoiceMail());
    const added = (await readdir(dir)).filter((f) => !before.has(f));
    const eml = added.find((f) => f.endsWith(".eml"));
    expect(eml).toBeDefined();

    // A real mail parser reads it as the mail a person receives.
    const raw = await readFile(path.join(dir, eml!));
    expect(raw.toString("latin1")).toMatch(/\r\n\r\n/); // CRLF line ends, as on the wire
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe("Invoice INV-2027-000042 from Kongamano");
    expect(parsed.messageId).toBe("<abc@kongamano.org>");
    expect(parsed.to && "text" in parsed.to ? parsed.to.text : "").toBe("wanjiku@example.com");
    expect(parsed.from?.value[0].address).toBe(env().MAIL_FROM.match(/<(.+)>/)?.[1]);
    expect(parsed.date).toBeInstanceOf(Date);
    expect(parsed.headers.get("auto-submitted")).toBe("auto-generated");
    expect(parsed.text).toContain("Dear Wanjirũ,");
    expect(parsed.text).toContain("account INV-2027-000042.");
    expect(parsed.text).toContain("View your order:\nhttp://localhost:3000/orders/o-1");
    expect(parsed.html).toContain('<html lang="en"');
    expect(parsed.html).toContain("Dear Wanjirũ,");
    expect(parsed.attachments.map((a) => a.filename)).toEqual(["INV 2027/000042.pdf"]);
    expect(parsed.attachments[0].content).toEqual(pdf);

    // The attachment also as a file: safe characters only, never outside the outbox folder.
    const stem = eml!.replace(/\.eml$/, "");
    const beside = added.filter((f) => f !== eml);
    expect(beside).toEqual([`${stem}-000042.pdf`]);
    expect(await readFile(path.join(dir, beside[0]))).toEqual(pdf);
  });
});

describe("mail over SMTP_URL", () => {
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  const working = env();

  beforeAll(async () => {
    smtp = await startTestSmtp();
    setEnv(testEnv({ SMTP_URL: smtp.url }));
  });
  afterAll(async () => {
    setEnv(working);
    await smtp.close();
  });

  it("sends the same message: both parts, the auto-generated header, the named attachment", async () => {
    await sendMail(invoiceMail());
    const mail = await smtp.waitFor("wanjiku@example.com", /INV-2027-000042/);
    expect(mail.headers["auto-submitted"]).toBe("auto-generated");
    expect(mail.headers["x-auto-response-suppress"]).toBe("All");
    expect(mail.messageId).toBe("<abc@kongamano.org>");
    expect(mail.text).toContain("Pay by M-Pesa: Paybill 123456, account INV-2027-000042.");
    expect(mail.html).toContain('href="http://localhost:3000/orders/o-1"');
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ["INV 2027/000042.pdf", "application/pdf"],
    ]);
  });
});
