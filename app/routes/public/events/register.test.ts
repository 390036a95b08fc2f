import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { registrations, user } from "~/db/schema";
import { CLIENT_IP_HEADER } from "~/lib/auth.server";
import { setEnv } from "~/lib/env.server";
import { onSaleFromLabel } from "~/models/events/fee-sale";
import { REGISTRATION_RATE_LIMIT } from "~/models/registrations/registrations.server";
import { insertEvent, insertFee } from "~/models/registrations/test-fixtures";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../../tests/helpers/db";
import { testEnv } from "../../../../tests/helpers/env";
import { sessionCookieFor } from "../../../../tests/helpers/session";
import { action, loader } from "./register";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

// The registration page's action as the server runs it: a real session, the rate limit, the form.
describe("registration action", () => {
  const database = useTestDatabase();
  beforeAll(() => setEnv(testEnv()));

  it("answers a burst from one account with 429 and the message in the form, keeping the input", async () => {
    const id = randomUUID();
    await database.db
      .insert(user)
      .values({ id, name: "Burst Tester", email: `b.${id.slice(0, 8)}@example.test` });
    const cookie = await sessionCookieFor(id);
    const event = await insertEvent(database.db, { capacity: 100 });
    const post = () =>
      action({
        request: new Request(`http://localhost:3000/events/${event.slug}/register`, {
          method: "POST",
          headers: {
            cookie,
            origin: "http://localhost:3000",
            [CLIENT_IP_HEADER]: "198.51.100.77",
          },
          body: new URLSearchParams({
            intent: "register",
            ticket: "free",
            quantity: "20",
            attendeeName: "Burst Tester",
            attendeeEmail: "burst@example.test",
          }),
        }),
        params: { slug: event.slug },
        context: {},
        // biome-ignore lint/suspicious/noExplicitAny: the route args beyond request and params are unused
      } as any);
    type Answer = {
      data: { result: { error?: Record<string, string[]>; initialValue?: Record<string, string> } };
      init: ResponseInit & { headers?: Record<string, string> };
    };
    // The first few are answered as usual (20 seats is more than one registration may take).
    for (let i = 0; i < REGISTRATION_RATE_LIMIT.perAccount.max; i++) {
      const answer = (await post()) as Answer;
      expect(answer.init.status).toBe(400);
      expect(answer.data.result.error?.quantity).toEqual(["Choose between 1 and 10 seats."]);
    }
    const limited = (await post()) as Answer;
    expect(limited.init.status).toBe(429);
    expect(limited.init.headers?.["Retry-After"]).toMatch(/^\d+$/);
    expect(limited.data.result.error?.[""]).toEqual([
      expect.stringMatching(/^Too many attempts\. Please wait \d+ seconds? and try again\.$/),
    ]);
    expect(limited.data.result.initialValue?.attendeeEmail).toBe("burst@example.test");
  });

  it("refuses a ticket before its sale starts (400, the reason at the ticket, input kept) and sells it after", async () => {
    const id = randomUUID();
    await database.db
      .insert(user)
      .values({ id, name: "Early Comer", email: `e.${id.slice(0, 8)}@example.test` });
    const cookie = await sessionCookieFor(id);
    const event = await insertEvent(database.db, { timeZone: "Africa/Nairobi" });
    const startsAt = new Date(Date.now() + 2 * 86_400_000);
    const later = await insertFee(database.db, event.id, {
      feeType: "student",
      amountMinor: 0,
      saleStartsAt: startsAt,
    });
    const open = await insertFee(database.db, event.id, {
      feeType: "conference_only",
      amountMinor: 0,
      saleStartsAt: new Date(Date.now() - 3_600_000),
    });
    const args = (method: "GET" | "POST", ticket?: string) =>
      ({
        request: new Request(`http://localhost:3000/events/${event.slug}/register`, {
          method,
          headers: { cookie, origin: "http://localhost:3000", [CLIENT_IP_HEADER]: "198.51.100.78" },
          ...(ticket
            ? {
                body: new URLSearchParams({
                  intent: "register",
                  ticket,
                  quantity: "1",
                  attendeeName: "Early Comer",
                  attendeeEmail: "early.comer@example.test",
                }),
              }
            : {}),
        }),
        params: { slug: event.slug },
        context: {},
        // biome-ignore lint/suspicious/noExplicitAny: the route args beyond request and params are unused
      }) as any;

    // The page shows the ticket with its sale start, not choosable.
    const page = await loader(args("GET"));
    const shown = page.tickets.find((t: { value: string }) => t.value === later.id);
    const label = onSaleFromLabel(startsAt, "Africa/Nairobi");
    expect(label).toMatch(/^On sale from \w+ \d+, \d{4}, \d+:\d{2} [AP]M \(Africa\/Nairobi\)$/);
    expect(shown).toMatchObject({ onSale: false, offSaleReason: label });
    expect(page.tickets.find((t: { value: string }) => t.value === open.id)?.onSale).toBe(true);

    // The action refuses it even when posted directly.
    const refused = (await action(args("POST", later.id))) as {
      data: { result: { error?: Record<string, string[]>; initialValue?: Record<string, string> } };
      init: ResponseInit;
    };
    expect(refused.init.status).toBe(400);
    expect(refused.data.result.error?.ticket).toEqual([`Student: ${label}.`]);
    expect(refused.data.result.initialValue?.attendeeEmail).toBe("early.comer@example.test");
    const none = await database.db
      .select({ id: registrations.id })
      .from(registrations)
      .where(eq(registrations.eventId, event.id));
    expect(none).toEqual([]);

    // A ticket whose sale has started registers as usual.
    const sold = (await action(args("POST", open.id))) as Response;
    expect(sold.status).toBe(302);
    expect(sold.headers.get("Location")).toMatch(/^\/registrations\//);
  });
});
