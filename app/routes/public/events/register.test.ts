import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { registrations, user } from "~/db/schema";
import { CLIENT_IP_HEADER, sessionTokenOf } from "~/lib/auth.server";
import { env, setEnv } from "~/lib/env.server";
import { benchedSession } from "~/lib/rate-limit.server";
import { onSaleFromLabel } from "~/models/events/fee-sale";
import { enterQueue, leaveQueue } from "~/models/registrations/queue.server";
import { REGISTRATION_RATE_LIMIT } from "~/models/registrations/registrations.server";
import { insertEvent, insertFee } from "~/models/registrations/test-fixtures";
import { wireProcess } from "~/models/wiring.server";
import { refuseBenchedRegistrations } from "../../../../server/http-guards";
import { useTestDatabase } from "../../../../tests/helpers/db";
import { testEnv } from "../../../../tests/helpers/env";
import { sessionCookieFor } from "../../../../tests/helpers/session";
import { loader as eventPage } from "./detail";
import { LIVE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from "./http.server";
import { action, loader } from "./register";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

/** The page's action as the server runs a browser's post: its session, the site's Origin, an address. */
function postAs(
  slug: string,
  { cookie, ip }: { cookie: string; ip: string },
  fields: Record<string, string>,
) {
  return action({
    request: new Request(`http://localhost:3000/events/${slug}/register`, {
      method: "POST",
      headers: { cookie, origin: "http://localhost:3000", [CLIENT_IP_HEADER]: ip },
      body: new URLSearchParams(fields),
    }),
    params: { slug },
    context: {},
    // biome-ignore lint/suspicious/noExplicitAny: the route args beyond request and params are unused
  } as any);
}

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
      postAs(
        event.slug,
        { cookie, ip: "198.51.100.77" },
        {
          intent: "register",
          ticket: "free",
          quantity: "20",
          attendeeName: "Burst Tester",
          attendeeEmail: "burst@example.test",
        },
      );
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

    // Told to wait, and still posting: once it has been refused as often as it was allowed to
    // try, its next posts are refused before the app reads or renders anything (decision 0116).
    const token = sessionTokenOf(cookie) as string;
    for (let refusal = 2; refusal < REGISTRATION_RATE_LIMIT.perAccount.max; refusal++) {
      expect(((await post()) as Answer).init.status).toBe(429);
      expect(benchedSession(token)).toBeNull(); // still shown in the form
    }
    expect(((await post()) as Answer).init.status).toBe(429);
    const benched = benchedSession(token);
    expect(benched?.message).toMatch(
      /^Too many attempts\. Please wait \d+ seconds? and try again\.$/,
    );
    expect(benched?.retryAfterSeconds).toBeGreaterThan(0);
    expect(benched?.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Another account on the same address is not refused by it.
    expect(benchedSession("someone-else")).toBeNull();

    // The guard in front of the app answers its next post with a bare 429, nothing rendered.
    const answered: { status?: number; headers: Record<string, string>; body?: string } = {
      headers: {},
    };
    const res = {
      status(code: number) {
        answered.status = code;
        return res;
      },
      set(name: string, value: string) {
        answered.headers[name.toLowerCase()] = value;
        return res;
      },
      type(value: string) {
        answered.headers["content-type"] = value;
        return res;
      },
      send(body: string) {
        answered.body = body;
        return res;
      },
    };
    let passed = 0;
    const guard = (path: string, method = "POST") =>
      refuseBenchedRegistrations(
        // biome-ignore lint/suspicious/noExplicitAny: the request fields the guard reads
        { method, path, headers: { cookie } } as any,
        // biome-ignore lint/suspicious/noExplicitAny: the response methods the guard calls
        res as any,
        () => passed++,
      );
    guard(`/events/${event.slug}/register`);
    expect(answered.status).toBe(429);
    expect(answered.headers["retry-after"]).toMatch(/^\d+$/);
    expect(answered.body).toBe(benched?.message);
    // Reading the page, and other forms, go on as usual.
    guard(`/events/${event.slug}/register`, "GET");
    guard("/contact");
    expect(passed).toBe(2);
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

  // Delegations (issue 30 item 1): the form posts a quantity per ticket and a row per seat.
  it("books a delegation: a row per seat, refusals per seat with everything typed kept, rows redrawn without JavaScript", async () => {
    const id = randomUUID();
    await database.db
      .insert(user)
      .values({ id, name: "Delegation Lead", email: `lead.${id.slice(0, 8)}@example.test` });
    const cookie = await sessionCookieFor(id);
    const event = await insertEvent(database.db, {
      startDate: new Date(Date.now() + 20 * 86_400_000),
      endDate: new Date(Date.now() + 21 * 86_400_000),
    });
    const standard = await insertFee(database.db, event.id, { amountMinor: 0 });
    const group = await insertFee(database.db, event.id, {
      feeType: "student",
      amountMinor: 0,
      admits: 6,
      maxPerAccount: 1,
    });
    const post = (fields: Record<string, string>) =>
      postAs(event.slug, { cookie, ip: "198.51.100.79" }, fields);
    type Answer = {
      data: {
        delegation: {
          quantities: Record<string, number>;
          seats: { ticket: string; name: string; email: string }[];
          errors?: Record<string, string[]>;
          formErrors?: string[];
        };
      };
      init: ResponseInit;
    };

    // Without JavaScript: "Update seats" redraws a row per seat, keeping what was typed.
    const redrawn = (await post({
      intent: "seats",
      [`qty.${standard.id}`]: "2",
      [`qty.${group.id}`]: "1",
      "seats[0].ticket": standard.id,
      "seats[0].name": "Delegation Lead",
      "seats[0].email": "lead@example.test",
    })) as Answer;
    expect(redrawn.init.status).toBe(200);
    expect(redrawn.data.delegation.seats).toEqual([
      { ticket: standard.id, name: "Delegation Lead", email: "lead@example.test" },
      { ticket: standard.id, name: "", email: "" },
      { ticket: group.id, name: "", email: "" },
    ]);
    expect(redrawn.data.delegation.quantities).toEqual({ [standard.id]: 2, [group.id]: 1 });

    const rows = {
      intent: "book",
      [`qty.${standard.id}`]: "2",
      [`qty.${group.id}`]: "1",
      "seats[0].ticket": standard.id,
      "seats[0].name": "Delegation Lead",
      "seats[0].email": "lead@example.test",
      "seats[1].ticket": standard.id,
      "seats[1].name": "Achieng Odhiambo",
      "seats[1].email": "not-an-address",
      "seats[2].ticket": group.id,
      "seats[2].name": "Records Team",
      "seats[2].email": "team@example.test",
    };
    // A bad seat: its message under that seat, 400, nothing booked, everything typed kept.
    const refused = (await post(rows)) as Answer;
    expect(refused.init.status).toBe(400);
    expect(refused.data.delegation.errors).toEqual({
      "seats[1].email": ["Please enter a valid email address"],
    });
    expect(refused.data.delegation.seats[1]).toEqual({
      ticket: standard.id,
      name: "Achieng Odhiambo",
      email: "not-an-address",
    });
    const none = await database.db
      .select({ id: registrations.id })
      .from(registrations)
      .where(eq(registrations.eventId, event.id));
    expect(none).toEqual([]);

    // Quantities changed but the rows were not redrawn: the rows come back to be filled in.
    const changed = (await post({ ...rows, [`qty.${standard.id}`]: "3" })) as Answer;
    expect(changed.init.status).toBe(400);
    expect(changed.data.delegation.seats).toHaveLength(4);
    expect(changed.data.delegation.formErrors?.[0]).toMatch(/^The seats changed/);

    // All good: three registrations, one per attendee, back to the page with a toast.
    const booked = (await post({ ...rows, "seats[1].email": "achieng@example.test" })) as Response;
    expect(booked.status).toBe(302);
    expect(booked.headers.get("Location")).toBe(`/events/${event.slug}/register`);
    const made = await database.db
      .select({ name: registrations.attendeeName, email: registrations.attendeeEmail })
      .from(registrations)
      .where(eq(registrations.eventId, event.id));
    expect(made.map((r) => r.email).sort()).toEqual(
      ["achieng@example.test", "lead@example.test", "team@example.test"].sort(),
    );

    // The page offers the group ticket with what it admits.
    const page = await loader({
      request: new Request(`http://localhost:3000/events/${event.slug}/register`, {
        headers: { cookie },
      }),
      params: { slug: event.slug },
      context: {},
      // biome-ignore lint/suspicious/noExplicitAny: the route args beyond request and params are unused
    } as any);
    expect(
      page.delegationTickets.find((t: { value: string }) => t.value === group.id),
    ).toMatchObject({ admits: 6, unitAmountMinor: 0 });
  });

  // The waiting room (issue 33 item 4): with one registration at a time, the next one waits.
  it("puts a second registration in the waiting room with its input kept, then registers it once the first is done", async () => {
    const current = env();
    setEnv(testEnv({ REGISTRATION_QUEUE_THRESHOLD: "1", REGISTRATION_QUEUE_HOLD_MS: "0" }));
    try {
      const id = randomUUID();
      await database.db
        .insert(user)
        .values({ id, name: "Patient Person", email: `p.${id.slice(0, 8)}@example.test` });
      const cookie = await sessionCookieFor(id);
      const event = await insertEvent(database.db, { capacity: 50 });
      const post = (fields: Record<string, string>) =>
        postAs(event.slug, { cookie, ip: "198.51.100.79" }, fields);
      type Waiting = {
        data: { queue: { position: number; queueNumber: string; fields: [string, string][] } };
        init: ResponseInit & { headers?: Record<string, string> };
      };
      // Another account's registration is being worked on (it holds the event's one slot).
      const first = await enterQueue(event.slug);
      if (!first.admitted) throw new Error("the first registration should be let in");
      const typed = {
        intent: "register",
        ticket: "free",
        quantity: "1",
        attendeeName: "Patient Person",
        attendeeEmail: "patient.person@example.test",
      };
      const waiting = (await post(typed)) as Waiting;
      expect(waiting.init.status).toBe(200);
      expect(waiting.init.headers?.["X-Queue-Number"]).toMatch(/^\d+$/);
      expect(waiting.data.queue.position).toBe(1);
      // Everything typed is kept for the re-post.
      expect(Object.fromEntries(waiting.data.queue.fields)).toEqual(typed);
      const again = { ...typed, queueNumber: waiting.data.queue.queueNumber };
      // Checking one's place, more often than the rate limit allows posts, is not refused.
      for (let i = 0; i <= REGISTRATION_RATE_LIMIT.perAccount.max; i++) {
        const check = (await post(again)) as Waiting;
        expect(check.init.status).toBe(200);
        expect(check.data.queue.position).toBe(1);
      }
      const none = await database.db
        .select({ id: registrations.id })
        .from(registrations)
        .where(eq(registrations.eventId, event.id));
      expect(none).toEqual([]);
      // Someone else's made-up or changed number does not jump the line.
      const forged = (await post({ ...typed, queueNumber: "1.x" })) as Waiting;
      expect(forged.data.queue.position).toBe(2);

      // The first registration is done: the one who waited is let in and registered.
      await leaveQueue(event.slug, first.slot);
      const admitted = (await post(again)) as Response;
      expect(admitted.status).toBe(302);
      expect(admitted.headers.get("Location")).toMatch(/^\/registrations\//);
      expect(admitted.headers.get("X-Queue-Number")).toBe(waiting.init.headers?.["X-Queue-Number"]);
      const made = await database.db
        .select({ email: registrations.attendeeEmail, userId: registrations.userId })
        .from(registrations)
        .where(eq(registrations.eventId, event.id));
      expect(made).toEqual([{ email: "patient.person@example.test", userId: id }]);
    } finally {
      setEnv(current);
    }
  });

  it("asks caches to make an event page again every few seconds while its seats are counted", async () => {
    const page = async (slug: string, cookie?: string) => {
      const answer = (await eventPage({
        request: new Request(`http://localhost:3000/events/${slug}`, {
          headers: cookie ? { cookie } : {},
        }),
        params: { slug },
        context: {},
        // biome-ignore lint/suspicious/noExplicitAny: the route args beyond request and params are unused
      } as any)) as unknown as { init: { headers: Record<string, string> } };
      return answer.init.headers["Cache-Control"];
    };
    // Open with a capacity, or with a ticket of limited stock: seats left are live.
    const rush = await insertEvent(database.db, { capacity: 5000 });
    expect(await page(rush.slug)).toBe(LIVE_CACHE_CONTROL);
    const stocked = await insertEvent(database.db, { capacity: null });
    await insertFee(database.db, stocked.id, { maxQuantity: 40 });
    expect(await page(stocked.slug)).toBe(LIVE_CACHE_CONTROL);
    // Unlimited seats, or registration over: nothing changes with each registration.
    const open = await insertEvent(database.db, { capacity: null });
    expect(await page(open.slug)).toBe(PUBLIC_CACHE_CONTROL);
    const past = await insertEvent(database.db, {
      capacity: 80,
      startDate: new Date("2025-03-01T06:00:00Z"),
      endDate: new Date("2025-03-02T14:00:00Z"),
    });
    expect(await page(past.slug)).toBe(PUBLIC_CACHE_CONTROL);
    // A signed-in visitor's page is never stored by anyone.
    const id = randomUUID();
    await database.db
      .insert(user)
      .values({ id, name: "Live", email: `l.${id.slice(0, 8)}@x.test` });
    expect(await page(rush.slug, await sessionCookieFor(id))).toBe("private, no-store");
  });
});
