import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  agendaItems,
  auditLog,
  eventCategories,
  eventFees,
  eventSpeakers,
  eventSponsors,
  events,
  speakers,
  sponsors,
  user,
} from "~/db/schema";
import { contentVersion } from "~/lib/content-version.server";
import { eventSaveErrorMessage } from "~/lib/db-errors";
import type { PersonActor } from "~/lib/lifecycle.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { getDashboardCounts, listRecentActivity } from "../site/dashboard.server";
import {
  createEvent,
  deleteEvent,
  type EventInput,
  getEventForEdit,
  listAdminEvents,
  updateEvent,
} from "./events.server";
import {
  deleteEventFee,
  FeeError,
  type FeeInput,
  listEventFees,
  replaceEventFees,
  SAVE_EVENT_FIRST,
} from "./fees.server";

const database = useTestDatabase();

async function newActor(role: "editor" | "admin" = "editor"): Promise<PersonActor> {
  const id = randomUUID();
  await database.db
    .insert(user)
    .values({ id, name: `Test ${role} ${id.slice(0, 4)}`, email: `${id}@example.test`, role });
  return {
    id,
    role,
    request: new Request("http://localhost/admin/events", { headers: { "user-agent": "vitest" } }),
  };
}

function eventInput(overrides: Partial<EventInput> = {}): EventInput {
  return {
    title: `Summit ${randomUUID().slice(0, 8)}`,
    description: null,
    location: "Nairobi, Kenya",
    startDate: new Date("2026-09-14T06:00:00Z"),
    endDate: new Date("2026-09-16T14:00:00Z"),
    timeZone: "Africa/Nairobi",
    theme: null,
    eventType: "conference",
    category: null,
    industrySector: null,
    tags: null,
    status: "draft",
    featured: false,
    imageUrl: null,
    speakerIds: [],
    sponsorIds: [],
    agenda: [],
    ...overrides,
  };
}

async function auditActions(entityId: string) {
  const rows = await database.db
    .select({ action: auditLog.action, actorId: auditLog.actorId })
    .from(auditLog)
    .where(eq(auditLog.entityId, entityId))
    .orderBy(asc(auditLog.createdAt));
  return rows;
}

async function newSpeakerAndSponsor() {
  const [speaker] = await database.db
    .insert(speakers)
    .values({ name: "Dr. Wanjiku Kamau" })
    .returning();
  const [speaker2] = await database.db
    .insert(speakers)
    .values({ name: "Prof. Ama Mensah" })
    .returning();
  const [sponsor] = await database.db
    .insert(sponsors)
    .values({ name: "Safari Data", tier: "gold" })
    .returning();
  return { speaker, speaker2, sponsor };
}

