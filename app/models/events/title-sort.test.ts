import { describe, expect, it } from "vitest";
import { events } from "~/db/schema";
import { DEFAULT_EVENT_FILTERS } from "~/models/events/filters";
import { useTestDatabase } from "../../../tests/helpers/db";
import { listPublishedEvents } from "./queries.server";

describe("title sort", () => {
  const test = useTestDatabase();

  it("is case-insensitive: 'Data and Analytics' before 'Data Ethics' on both databases", async () => {
    const start = new Date(Date.now() + 30 * 86_400_000);
    await test.db.insert(events).values(
      ["Data Ethics Forum", "data mining Forum", "Data and Analytics Forum", "Archives Forum"].map(
        (title) => ({
          title,
          slug: title.toLowerCase().replace(/\s+/g, "-"),
          location: "Nairobi, Kenya",
          startDate: start,
          endDate: start,
          status: "published" as const,
        }),
      ),
    );
    const { events: rows } = await listPublishedEvents({ ...DEFAULT_EVENT_FILTERS, sort: "title" });
    expect(rows.map((e) => e.title)).toEqual([
      "Archives Forum",
      "Data and Analytics Forum",
      "Data Ethics Forum",
      "data mining Forum",
    ]);
  });
});
