import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { jobs, registrations, user } from "~/db/schema";
import { loader as eventIcsLoader } from "~/routes/api/event-ics";
import { loader as feedLoader } from "~/routes/api/events-feed-ics";
import { loader as rssLoader } from "~/routes/api/events-rss";
import { loader as detailLoader } from "~/routes/public/events/detail";
import { useTestDatabase } from "../../../tests/helpers/db";
import { JOIN_LINK_OPENS_BEFORE_MINUTES, joinLinkFor } from "./queries.server";
import { enqueueDueReminders } from "./registrations.server";
import { insertEvent, insertFee, insertRegistration } from "./test-fixtures";

// Issue 30, online events: the join link is for confirmed registrants only, from an hour before
// the start, and appears in nothing public (pages' loader data, feeds, calendar files).

const SECRET = "https://meet.example.test/j/983-secret-room?pwd=s3cr3t";
const START = new Date("2027-03-01T06:00:00Z");
const HOUR = 3_600_000;

describe("online join links", () => {
  const database = useTestDatabase();
  const people: Record<"attendee" | "stranger", string> = { attendee: "", stranger: "" };

  beforeAll(async () => {
    for (const who of ["attendee", "stranger"] as const) {
      const id = randomUUID();
      await database.db.insert(user).values({ id, name: who, email: `${id}@example.test` });
      people[who] = id;
    }
  });

  async function registration(
    eventId: string,
    state: "confirmed" | "awaiting_payment",
    feeId?: string,
  ) {
    const reg = await insertRegistration(database.db, {
      eventId,
      feeId: feeId ?? null,
      name: "Online Attendee",
      state,
      holdUntil: state === "awaiting_payment" ? new Date(START.getTime() - 24 * HOUR) : null,
    });
    await database.db
      .update(registrations)
      .set({ userId: people.attendee })
      .where(eq(registrations.id, reg.id));
    return reg;
  }

  it("shows the link to a confirmed registrant from an hour before the start until the end", async () => {
    const event = await insertEvent(database.db, { joinUrl: SECRET });
    const reg = await registration(event.id, "confirmed");
    const opensAt = new Date(START.getTime() - JOIN_LINK_OPENS_BEFORE_MINUTES * 60_000);
    expect(await joinLinkFor(reg.id, people.attendee, new Date(opensAt.getTime() - 1))).toEqual({
      state: "later",
      opensAt,
    });
    expect(await joinLinkFor(reg.id, people.attendee, opensAt)).toEqual({
      state: "open",
      url: SECRET,
    });
    expect(await joinLinkFor(reg.id, people.attendee, event.endDate)).toEqual({ state: "none" });
    // Someone else's registration, or an unpaid one, gets nothing.
    expect(await joinLinkFor(reg.id, people.stranger, opensAt)).toEqual({ state: "none" });
    const unpaid = await registration(event.id, "awaiting_payment");
    expect(await joinLinkFor(unpaid.id, people.attendee, opensAt)).toEqual({ state: "none" });
  });

  it("shows a delegate the link of the seat that names their verified address, not anyone else", async () => {
    const event = await insertEvent(database.db, { joinUrl: SECRET });
    const seat = await registration(event.id, "confirmed");
    const delegate = randomUUID();
    const email = `${delegate}@example.test`;
    await database.db
      .insert(user)
      .values({ id: delegate, name: "Delegate", email, emailVerified: true });
    await database.db
      .update(registrations)
      .set({ attendeeEmail: email.toUpperCase() })
      .where(eq(registrations.id, seat.id));
    expect(await joinLinkFor(seat.id, delegate, START)).toEqual({ state: "open", url: SECRET });
    // The same address, not verified, is not the delegate.
    await database.db.update(user).set({ emailVerified: false }).where(eq(user.id, delegate));
    expect(await joinLinkFor(seat.id, delegate, START)).toEqual({ state: "none" });
  });

  it("uses a ticket's own link over the event's", async () => {
    const event = await insertEvent(database.db, { joinUrl: SECRET });
    const workshop = await insertFee(database.db, event.id, {
      joinUrl: "https://meet.example.test/j/workshop-room",
    });
    const reg = await registration(event.id, "confirmed", workshop.id);
    expect(await joinLinkFor(reg.id, people.attendee, START)).toEqual({
      state: "open",
      url: "https://meet.example.test/j/workshop-room",
    });
  });

  it("never puts the link in the public page, its calendar file, the feeds or the RSS", async () => {
    const event = await insertEvent(database.db, {
      joinUrl: SECRET,
      title: "Records Webinar Online 2027",
    });
    await insertFee(database.db, event.id, { joinUrl: `${SECRET}-ticket` });
    const request = new Request(`http://localhost/events/${event.slug}`);
    const page = await detailLoader({
      request,
      params: { slug: event.slug },
      context: {},
    } as never);
    const outputs = [
      JSON.stringify(page),
      await (
        (await eventIcsLoader({
          request,
          params: { slug: event.slug },
          context: {},
        } as never)) as Response
      ).text(),
      await (
        (await feedLoader({
          request: new Request("http://localhost/events.ics"),
          params: {},
          context: {},
        } as never)) as Response
      ).text(),
      await ((await rssLoader({ request, params: {}, context: {} } as never)) as Response).text(),
    ];
    expect(outputs[0]).toContain("Records Webinar Online 2027");
    for (const output of outputs) {
      expect(output).not.toContain("983-secret-room");
      expect(output).not.toContain("meet.example.test");
    }
  });

  it("puts the link in the day-before reminder to confirmed attendees, not in the week-before one", async () => {
    const event = await insertEvent(database.db, {
      joinUrl: SECRET,
      title: "Reminder Webinar 2027",
    });
    const reg = await registration(event.id, "confirmed");
    await database.db
      .update(registrations)
      .set({ confirmedAt: new Date("2027-01-01T00:00:00Z") })
      .where(eq(registrations.id, reg.id));
    const payloads = async () =>
      (await database.db.select({ payload: jobs.payload }).from(jobs)).map((j) =>
        JSON.stringify(j.payload),
      );
    await enqueueDueReminders(new Date(START.getTime() - 6.5 * 24 * HOUR));
    const weekBefore = (await payloads()).filter((p) => p.includes("Reminder Webinar 2027"));
    expect(weekBefore).toHaveLength(1);
    expect(weekBefore[0]).not.toContain("983-secret-room");
    await enqueueDueReminders(new Date(START.getTime() - 20 * HOUR));
    const both = (await payloads()).filter((p) => p.includes("Reminder Webinar 2027"));
    expect(both).toHaveLength(2);
    expect(both.filter((p) => p.includes("983-secret-room"))).toHaveLength(1);
  });
});
