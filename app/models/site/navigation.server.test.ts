import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { contentChanged } from "~/lib/content-version.server";
import { seedIfEmpty } from "~/models/seed/seed.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { getMegaMenuData } from "./navigation.server";

describe("getMegaMenuData", () => {
  const database = useTestDatabase();

  it("lists every type and category by name with its number of published events", async () => {
    await seedIfEmpty({ demoAccounts: false });
    const data = await getMegaMenuData();
    const types = await queryRows<{ name: string; n: number }>(sql`
      SELECT t.name, count(e.id) FILTER (WHERE e.status = 'published')::int AS n
      FROM event_types t LEFT JOIN events e ON e.event_type = t.name GROUP BY t.name ORDER BY t.name`);
    expect(data.types.map((t) => [t.name, t.count])).toEqual(types.map((t) => [t.name, t.n]));
    expect(data.types).toHaveLength(8);
    expect(data.categories.length).toBeGreaterThan(6);
    expect(data.categories.map((c) => c.name)).toEqual(
      [...data.categories.map((c) => c.name)].sort((a, b) => a.localeCompare(b, "en")),
    );
    expect(data.categories.every((c) => /^#[0-9A-Fa-f]{6}$/.test(c.color ?? ""))).toBe(true);
  });

  it("answers from its cache until the content changes", async () => {
    const first = await getMegaMenuData();
    await database.db.execute(sql`UPDATE events SET status = 'published' WHERE status = 'draft'`);
    expect(await getMegaMenuData()).toEqual(first); // cached
    contentChanged();
    const fresh = await getMegaMenuData();
    const total = (d: typeof first) => d.types.reduce((sum, t) => sum + t.count, 0);
    expect(total(fresh)).toBeGreaterThan(total(first));
  });

  it("asks again after a minute even without a change notice", async () => {
    const now = Date.now();
    const before = await getMegaMenuData(now);
    await database.db.execute(sql`UPDATE events SET status = 'archived' WHERE event_type = 'gala'`);
    expect(await getMegaMenuData(now + 1_000)).toEqual(before);
    const later = await getMegaMenuData(now + 61_000);
    expect(later.types.find((t) => t.name === "gala")?.count).toBe(0);
  });
});