describe("createEvent / updateEvent", () => {
  it("saves the event with speakers, sponsor and agenda, writes an audit row, refreshes caches", async () => {
    const actor = await newActor();
    const { speaker, speaker2, sponsor } = await newSpeakerAndSponsor();
    const before = contentVersion();
    const created = await createEvent(
      actor,
      eventInput({
        title: "Data Governance Summit 2026",
        tags: ["governance", "AI"],
        speakerIds: [speaker2.id, speaker.id],
        sponsorIds: [sponsor.id],
        agenda: [
          {
            startTime: new Date("2026-09-14T06:00:00Z"),
            endTime: new Date("2026-09-14T07:00:00Z"),
            title: "Opening keynote",
            description: null,
          },
          {
            startTime: new Date("2026-09-14T07:30:00Z"),
            endTime: null,
            title: "Panel",
            description: "Regional perspectives",
          },
        ],
      }),
    );
    expect(created.slug).toBe("data-governance-summit-2026");
    expect(contentVersion()).toBeGreaterThan(before);

    const loaded = await getEventForEdit(created.id);
    expect(loaded?.speakerIds).toEqual([speaker2.id, speaker.id]); // order kept
    expect(loaded?.sponsorIds).toEqual([sponsor.id]);
    expect(loaded?.agenda.map((a) => a.title)).toEqual(["Opening keynote", "Panel"]);
    expect(loaded?.tags).toEqual(["governance", "AI"]);
    expect(loaded?.createdBy).toBe(actor.id);
    expect(await auditActions(created.id)).toEqual([{ action: "event.create", actorId: actor.id }]);
  });

  it("rolls the whole save back when a link fails (one transaction)", async () => {
    const actor = await newActor();
    const title = `Rollback ${randomUUID()}`;
    await expect(
      createEvent(actor, eventInput({ title, speakerIds: [randomUUID()] })),
    ).rejects.toThrow();
    const rows = await database.db.select().from(events).where(eq(events.title, title));
    expect(rows).toEqual([]);
  });

  it("maps a duplicate title to the 23505 message of spec §8", async () => {
    const actor = await newActor();
    const title = `Duplicate ${randomUUID()}`;
    await createEvent(actor, eventInput({ title }));
    const error = await createEvent(actor, eventInput({ title })).catch((e: unknown) => e);
    expect(eventSaveErrorMessage(error)).toBe(
      "An event with this title already exists. Please choose a different title.",
    );
  });

  it("maps an unknown category to the 23503 message", async () => {
    const actor = await newActor();
    const error = await createEvent(actor, eventInput({ category: "No such category" })).catch(
      (e: unknown) => e,
    );
    expect(eventSaveErrorMessage(error)).toBe(
      "Invalid category or event type selected. Please refresh and try again.",
    );
  });

  it("gives titles with the same slug distinct slugs", async () => {
    const actor = await newActor();
    const a = await createEvent(actor, eventInput({ title: "Open Data Day!" }));
    const b = await createEvent(actor, eventInput({ title: "Open Data Day?" }));
    const c = await createEvent(actor, eventInput({ title: "Open-Data Day" }));
    expect([a.slug, b.slug, c.slug]).toEqual([
      "open-data-day",
      "open-data-day-2",
      "open-data-day-3",
    ]);
  });

  it("replaces links and agenda, bumps the sequence and keeps a published event's slug", async () => {
    const actor = await newActor();
    const { speaker, speaker2, sponsor } = await newSpeakerAndSponsor();
    await database.db.insert(eventCategories).values({ name: `Cat ${randomUUID().slice(0, 6)}` });
    const created = await createEvent(
      actor,
      eventInput({
        title: "Records Management Forum",
        status: "published",
        speakerIds: [speaker.id],
        sponsorIds: [sponsor.id],
        agenda: [{ startTime: new Date(), endTime: null, title: "Old item", description: null }],
      }),
    );
    const updated = await updateEvent(
      actor,
      created.id,
      eventInput({
        title: "Records Management Forum 2026",
        status: "published",
        featured: true,
        speakerIds: [speaker2.id],
        sponsorIds: [],
        agenda: [{ startTime: new Date(), endTime: null, title: "New item", description: null }],
      }),
    );
    expect(updated?.slug).toBe("records-management-forum"); // published: link kept
    const loaded = await getEventForEdit(created.id);
    expect(loaded?.sequence).toBe(1);
    expect(loaded?.featured).toBe(true);
    expect(loaded?.speakerIds).toEqual([speaker2.id]);
    expect(loaded?.sponsorIds).toEqual([]);
    expect(loaded?.agenda.map((a) => a.title)).toEqual(["New item"]);
    const agendaRows = await database.db
      .select()
      .from(agendaItems)
      .where(eq(agendaItems.eventId, created.id));
    expect(agendaRows).toHaveLength(1);
    expect((await auditActions(created.id)).map((r) => r.action)).toEqual([
      "event.create",
      "event.update",
    ]);
  });

  it("lets a draft's slug follow its new title", async () => {
    const actor = await newActor();
    const created = await createEvent(actor, eventInput({ title: "Draft Working Title" }));
    const updated = await updateEvent(actor, created.id, eventInput({ title: "Final Title" }));
    expect(updated?.slug).toBe("final-title");
  });

  it("returns null for an unknown or malformed id", async () => {
    const actor = await newActor();
    expect(await updateEvent(actor, randomUUID(), eventInput())).toBeNull();
    expect(await updateEvent(actor, "not-a-uuid", eventInput())).toBeNull();
    expect(await getEventForEdit("1 or 1=1")).toBeNull();
    expect(await deleteEvent(actor, randomUUID())).toBeNull();
  });
});

