import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ContactActionData } from "~/components/contact-form";
import { contactMessages, rateLimit } from "~/db/schema";
import { CLIENT_IP_HEADER } from "~/lib/auth.server";
import { env, setEnv } from "~/lib/env.server";
import { CONTACT_RATE_LIMIT } from "~/models/messages/contact.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { testEnv } from "../../../tests/helpers/env";
import { startTestSmtp } from "../../../tests/helpers/smtp";
import { action } from "./contact";

type ActionResult = { data: ContactActionData; init: ResponseInit | null };

const STAFF = "staff@kongamano.test";

describe("contact action", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let n = 0;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    setEnv(testEnv({ SMTP_URL: smtp.url, CONTACT_TO: STAFF }));
  });
  afterAll(() => smtp.close());
  beforeEach(async () => {
    smtp.messages.length = 0;
    await database.db.delete(contactMessages);
    await database.db.delete(rateLimit);
  });

  async function submit(fields: Record<string, string>, ip = `198.51.100.${++n}`) {
    const request = new Request("http://localhost:3000/contact", {
      method: "POST",
      headers: { [CLIENT_IP_HEADER]: ip, "user-agent": "vitest" },
      body: new URLSearchParams(fields),
    });
    return (await action({ request, params: {}, context: {} } as never)) as unknown as ActionResult;
  }

  const valid = {
    name: "Kofi Mensah",
    email: "kofi@example.com",
    subject: "Membership Inquiry",
    message: "Is there a discount for our university library team?",
    region: "none",
    website: "",
  };

  it("answers invalid input with 400, field messages and everything typed", async () => {
    const { data, init } = await submit({ ...valid, email: "not-an-email", name: " " });
    expect(init?.status).toBe(400);
    expect(data.outcome).toBe("invalid");
    expect(data.result.error?.email).toEqual(["Please enter a valid email address"]);
    expect(data.result.error?.name).toEqual(["Name is required"]);
    expect(data.result.initialValue).toMatchObject({
      email: "not-an-email",
      message: valid.message,
      subject: valid.subject,
    });
    expect(await database.db.select().from(contactMessages)).toHaveLength(0);
  });

  it("answers 503 when the mail server is down, keeps what was typed and stores nothing", async () => {
    const config = env();
    setEnv({ ...config, SMTP_URL: "smtp://127.0.0.1:9" }); // nothing listens on the discard port
    try {
      const { data, init } = await submit(valid);
      expect(init?.status).toBe(503);
      expect(new Headers(init?.headers).get("Retry-After")).toBe("120");
      expect(data.outcome).toBe("failed");
      expect(data.result.error?.[""]?.[0]).toMatch(/^We could not send your message right now\./);
      expect(data.result.initialValue).toMatchObject({ message: valid.message, name: valid.name });
      expect(await database.db.select().from(contactMessages)).toHaveLength(0);
    } finally {
      setEnv(config);
    }
  });

  it("requires name, email, subject and message but not region", async () => {
    const { data, init } = await submit({ region: "none" });
    expect(init?.status).toBe(400);
    expect(data.result.error).toMatchObject({
      name: ["Name is required"],
      email: ["Email is required"],
      subject: ["Subject is required"],
      message: ["Message is required"],
    });
    expect(data.result.error?.region).toBeUndefined();
  });

  it("stores and delivers a valid message, then clears the form", async () => {
    const { data, init } = await submit({ ...valid, region: "europe" });
    expect(init?.status ?? 200).toBe(200);
    expect(data.outcome).toBe("sent");
    expect(data.result.initialValue).toBeNull();
    const [row] = await database.db.select().from(contactMessages);
    expect(row).toMatchObject({ email: "kofi@example.com", region: "europe" });
    expect((await smtp.waitFor(STAFF)).subject).toBe("[Contact] Membership Inquiry");
  });

  it("stores 'none' as no region", async () => {
    await submit(valid);
    const [row] = await database.db.select().from(contactMessages);
    expect(row.region).toBeNull();
  });

  it("answers a honeypot submission exactly like a delivered one, but drops it", async () => {
    const dropped = await submit({ ...valid, website: "http://spam.example" });
    const delivered = await submit(valid);
    expect(dropped.data).toEqual(delivered.data);
    expect(dropped.init?.status).toBe(delivered.init?.status);
    expect(await database.db.select().from(contactMessages)).toHaveLength(1);
  });

  it("answers 429 with a message and keeps the text when a client sends too many", async () => {
    const ip = "203.0.113.7";
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++) await submit(valid, ip);
    const { data, init } = await submit({ ...valid, message: "One more, please." }, ip);
    expect(init?.status).toBe(429);
    expect(new Headers(init?.headers).get("Retry-After")).toMatch(/^\d+$/);
    expect(data.result.error?.[""]?.[0]).toMatch(/Please wait \d+ minutes? and try again/);
    expect(data.result.initialValue).toMatchObject({ message: "One more, please." });
  });
});
