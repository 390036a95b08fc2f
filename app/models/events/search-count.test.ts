import { beforeAll, describe, expect, it } from "vitest";
import { events } from "~/db/schema";
import { contentChanged } from "~/lib/content-version.server";
import {
  DEFAULT_EVENT_FILTERS,
  EVENT_SEARCH_COUNT_CAP,
  eventsFoundLabel,
} from "~/models/events/filters";
import { useTestDatabase } from "../../../tests/helpers/db";
import { listPublishedEvents } from "./queries.server";

describe("counting a search's matches", () => {
  const test = useTestDatabase();
  const COMMON = EVENT_SEARCH_COUNT_CAP + 5;

  beforeAll(async () => {
    const start = new Date("2027-03-01T09:00:00Z");
    const rows = Array.from({ length: COMMON + 3 }, (_, i) => {
      const rare = i >= COMMON;
      return {
        slug: `event-${i}`,
        title: rare ? `Okapi Forum ${i}` : `Zebra Summit ${i}`,
        location: "Nairobi, Kenya",
        startDate: new Date(start.getTime() + i * 60_000),
        endDate: new Date(start.getTime() + i * 60_000 + 3_600_000),
        status: "published" as const,
      };
    });
    for (let i = 0; i < rows.length; i += 500) {
      await test.db.insert(events).values(rows.slice(i, i + 500));
    }
    contentChanged();
  });

  it("stops counting a common term past the cap and says so", async () => {
    const result = await listPublishedEvents({ ...DEFAULT_EVENT_FILTERS, search: "zebra" });
    expect(result).toMatchObject({ total: EVENT_SEARCH_COUNT_CAP, capped: true });
    expect(result.events).toHaveLength(12);
    expect(eventsFoundLabel(result.total, result.capped)).toBe("1,000+ Events Found");
  });

  it("counts a rarer term exactly", async () => {
    const result = await listPublishedEvents({ ...DEFAULT_EVENT_FILTERS, search: "okapi" });
    expect(result).toMatchObject({ total: 3, capped: false });
    expect(eventsFoundLabel(result.total, result.capped)).toBe("3 Events Found");
  });

  it("counts the unfiltered listing exactly, however long", async () => {
    const result = await listPublishedEvents(DEFAULT_EVENT_FILTERS);
    expect(result).toMatchObject({ total: COMMON + 3, capped: false });
  });
});
