import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, user } from "~/db/schema";
import { useTestDatabase } from "../../../tests/helpers/db";
import {
  ACTIVITY_PAGE_SIZE,
  activityCsvStream,
  activityFilterOptions,
  listActivity,
  startOfNairobiDay,
} from "./audit-log.server";

describe("activity log", () => {
  const database = useTestDatabase();
  const jane = randomUUID();
  const omar = randomUUID();

  beforeAll(async () => {
    await database.db.insert(user).values([
      { id: jane, name: "Jane Doe", email: "jane.doe@example.com", role: "admin" },
      { id: omar, name: "Omar Said", email: "omar@example.com", role: "editor" },
    ]);
    const at = (iso: string) => new Date(iso);
    await database.db.insert(auditLog).values([
      // 2026-03-01 23:30 in Nairobi (UTC+3) is 20:30 UTC on the same day.
      {
        actorId: jane,
        action: "user.role_change",
        entity: "user",
        entityId: omar,
        details: { from: "user", to: "editor" },
        createdAt: at("2026-03-01T20:30:00Z"),
      },
      // 2026-03-02 00:30 in Nairobi is still 2026-03-01 21:30 UTC.
      {
        actorId: omar,
        action: "event.create",
        entity: "event",
        entityId: "=2+3",
        details: { title: 'Say "hi", all' },
        createdAt: at("2026-03-01T21:30:00Z"),
      },
      {
        actorId: null,
        actorEmail: "Intruder@Example.org",
        action: "auth.sign_in_failed",
        ip: "10.0.0.9",
        createdAt: at("2026-03-05T09:00:00Z"),
      },
      ...Array.from({ length: ACTIVITY_PAGE_SIZE }, (_, i) => ({
        actorId: omar,
        action: "paper.update",
        entity: "paper",
        entityId: `p${i}`,
        createdAt: at(`2026-02-0${1 + (i % 9)}T10:00:${String(i).padStart(2, "0")}Z`),
      })),
    ]);
  });

  it("lists newest first with e-mails masked, one page at a time", async () => {
    const first = await listActivity({}, 1);
    expect(first.total).toBe(ACTIVITY_PAGE_SIZE + 3);
    expect(first.pageCount).toBe(2);
    expect(first.entries.slice(0, 3).map((e) => e.action)).toEqual([
      "auth.sign_in_failed",
      "event.create",
      "user.role_change",
    ]);
    expect(first.entries[0].actorEmail).toBe("I******r@Example.org");
    expect(first.entries[2]).toMatchObject({
      actorName: "Jane Doe",
      actorEmail: "j******e@example.com",
    });
    expect(JSON.stringify(first)).not.toMatch(/jane\.doe@|omar@|intruder@/i);
    const second = await listActivity({}, 2);
    expect(second.entries).toHaveLength(3);
  });

  it("filters by actor name (substring) or whole e-mail, never by a fragment of one", async () => {
    expect((await listActivity({ actor: "jane" })).total).toBe(1);
    expect((await listActivity({ actor: "OMAR@example.com" })).total).toBe(ACTIVITY_PAGE_SIZE + 1);
    expect((await listActivity({ actor: "intruder@example.org" })).total).toBe(1);
    expect((await listActivity({ actor: "example.com" })).total).toBe(0);
  });

  it("filters by action and entity", async () => {
    expect((await listActivity({ action: "user.role_change" })).entries).toHaveLength(1);
    expect((await listActivity({ entity: "paper" })).total).toBe(ACTIVITY_PAGE_SIZE);
    expect((await listActivity({ entity: "paper", action: "event.create" })).total).toBe(0);
  });

  it("filters by calendar days in Nairobi time, both ends inclusive", async () => {
    const march1 = await listActivity({ from: "2026-03-01", to: "2026-03-01" });
    expect(march1.entries.map((e) => e.action)).toEqual(["user.role_change"]);
    const march2 = await listActivity({ from: "2026-03-02", to: "2026-03-02" });
    expect(march2.entries.map((e) => e.action)).toEqual(["event.create"]);
    expect((await listActivity({ from: "2026-03-02" })).total).toBe(2);
    expect((await listActivity({ to: "2026-02-28" })).total).toBe(ACTIVITY_PAGE_SIZE);
  });

  it("ignores malformed dates instead of failing", async () => {
    expect(startOfNairobiDay("2026-02-31")).toBeUndefined();
    expect(startOfNairobiDay("yesterday")).toBeUndefined();
    expect(startOfNairobiDay("2026-03-01")?.toISOString()).toBe("2026-02-28T21:00:00.000Z");
    expect((await listActivity({ from: "not-a-date" })).total).toBe(ACTIVITY_PAGE_SIZE + 3);
  });

  it("offers the actions and entities present", async () => {
    const options = await activityFilterOptions();
    expect(options.actions).toEqual([
      "auth.sign_in_failed",
      "event.create",
      "paper.update",
      "user.role_change",
    ]);
    expect(options.entities).toEqual(["event", "paper", "user"]);
  });

  it("exports the filtered rows as CSV, escaped and safe from formulas", async () => {
    const text = await new Response(activityCsvStream({ from: "2026-03-01" })).text();
    const lines = text.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe(
      '"Time (UTC)","Actor","Actor email","Action","Entity","Entity ID","Details","IP address","User agent"',
    );
    expect(lines).toHaveLength(5); // header, 3 rows, trailing empty string after the last CRLF
    expect(lines[1]).toContain('"auth.sign_in_failed"');
    expect(lines[1]).toContain('"I******r@Example.org"');
    expect(lines[2]).toContain(
      '"event.create","event","\'=2+3","{""title"":""Say \\""hi\\"", all""}"',
    );
    expect(lines[3]).toContain('"Jane Doe","j******e@example.com","user.role_change"');
    expect(text).not.toMatch(/jane\.doe@|omar@/);
  });

  it("streams every row of a large export in batches", async () => {
    const text = await new Response(activityCsvStream({})).text();
    expect(text.trimEnd().split("\r\n")).toHaveLength(1 + ACTIVITY_PAGE_SIZE + 3);
  });
});
