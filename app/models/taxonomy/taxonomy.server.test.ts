import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events } from "~/db/schema";
import { contentVersion } from "~/lib/content-version.server";
// Aliased: biome reads a `use…` call as a React hook; this is a vitest set-up helper.
import { useTestDatabase as withTestDatabase } from "../../../tests/helpers/db";
import { EntityError } from "../shared/entity-support.server";
import { auditRowsFor, createActor } from "../shared/test-support";
import {
  createCategory,
  deleteCategory,
  getCategory,
  listCategories,
  updateCategory,
} from "./categories.server";
import {
  createEventType,
  deleteEventType,
  getEventType,
  listEventTypes,
  updateEventType,
} from "./event-types.server";

const database = withTestDatabase();

async function addEvents(n: number, fields: { category?: string; eventType?: string }) {
  for (let i = 0; i < n; i++) {
    const title = `Event ${Math.random().toString(36).slice(2)}`;
    await database.db.insert(events).values({
      title,
      slug: title.toLowerCase().replace(/\s+/g, "-"),
      location: "Nairobi, Kenya",
      startDate: new Date("2030-01-01T09:00:00Z"),
      endDate: new Date("2030-01-02T17:00:00Z"),
      ...fields,
    });
  }
}

describe("event categories", () => {
  it("creates, reads, lists with event counts, updates and deletes, writing audit rows", async () => {
    const { ctx, id: actorId } = await createActor(database.db);
    const before = contentVersion();
    const created = await createCategory(
      {
        name: " Data Governance ",
        color: "#12ab9f",
        icon: "shield",
        description: "Policies and stewardship",
        industrySector: "Public Sector",
      },
      ctx,
    );
    expect(contentVersion()).toBeGreaterThan(before);
    expect(await getCategory(created.id)).toMatchObject({
      name: "Data Governance",
      color: "#12AB9F",
      icon: "shield",
      industrySector: "Public Sector",
    });

    await addEvents(2, { category: "Data Governance" });
    const listed = (await listCategories()).find((c) => c.id === created.id);
    expect(listed?.eventCount).toBe(2);

    await updateCategory(
      created.id,
      {
        name: "Data Stewardship",
        color: "#000000",
        icon: null,
        description: null,
        industrySector: null,
      },
      ctx,
    );
    // Events follow the rename (ON UPDATE CASCADE).
    const renamed = await database.db
      .select({ id: events.id })
      .from(events)
      .where(eq(events.category, "Data Stewardship"));
    expect(renamed).toHaveLength(2);

    const refused = await deleteCategory(created.id, ctx);
    expect(refused).toEqual({
      status: "in_use",
      name: "Data Stewardship",
      eventCount: 2,
      message: 'Cannot delete "Data Stewardship": 2 events use this category.',
    });
    expect(await getCategory(created.id)).not.toBeNull();

    await database.db.delete(events).where(eq(events.category, "Data Stewardship"));
    expect(await deleteCategory(created.id, ctx)).toEqual({
      status: "deleted",
      name: "Data Stewardship",
    });
    expect(await getCategory(created.id)).toBeNull();

    const audit = await auditRowsFor(database.db, "event_category", created.id);
    expect(audit.map((r) => r.action)).toEqual([
      "event_category.create",
      "event_category.update",
      "event_category.delete",
    ]);
    expect(audit.every((r) => r.actorId === actorId)).toBe(true);
  });

  it("searches by name, description or sector, escaping LIKE wildcards", async () => {
    const { ctx } = await createActor(database.db);
    await createCategory(
      {
        name: "Records 100%",
        color: "#0B5FFF",
        icon: null,
        description: null,
        industrySector: null,
      },
      ctx,
    );
    await createCategory(
      {
        name: "Archives",
        color: "#0B5FFF",
        icon: null,
        description: "Digital preservation",
        industrySector: "Heritage",
      },
      ctx,
    );
    expect((await listCategories("100%")).map((c) => c.name)).toEqual(["Records 100%"]);
    expect((await listCategories("%")).map((c) => c.name)).toEqual(["Records 100%"]);
    expect((await listCategories("PRESERV")).map((c) => c.name)).toEqual(["Archives"]);
    expect((await listCategories("heritage")).map((c) => c.name)).toEqual(["Archives"]);
  });

  it("refuses a duplicate name with a message on the name field", async () => {
    const { ctx } = await createActor(database.db);
    const input = {
      name: "Duplicate",
      color: "#0B5FFF",
      icon: null,
      description: null,
      industrySector: null,
    };
    await createCategory(input, ctx);
    const error = await createCategory(input, ctx).catch((e) => e);
    expect(error).toBeInstanceOf(EntityError);
    expect(error).toMatchObject({
      message: 'A category named "Duplicate" already exists.',
      field: "name",
    });
  });

  it("treats unknown or malformed ids as not found", async () => {
    const { ctx } = await createActor(database.db);
    expect(await getCategory("not-a-uuid")).toBeNull();
    expect(await deleteCategory("00000000-0000-4000-8000-000000000000", ctx)).toEqual({
      status: "not_found",
    });
  });
});

describe("event types", () => {
  it("lists the seeded types and refuses to delete one events use, saying how many", async () => {
    const { ctx } = await createActor(database.db);
    const conference = (await listEventTypes()).find((t) => t.name === "conference");
    expect(conference).toBeDefined();
    await addEvents(12, { eventType: "conference" });
    const result = await deleteEventType(conference!.id, ctx);
    expect(result).toMatchObject({
      status: "in_use",
      message: 'Cannot delete "conference": 12 events use this type.',
    });
  });

  it("says '1 event uses' for a single event", async () => {
    const { ctx } = await createActor(database.db);
    const type = await createEventType(
      { name: "hackathon", color: "#AA0000", icon: null, description: null },
      ctx,
    );
    await addEvents(1, { eventType: "hackathon" });
    expect(await deleteEventType(type.id, ctx)).toMatchObject({
      message: 'Cannot delete "hackathon": 1 event uses this type.',
    });
  });

  it("creates, updates and deletes an unused type with audit rows", async () => {
    const { ctx } = await createActor(database.db);
    const type = await createEventType(
      { name: "retreat", color: "#00AA00", icon: "tent", description: "Off-site" },
      ctx,
    );
    await updateEventType(
      type.id,
      { name: "retreat", color: "#00BB00", icon: null, description: null },
      ctx,
    );
    expect(await getEventType(type.id)).toMatchObject({
      color: "#00BB00",
      icon: null,
      industrySector: null,
    });
    expect(await deleteEventType(type.id, ctx)).toEqual({ status: "deleted", name: "retreat" });
    const audit = await auditRowsFor(database.db, "event_type", type.id);
    expect(audit.map((r) => r.action)).toEqual([
      "event_type.create",
      "event_type.update",
      "event_type.delete",
    ]);
  });
});
