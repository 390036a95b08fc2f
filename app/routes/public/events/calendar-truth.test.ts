import { eq, sql } from "drizzle-orm";
import ICAL from "ical.js";
import { beforeAll, describe, expect, it } from "vitest";
import { events } from "~/db/schema";
import { setEnv } from "~/lib/env.server";
import { eventUid } from "~/lib/ics.server";
import { insertEvent, insertFee, insertRegistration } from "~/models/registrations/test-fixtures";
import { useTestDatabase } from "../../../../tests/helpers/db";
import { testEnv } from "../../../../tests/helpers/env";
import { loader as eventIcsLoader } from "../../api/event-ics";
import { loader as feedLoader } from "../../api/events-feed-ics";
import { loader as detailLoader } from "./detail";

// What calendars, search engines and the page say about a cancelled and a sold-out event, read
// back through the routes as anonymous visitors get them (decision 0084).
describe("calendars, JSON-LD and the page on a cancelled and a sold-out event", () => {
  const database = useTestDatabase();
  beforeAll(() => setEnv(testEnv()));

  // biome-ignore lint/suspicious/noExplicitAny: the route args beyond request and params are unused
  const args = (url: string, params: Record<string, string> = {}): any => ({
    request: new Request(`http://localhost:3000${url}`),
    params,
    context: {},
  });

  type Page = {
    data: {
      event: {
        callToAction: string | null;
        fees: Array<{ soldOut: boolean }>;
        jsonLd: { eventStatus: string; offers?: Array<{ availability: string }> };
      };
    };
  };
  const page = async (slug: string) =>
    (await detailLoader(args(`/events/${slug}`, { slug }))) as Page;

  const vevent = (ics: string, id: string) => {
    const calendar = new ICAL.Component(ICAL.parse(ics));
    const found = calendar
      .getAllSubcomponents("vevent")
      .find((v) => v.getFirstPropertyValue("uid") === eventUid(id));
    if (!found) throw new Error(`event ${id} is not in the calendar`);
    return { calendar, vevent: found };
  };
  const feed = async (query: string) =>
    (await feedLoader(args(`/events.ics?${query}`))) as Response;

  it("a cancelled event: STATUS:CANCELLED with the higher SEQUENCE in its file and both feeds, EventCancelled", async () => {
    const event = await insertEvent(database.db, {
      startDate: new Date("2027-05-10T06:00:00Z"),
      endDate: new Date("2027-05-11T14:00:00Z"),
    });
    await insertFee(database.db, event.id, { amountMinor: 0 });
    const before = vevent(
      await (
        await eventIcsLoader(args(`/events/${event.slug}/calendar.ics`, { slug: event.slug }))
      ).text(),
      event.id,
    ).vevent;
    expect(before.getFirstPropertyValue("status")).toBe("CONFIRMED");

    // As cancelEvent does it: the time stamp and one more SEQUENCE.
    await database.db
      .update(events)
      .set({ cancelledAt: new Date(), sequence: sql`${events.sequence} + 1` })
      .where(eq(events.id, event.id));

    const own = await eventIcsLoader(
      args(`/events/${event.slug}/calendar.ics`, { slug: event.slug }),
    );
    const after = vevent(await own.text(), event.id);
    expect(after.calendar.getFirstPropertyValue("method")).toBe("PUBLISH");
    expect(after.vevent.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(Number(after.vevent.getFirstPropertyValue("sequence"))).toBe(
      Number(before.getFirstPropertyValue("sequence")) + 1,
    );
    for (const query of ["", "scope=all"]) {
      const response = await feed(query);
      const text = await response.text();
      const { calendar, vevent: inFeed } = vevent(text, event.id);
      expect(inFeed.getFirstPropertyValue("status")).toBe("CANCELLED");
      expect(inFeed.getFirstPropertyValue("sequence")).toBe(
        after.vevent.getFirstPropertyValue("sequence"),
      );
      expect(calendar.getFirstProperty("name")).not.toBeNull();
      expect(text).toContain("\r\nREFRESH-INTERVAL;VALUE=DURATION:PT12H\r\n");
    }

    const { data } = await page(event.slug);
    expect(data.event.jsonLd.eventStatus).toBe("https://schema.org/EventCancelled");
    expect(data.event.jsonLd.offers?.map((o) => o.availability)).toEqual([
      "https://schema.org/SoldOut",
    ]);
    expect(data.event.callToAction).toBeNull();
  });

  it("a sold-out event (capacity taken): the waitlist instead of 'Register Now', offers SoldOut, still CONFIRMED", async () => {
    const event = await insertEvent(database.db, {
      capacity: 3,
      startDate: new Date("2027-06-01T06:00:00Z"),
      endDate: new Date("2027-06-01T14:00:00Z"),
    });
    const fee = await insertFee(database.db, event.id, { amountMinor: 0 });
    await insertRegistration(database.db, {
      eventId: event.id,
      feeId: fee.id,
      name: "First Comer",
      quantity: 2,
    });
    const open = await page(event.slug);
    expect(open.data.event.callToAction).toBe("register");
    expect(open.data.event.jsonLd.offers?.map((o) => o.availability)).toEqual([
      "https://schema.org/InStock",
    ]);

    await insertRegistration(database.db, {
      eventId: event.id,
      feeId: fee.id,
      name: "Last Comer",
      quantity: 1,
    });
    const full = await page(event.slug);
    expect(full.data.event.callToAction).toBe("waitlist");
    expect(full.data.event.fees.map((f) => f.soldOut)).toEqual([true]);
    expect(full.data.event.jsonLd.eventStatus).toBe("https://schema.org/EventScheduled");
    expect(full.data.event.jsonLd.offers?.map((o) => o.availability)).toEqual([
      "https://schema.org/SoldOut",
    ]);

    const ics = await (
      await eventIcsLoader(args(`/events/${event.slug}/calendar.ics`, { slug: event.slug }))
    ).text();
    const { calendar, vevent: entry } = vevent(ics, event.id);
    expect(entry.getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(calendar.getFirstPropertyValue("method")).toBe("PUBLISH");
    expect(entry.getFirstProperty("organizer")).toBeNull();
  });

  it("a ticket's own stock gone sells out that ticket only", async () => {
    const event = await insertEvent(database.db, {
      startDate: new Date("2027-07-01T06:00:00Z"),
      endDate: new Date("2027-07-01T14:00:00Z"),
    });
    const limited = await insertFee(database.db, event.id, {
      amountMinor: 0,
      maxQuantity: 1,
      feeType: "student",
    });
    await insertFee(database.db, event.id, { amountMinor: 100, feeType: "conference_only" });
    await insertRegistration(database.db, {
      eventId: event.id,
      feeId: limited.id,
      name: "Only Student",
    });
    const { data } = await page(event.slug);
    expect(data.event.callToAction).toBe("register");
    expect(data.event.jsonLd.offers?.map((o) => o.availability)).toEqual([
      "https://schema.org/SoldOut",
      "https://schema.org/InStock",
    ]);
  });
});