describe("listAdminEvents", () => {
  it("searches title, location and theme together with the status filter", async () => {
    const actor = await newActor();
    const tag = randomUUID().slice(0, 8);
    await createEvent(actor, eventInput({ title: `Alpha ${tag}`, status: "published" }));
    await createEvent(
      actor,
      eventInput({ title: "Beta", location: `Kigali ${tag}, Rwanda`, status: "draft" }),
    );
    await createEvent(
      actor,
      eventInput({ title: "Gamma", theme: `Theme ${tag}`, status: "archived" }),
    );
    const all = await listAdminEvents({ search: tag.toUpperCase() });
    expect(all.map((e) => e.title).sort()).toEqual([`Alpha ${tag}`, "Beta", "Gamma"]);
    const drafts = await listAdminEvents({ search: tag, status: "draft" });
    expect(drafts.map((e) => e.title)).toEqual(["Beta"]);
    expect(await listAdminEvents({ search: "%" })).toEqual([]); // wildcards are literal
    const unknownStatus = await listAdminEvents({ search: tag, status: "bogus" });
    expect(unknownStatus).toHaveLength(3);
  });
});

describe("event fees", () => {
  const fee = (overrides: Partial<FeeInput> = {}): FeeInput => ({
    feeType: "conference_only",
    currency: "USD",
    amountMinor: 0,
    maxQuantity: null,
    availableUntil: null,
    description: null,
    ...overrides,
  });

  it("replaces the whole set in one transaction and lists it cheapest first", async () => {
    const actor = await newActor();
    const { id } = await createEvent(actor, eventInput());
    await replaceEventFees(actor, id, [fee({ amountMinor: 50000 }), fee({ amountMinor: 10000 })]);
    const saved = await replaceEventFees(actor, id, [
      fee({ feeType: "student", amountMinor: 15050, currency: "KES", maxQuantity: 20 }),
      fee({ feeType: "early_bird", amountMinor: 9999, availableUntil: "2026-06-30" }),
    ]);
    expect(saved).toHaveLength(2);
    const listed = await listEventFees(id);
    expect(listed.map((f) => [f.feeType, f.amountMinor, f.currency])).toEqual([
      ["early_bird", 9999, "USD"],
      ["student", 15050, "KES"],
    ]);
    expect(listed[0].availableUntil).toBe("2026-06-30");
    expect(listed[1].maxQuantity).toBe(20);
    expect((await auditActions(id)).map((r) => r.action)).toContain("event.fees_replace");
  });

  it("keeps the old set when an insert fails (delete and insert are one transaction)", async () => {
    const actor = await newActor();
    const { id } = await createEvent(actor, eventInput());
    await replaceEventFees(actor, id, [fee({ amountMinor: 4200 })]);
    await expect(
      replaceEventFees(actor, id, [fee({ amountMinor: 100 }), fee({ amountMinor: -500 })]), // CHECK violation
    ).rejects.toThrow();
    expect((await listEventFees(id)).map((f) => f.amountMinor)).toEqual([4200]);
  });

  it("keeps a saved fee's id (and so its registrations) when the set is saved again", async () => {
    const actor = await newActor();
    const { id } = await createEvent(actor, eventInput());
    const [kept, dropped] = await replaceEventFees(actor, id, [
      fee({ amountMinor: 1000 }),
      fee({ amountMinor: 2000 }),
    ]);
    const saved = await replaceEventFees(actor, id, [
      fee({ id: kept.id, amountMinor: 1200, maxPerOrder: 4, maxPerAccount: 2 }),
      fee({ amountMinor: 3000 }),
    ]);
    expect(saved.map((f) => f.amountMinor)).toEqual([1200, 3000]);
    expect(saved[0]).toMatchObject({ id: kept.id, maxPerOrder: 4, maxPerAccount: 2 });
    expect(saved[1]).toMatchObject({ maxPerOrder: 10, maxPerAccount: 1 });
    expect((await listEventFees(id)).map((f) => f.id)).not.toContain(dropped.id);
  });

  it("saves a sale start and refuses one after the fee's last day or the event's start (the form's rule, enforced here)", async () => {
    const actor = await newActor();
    // Starts 2026-09-14 09:00 in Nairobi.
    const { id } = await createEvent(actor, eventInput());
    const [saved] = await replaceEventFees(actor, id, [
      fee({ saleStartsAt: new Date("2026-06-01T06:00:00Z"), availableUntil: "2026-06-30" }),
    ]);
    expect(saved.saleStartsAt?.toISOString()).toBe("2026-06-01T06:00:00.000Z");
    // Saved again without the field (an older caller): the fee keeps its sale start.
    const [again] = await replaceEventFees(actor, id, [fee({ id: saved.id })]);
    expect(again.saleStartsAt?.toISOString()).toBe("2026-06-01T06:00:00.000Z");

    const refusal = (input: FeeInput) =>
      replaceEventFees(actor, id, [input]).catch((e: unknown) => e as FeeError);
    // 23:30 on the last day in Nairobi is still that day; 00:30 the next day is not.
    const lastMinute = fee({
      saleStartsAt: new Date("2026-06-30T20:30:00Z"),
      availableUntil: "2026-06-30",
    });
    expect((await replaceEventFees(actor, id, [lastMinute]))[0].saleStartsAt).not.toBeNull();
    const nextDay = await refusal(
      fee({ saleStartsAt: new Date("2026-06-30T21:30:00Z"), availableUntil: "2026-06-30" }),
    );
    expect(nextDay).toBeInstanceOf(FeeError);
    expect(nextDay).toMatchObject({
      status: 400,
      message: "Sale start must be before the end of the Available Until date",
    });
    const afterStart = await refusal(fee({ saleStartsAt: new Date("2026-09-14T06:00:00Z") }));
    expect(afterStart).toMatchObject({
      status: 400,
      message: "Sale start must be before the event starts",
    });
    // Refused saves change nothing.
    expect((await listEventFees(id)).map((f) => f.saleStartsAt?.toISOString())).toEqual([
      "2026-06-30T20:30:00.000Z",
    ]);
  });

  it("refuses fees for an event that was never saved", async () => {
    const actor = await newActor();
    for (const eventId of [null, randomUUID()]) {
      const error = await replaceEventFees(actor, eventId, [fee()]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FeeError);
      expect((error as Error).message).toBe(SAVE_EVENT_FIRST);
    }
  });

  it("removes one fee of the event, and only of that event", async () => {
    const actor = await newActor();
    const a = await createEvent(actor, eventInput());
    const b = await createEvent(actor, eventInput());
    const [feeA] = await replaceEventFees(actor, a.id, [fee({ amountMinor: 1000 })]);
    expect(await deleteEventFee(actor, b.id, feeA.id)).toBe(false);
    expect(await deleteEventFee(actor, a.id, feeA.id)).toBe(true);
    expect(await listEventFees(a.id)).toEqual([]);
  });

  it("goes with its event on delete (cascade), and the delete is audited", async () => {
    const actor = await newActor();
    const { speaker, sponsor } = await newSpeakerAndSponsor();
    const { id } = await createEvent(
      actor,
      eventInput({ title: "To be deleted", speakerIds: [speaker.id], sponsorIds: [sponsor.id] }),
    );
    await replaceEventFees(actor, id, [fee()]);
    expect(await deleteEvent(actor, id)).toEqual({ id, title: "To be deleted" });
    expect(await database.db.select().from(eventFees).where(eq(eventFees.eventId, id))).toEqual([]);
    expect(
      await database.db
        .select()
        .from(eventSpeakers)
        .where(and(eq(eventSpeakers.eventId, id))),
    ).toEqual([]);
    expect(
      await database.db.select().from(eventSponsors).where(eq(eventSponsors.eventId, id)),
    ).toEqual([]);
    expect((await auditActions(id)).map((r) => r.action)).toContain("event.delete");
  });
});

