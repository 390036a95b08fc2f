import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { contactMessages, rateLimit } from "~/db/schema";
import { setEnv } from "~/lib/env.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { testEnv } from "../../../tests/helpers/env";
import { startTestSmtp } from "../../../tests/helpers/smtp";
import {
  CONTACT_RATE_LIMIT,
  type ContactMessageInput,
  contactNotification,
  receiveContactMessage,
} from "./contact.server";

const STAFF = "staff@kongamano.test";

const message = (overrides: Partial<ContactMessageInput> = {}): ContactMessageInput => ({
  name: "Wanjiku Kamau",
  email: "wanjiku@example.com",
  subject: "Partnership Inquiry",
  message: "We would like to co-host a data governance workshop in Mombasa.",
  region: "africa",
  ...overrides,
});

describe("contact messages", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let ipCounter = 0;
  const sender = () => ({ ip: `192.0.2.${++ipCounter}`, userAgent: "vitest" });

  function configure(smtpUrl: string) {
    setEnv(testEnv({ SMTP_URL: smtpUrl, CONTACT_TO: STAFF }));
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    configure(smtp.url);
  });
  afterAll(async () => {
    await smtp.close();
  });
  beforeEach(async () => {
    smtp.messages.length = 0;
    await database.db.delete(contactMessages);
    await database.db.delete(rateLimit);
  });

  it("stores the message and mails it to the staff address", async () => {
    const outcome = await receiveContactMessage(message(), sender());
    expect(outcome.status).toBe("sent");

    const rows = await database.db.select().from(contactMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: "Wanjiku Kamau",
      email: "wanjiku@example.com",
      subject: "Partnership Inquiry",
      region: "africa",
      userAgent: "vitest",
    });
    expect(rows[0].ip).toMatch(/^192\.0\.2\./);

    const mail = await smtp.waitFor(STAFF);
    expect(mail.subject).toBe("[Contact] Partnership Inquiry");
    expect(mail.text).toContain("co-host a data governance workshop in Mombasa");
    expect(mail.text).toContain("wanjiku@example.com");
    expect(mail.text).toContain("Region: Africa");
  });

  it("addresses the notification so that replying answers the sender", () => {
    const mail = contactNotification(
      message({ subject: "Line one\r\nBcc: evil@example.com" }),
      new Date(),
    );
    expect(mail).toMatchObject({ to: STAFF, replyTo: "wanjiku@example.com" });
    expect(mail.subject).toBe("[Contact] Line one Bcc: evil@example.com");
    expect(contactNotification(message({ region: null }), new Date()).text).toContain(
      "Region: Not specified",
    );
  });

  it("drops a submission whose honeypot is filled, silently", async () => {
    const outcome = await receiveContactMessage(message(), {
      ...sender(),
      honeypot: "https://spam.example",
    });
    expect(outcome.status).toBe("dropped");
    expect(await database.db.select().from(contactMessages)).toHaveLength(0);
    // A message is sent before receiveContactMessage returns: none is on its way.
    expect(smtp.messages).toHaveLength(0);
  });

  it("limits each client to a few messages per window", async () => {
    const client = sender();
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++) {
      expect((await receiveContactMessage(message(), client)).status).toBe("sent");
    }
    const blocked = await receiveContactMessage(message(), client);
    expect(blocked).toMatchObject({ status: "rate-limited" });
    if (blocked.status === "rate-limited") expect(blocked.retryAfterSeconds).toBeGreaterThan(0);
    expect(await database.db.select().from(contactMessages)).toHaveLength(CONTACT_RATE_LIMIT.max);
    // Another client is not affected.
    expect((await receiveContactMessage(message(), sender())).status).toBe("sent");
  });

  it("fails (and keeps no half-delivered message) when the notification cannot be sent", async () => {
    configure("smtp://127.0.0.1:9"); // nothing listens on the discard port
    try {
      await expect(receiveContactMessage(message(), sender())).rejects.toThrow();
      expect(await database.db.select().from(contactMessages)).toHaveLength(0);
    } finally {
      configure(smtp.url);
    }
  });
});
