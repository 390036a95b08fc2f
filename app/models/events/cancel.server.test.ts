import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, events, user } from "~/db/schema";
import { env, parseEnv, setEnv } from "~/lib/env.server";
import type { PersonActor } from "~/lib/lifecycle.server";
import { runDueJobs } from "~/models/jobs.server";
import { checkInByCode } from "~/models/registrations/checkin.server";
import { insertRegistration } from "~/models/registrations/test-fixtures";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { startTestSmtp } from "../../../tests/helpers/smtp";
import { cancelEvent, createEvent, type EventInput, updateEvent } from "./events.server";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

// The organiser's side of an event's life after people registered: capacity, moving it, calling
// it off. Attendees hear of it by e-mail (the registrations model's change mails).
describe("event capacity, changes and cancellation", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let actor: PersonActor;
  let editor: { id: string; role: "editor" };

  const input = (overrides: Partial<EventInput> = {}): EventInput => ({
    title: `Records Forum ${randomUUID().slice(0, 8)}`,
    description: null,
    location: "Nairobi, Kenya",
    startDate: new Date("2027-09-14T06:00:00Z"),
    endDate: new Date("2027-09-16T14:00:00Z"),
    timeZone: "Africa/Nairobi",
    theme: null,
    eventType: "conference",
    category: null,
    industrySector: null,
    tags: null,
    status: "published",
    featured: false,
    imageUrl: null,
    capacity: null,
    speakerIds: [],
    sponsorIds: [],
    agenda: [],
    ...overrides,
  });

  async function drainJobs() {
    while ((await runDueJobs({ limit: 50 })) > 0) {}
  }

  const mailsTo = (email: string, subject: RegExp) =>
    smtp.messages.filter((m) => m.to.includes(email) && subject.test(m.subject));

  beforeAll(async () => {
    smtp = await startTestSmtp();
    setEnv(
      parseEnv({
        NODE_ENV: "test",
        DATA_DIR: env().DATA_DIR,
        BASE_URL: "http://localhost:3000",
        SESSION_SECRET: "test-secret-test-secret-test-secret-0123456789",
        LOG_LEVEL: "silent",
        SMTP_URL: smtp.url,
        REQUIRE_ADMIN_MFA: "false",
      }),
    );
    const id = randomUUID();
    await database.db
      .insert(user)
      .values({ id, name: "Edna Editor", email: `${id}@example.test`, role: "editor" });
    actor = { id, role: "editor", request: new Request("http://localhost/admin/events") };
    editor = { id, role: "editor" };
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("saves the capacity, and an empty one as no limit", async () => {
    const created = await createEvent(actor, input({ capacity: 120 }));
    const read = async () =>
      (await database.db.select().from(events).where(eq(events.id, created.id)))[0].capacity;
    expect(await read()).toBe(120);
    await updateEvent(actor, created.id, input({ title: created.title, capacity: null }));
    expect(await read()).toBeNull();
  });

  it("e-mails registered people when a published event changes time or place, not otherwise", async () => {
    const base = input();
    const created = await createEvent(actor, base);
    const email = `moved.${randomUUID().slice(0, 8)}@example.test`;
    await insertRegistration(database.db, { eventId: created.id, name: "Moved Person", email });
    const cancelledEmail = `gone.${randomUUID().slice(0, 8)}@example.test`;
    await insertRegistration(database.db, {
      eventId: created.id,
      name: "Gone Person",
      email: cancelledEmail,
      state: "cancelled",
    });

    await updateEvent(actor, created.id, { ...base, title: created.title, theme: "New theme" });
    await drainJobs();
    expect(mailsTo(email, /New date or time|New venue/)).toHaveLength(0);

    await updateEvent(actor, created.id, {
      ...base,
      title: created.title,
      startDate: new Date("2027-09-15T06:00:00Z"),
    });
    await drainJobs();
    await smtp.waitFor(email, /^New date or time: /);

    await updateEvent(actor, created.id, {
      ...base,
      title: created.title,
      startDate: new Date("2027-09-15T06:00:00Z"),
      location: "Mombasa, Kenya",
    });
    await drainJobs();
    await smtp.waitFor(email, /^New venue: /);
    expect(mailsTo(email, /^New date or time: /)).toHaveLength(1);
    expect(mailsTo(cancelledEmail, /New date or time|New venue/)).toHaveLength(0);

    const audit = await database.db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, "event.update"), eq(auditLog.entityId, created.id)));
    expect(audit.map((a) => a.details)).toContainEqual(
      expect.objectContaining({ timeChanged: true }),
    );
  });

  it("tells nobody about changes to a draft", async () => {
    const base = input({ status: "draft" });
    const created = await createEvent(actor, base);
    const email = `draft.${randomUUID().slice(0, 8)}@example.test`;
    await insertRegistration(database.db, { eventId: created.id, name: "Early Bird", email });
    await updateEvent(actor, created.id, { ...base, title: created.title, location: "Kisumu" });
    await drainJobs();
    expect(mailsTo(email, /New venue/)).toHaveLength(0);
  });

  it("cancels an event once: audited, attendees e-mailed once, check-in refused", async () => {
    const created = await createEvent(actor, input());
    const email = `called.off.${randomUUID().slice(0, 8)}@example.test`;
    const reg = await insertRegistration(database.db, {
      eventId: created.id,
      name: "Called Off",
      email,
    });
    const sequenceBefore = await database.db
      .select({ sequence: events.sequence })
      .from(events)
      .where(eq(events.id, created.id))
      .then((rows) => rows[0].sequence);

    const first = await cancelEvent(actor, created.id);
    expect(first).toEqual({ title: created.title, alreadyCancelled: false });
    const again = await cancelEvent(actor, created.id);
    expect(again?.alreadyCancelled).toBe(true);
    await drainJobs();
    const mail = await smtp.waitFor(email, /^Event cancelled: /);
    expect(mailsTo(email, /^Event cancelled: /)).toHaveLength(1);

    const [row] = await database.db.select().from(events).where(eq(events.id, created.id));
    expect(row.cancelledAt).not.toBeNull();

    // The mail carries the event's calendar file, which calendars read as the cancellation.
    const calendars = mail.attachments.filter((a) => a.contentType.startsWith("text/calendar"));
    expect(calendars.map((a) => a.filename)).toEqual([`${row.slug}.ics`]);
    const calendar = new ICAL.Component(ICAL.parse(calendars[0].content.toString("utf8")));
    expect(calendar.getFirstPropertyValue("method")).toBe("PUBLISH");
    const vevent = calendar.getFirstSubcomponent("vevent");
    expect(vevent?.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(vevent?.getFirstPropertyValue("sequence")).toBe(row.sequence);
    expect(row.sequence).toBeGreaterThan(sequenceBefore);
    expect(vevent?.getFirstProperty("organizer")).toBeNull();
    const audit = await database.db
      .select({ actorId: auditLog.actorId })
      .from(auditLog)
      .where(and(eq(auditLog.action, "event.cancel"), eq(auditLog.entityId, created.id)));
    expect(audit).toEqual([{ actorId: actor.id }]);
    expect(await checkInByCode(created.id, reg.tickets[0].code, editor)).toMatchObject({
      reason: "event_cancelled",
    });
    expect(await cancelEvent(actor, randomUUID())).toBeNull();
    expect(await cancelEvent(actor, "not-an-id")).toBeNull();
  });
});