describe("dashboard", () => {
  it("counts live rows in one query; offices only for admins", async () => {
    const before = await getDashboardCounts({ includeOffices: true });
    const actor = await newActor();
    await createEvent(actor, eventInput());
    const after = await getDashboardCounts({ includeOffices: true });
    expect(after.events).toBe(before.events + 1);
    expect(typeof after.offices).toBe("number");
    expect((await getDashboardCounts({ includeOffices: false })).offices).toBeNull();
  });

  it("lists the latest activity with the actor's name, hiding account rows from editors", async () => {
    const actor = await newActor();
    const { title } = await createEvent(actor, eventInput({ title: `Activity ${randomUUID()}` }));
    await database.db
      .insert(auditLog)
      .values({ action: "user.role_change", entity: "user", actorId: actor.id });
    const forEditor = await listRecentActivity({ isAdmin: false, limit: 50 });
    expect(forEditor.find((a) => a.subject === title)).toMatchObject({
      action: "event.create",
      entity: "event",
      actorName: expect.stringContaining("Test editor"),
    });
    expect(forEditor.some((a) => a.entity === "user")).toBe(false);
    const forAdmin = await listRecentActivity({ isAdmin: true, limit: 50 });
    expect(forAdmin.some((a) => a.entity === "user")).toBe(true);
  });
});
