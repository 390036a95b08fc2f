import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { env } from "./env.server";
import { sendMail } from "./mail.server";

describe("mail without SMTP_URL", () => {
  it("writes the message and its attachments into the outbox, the message naming its files", async () => {
    expect(env().SMTP_URL).toBeUndefined();
    const pdf = Buffer.from("%PDF-1.7 invoice INV-2027-000042");
    await sendMail({
      to: "wanjiku@example.com",
      subject: "Invoice INV-2027-000042",
      text: "Pay by M-Pesa: Paybill 123456, account INV-2027-000042.",
      attachments: [
        { filename: "INV 2027/000042.pdf", content: pdf, contentType: "application/pdf" },
      ],
      messageId: "<abc@kongamano.org>",
    });
    const dir = path.join(env().DATA_DIR, "outbox");
    const files = await readdir(dir);
    const message = files.find((f) => f.endsWith(".eml.txt"));
    expect(message).toBeDefined();
    const text = await readFile(path.join(dir, message!), "utf8");
    expect(text).toContain("Subject: Invoice INV-2027-000042");
    expect(text).toContain("Message-ID: <abc@kongamano.org>");
    expect(text).toContain("account INV-2027-000042.");
    const attachment = text.match(/^X-Attachment-File: (.+)$/m)?.[1];
    // The name keeps only safe characters and never leaves the outbox folder.
    expect(attachment).toMatch(/^[\w.-]+-000042\.pdf$/);
    expect(await readFile(path.join(dir, attachment!))).toEqual(pdf);
  });
});
