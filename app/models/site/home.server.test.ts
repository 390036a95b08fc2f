import { beforeAll, describe, expect, it } from "vitest";
import { events, offices, papers } from "~/db/schema";
import { useTestDatabase } from "../../../tests/helpers/db";
import { getHomeContent, listHomeOffices, listLatestPublishedPapers } from "./home.server";

describe("home queries", () => {
  const test = useTestDatabase();
  const DAY = 86_400_000;

  beforeAll(async () => {
    const db = test.db;
    const created = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY);
    await db.insert(papers).values([
      {
        title: "Oldest",
        slug: "oldest",
        authors: ["A"],
        status: "published",
        createdAt: created(9),
      },
      {
        title: "Newest",
        slug: "newest",
        authors: ["A", "B"],
        status: "published",
        createdAt: created(1),
      },
      {
        title: "Middle",
        slug: "middle",
        authors: ["C"],
        status: "published",
        createdAt: created(5),
      },
      {
        title: "Second",
        slug: "second",
        authors: ["D"],
        status: "published",
        createdAt: created(3),
      },
      {
        title: "Fresh Draft",
        slug: "fresh-draft",
        authors: ["E"],
        status: "draft",
        createdAt: created(0),
      },
      {
        title: "Under Review",
        slug: "under-review",
        authors: ["F"],
        status: "under_review",
        createdAt: created(0),
      },
    ]);
    await db.insert(offices).values([
      {
        region: "Europe",
        city: "London",
        country: "UK",
        address: "1 Secret St",
        email: "l@k.org",
        phone: "+44",
      },
      {
        region: "Africa",
        city: "Nairobi",
        country: "Kenya",
        isHeadquarters: true,
        address: "HQ Rd",
      },
      { region: "Asia", city: "Singapore", country: "Singapore" },
      { region: "Africa", city: "Accra", country: "Ghana" },
      { region: "Oceania", city: "Sydney", country: "Australia" },
      { region: "Africa", city: "Cairo", country: "Egypt", status: "inactive" },
    ]);
    await db.insert(events).values([
      {
        title: "Featured Draft",
        slug: "featured-draft",
        location: "Nairobi",
        startDate: new Date(Date.now() + DAY),
        endDate: new Date(Date.now() + 2 * DAY),
        featured: true,
        status: "draft",
      },
    ]);
  });

  describe("home content", () => {
    it("shows the three newest published papers", async () => {
      const list = await listLatestPublishedPapers();
      expect(list.map((p) => p.title)).toEqual(["Newest", "Second", "Middle"]);
      expect(list[0].authors).toEqual(["A", "B"]);
    });

    it("shows four active offices, head office first, with region, city and country only", async () => {
      const list = await listHomeOffices();
      expect(list.map((o) => o.city)).toEqual(["Nairobi", "Accra", "Singapore", "London"]);
      for (const office of list) {
        expect(Object.keys(office).sort()).toEqual(["city", "country", "id", "region"]);
      }
    });

    it("never features a draft event", async () => {
      const content = await getHomeContent();
      expect(content.featuredEvents).toEqual([]);
      expect(content.latestPapers).toHaveLength(3);
      expect(content.offices).toHaveLength(4);
    });
  });
});
