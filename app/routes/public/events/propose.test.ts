import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactMessages } from "~/db/schema";
import { CLIENT_IP_HEADER } from "~/lib/auth.server";
import { setEnv } from "~/lib/env.server";
import { useTestDatabase } from "../../../../tests/helpers/db";
import { testEnv } from "../../../../tests/helpers/env";
import { startTestSmtp } from "../../../../tests/helpers/smtp";
import { action } from "./propose";

type Reply = { data: { result: { error?: Record<string, string[]> } }; init: ResponseInit | null };

describe("Propose an Event (visitors and members)", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    setEnv(testEnv({ SMTP_URL: smtp.url, CONTACT_TO: "events@kongamano.test" }));
  });
  afterAll(() => smtp.close());

  function submit(fields: Record<string, string>) {
    const request = new Request("http://localhost:3000/events/propose", {
      method: "POST",
      headers: { [CLIENT_IP_HEADER]: "198.51.100.77", "user-agent": "vitest" },
      body: new URLSearchParams(fields),
    });
    return action({ request, params: {}, context: {} } as never);
  }

  const proposal = {
    title: "Records Week Mombasa",
    eventType: "Workshop",
    location: "Mombasa, Kenya",
    dates: "14–16 May 2027",
    description: "Three days of hands-on records management for county governments.",
    name: "Halima Said",
    email: "halima@example.org",
    website: "",
  };

  it("refuses an incomplete proposal with 400 and the field messages, storing nothing", async () => {
    const reply = (await submit({ ...proposal, title: " ", email: "nope" })) as unknown as Reply;
    expect(reply.init?.status).toBe(400);
    expect(reply.data.result.error).toMatchObject({
      title: ["Event title is required"],
      email: ["Please enter a valid email address"],
    });
    expect(await database.db.select().from(contactMessages)).toHaveLength(0);
  });

  it("puts the proposal in the editors' inbox and mails the staff address", async () => {
    const response = (await submit(proposal)) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/events");
    const [message] = await database.db.select().from(contactMessages);
    expect(message.subject).toBe("Event Proposal: Records Week Mombasa");
    expect(message.email).toBe("halima@example.org");
    expect(message.message).toContain("Location: Mombasa, Kenya");
    expect(message.message).toContain("Proposed dates: 14–16 May 2027");
    expect(
      smtp.messages.some((m) => m.subject?.includes("Event Proposal: Records Week Mombasa")),
    ).toBe(true);
  });
});
