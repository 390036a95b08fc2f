import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import {
  agendaItems,
  eventCategories,
  eventFees,
  eventSpeakers,
  eventSponsors,
  events,
  papers,
  speakers,
  sponsors,
} from "~/db/schema";
import { contentChanged } from "~/lib/content-version.server";
import { DEFAULT_EVENT_FILTERS, type EventFilters } from "~/models/events/filters";
import { useTestDatabase } from "../../../tests/helpers/db";
import {
  eventSearchCondition,
  findPublishedEventSlugById,
  getCalendarEventBySlug,
  getEventListingStats,
  getPublishedEventBySlug,
  likeContains,
  listCalendarEvents,
  listEventFilterOptions,
  listFeaturedEvents,
  listPublishedEvents,
  listRecentPublishedEvents,
  listSitemapEntries,
} from "./queries.server";

describe("public event queries", () => {
  const test = useTestDatabase();
  const DAY = 86_400_000;
  const now = Date.now();
  const at = (days: number, hours = 0) => new Date(now + days * DAY + hours * 3_600_000);

  type Seed = Partial<typeof events.$inferInsert> & { title: string };
  function event(seed: Seed): typeof events.$inferInsert {
    return {
      slug: seed.title.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
      location: "Nairobi, Kenya",
      startDate: at(30),
      endDate: at(31),
      status: "published",
      ...seed,
    };
  }

  // Published: 6. Draft and archived ones share words with them so every search would find them.
  const PUBLISHED: Seed[] = [
    {
      title: "Data Governance Summit",
      eventType: "conference",
      category: "Data Governance",
      featured: true,
      startDate: at(10),
      endDate: at(12),
      description: "Policies, stewardship and trust.",
    },
    {
      title: "Big Data Expo",
      eventType: "exhibition",
      location: "Virtual Event (online)",
      startDate: at(20),
      endDate: at(20, 6),
      theme: "Platforms",
    },
    {
      title: "Past Analytics Workshop",
      eventType: "workshop",
      category: "AI & Analytics",
      location: "Lagos, Nigeria",
      startDate: at(-40),
      endDate: at(-39),
      description: "A 100% practical session.",
      featured: true,
    },
    {
      title: "Archivists Gala Dinner",
      eventType: "gala",
      location: "Accra, Ghana",
      startDate: at(50),
      endDate: at(50, 5),
      theme: "Open DATA for all",
    },
    {
      title: "Records Conference",
      eventType: "conference",
      location: "ONLINE",
      startDate: at(-1),
      endDate: at(1),
      category: "AI & Analytics",
    },
    {
      title: "Metadata Masterclass",
      eventType: "seminar",
      location: "nairobi, kenya ",
      startDate: at(70),
      endDate: at(70),
    },
  ];
  const HIDDEN: Seed[] = [
    {
      title: "Secret Data Governance Draft",
      status: "draft",
      featured: true,
      eventType: "conference",
      category: "Data Governance",
      location: "Virtual",
    },
    {
      title: "Archived Data Summit",
      status: "archived",
      featured: true,
      eventType: "conference",
      startDate: at(5),
      endDate: at(6),
    },
  ];

  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const db = test.db;
    await db
      .insert(eventCategories)
      .values([{ name: "Data Governance" }, { name: "AI & Analytics" }]);
    const rows = await db
      .insert(events)
      .values([...PUBLISHED, ...HIDDEN].map(event))
      .returning({ id: events.id, title: events.title });
    for (const row of rows) ids[row.title] = row.id;

    const [ada, ben, cy] = await db
      .insert(speakers)
      .values([
        { name: "Ada Mwangi", title: "CDO", organization: "Acme" },
        { name: "Ben Otieno" },
        { name: "Cy Draft" },
      ])
      .returning({ id: speakers.id });
    const summit = ids["Data Governance Summit"];
    await db.insert(eventSpeakers).values([
      { eventId: summit, speakerId: ben.id, position: 1 },
      { eventId: summit, speakerId: ada.id, position: 0 },
      { eventId: ids["Secret Data Governance Draft"], speakerId: cy.id },
    ]);
    const [bronze, platinum, gold] = await db
      .insert(sponsors)
      .values([
        { name: "Bronze Co", tier: "bronze" },
        { name: "Platinum Co", tier: "platinum" },
        { name: "Gold Co", tier: "gold" },
      ])
      .returning({ id: sponsors.id });
    await db
      .insert(eventSponsors)
      .values([bronze, platinum, gold].map((s) => ({ eventId: summit, sponsorId: s.id })));
    await db.insert(eventFees).values([
      { eventId: summit, feeType: "full_board", amountMinor: 90000, currency: "USD" },
      { eventId: summit, feeType: "student", amountMinor: 5050, currency: "USD", maxQuantity: 20 },
      {
        eventId: summit,
        feeType: "early_bird",
        amountMinor: 30000,
        currency: "USD",
        availableUntil: "2027-01-31",
      },
    ]);
    await db.insert(agendaItems).values([
      { eventId: summit, startTime: at(11, 2), title: "Day two keynote" },
      { eventId: summit, startTime: at(10, 3), title: "Workshops", position: 1 },
      { eventId: summit, startTime: at(10, 1), title: "Opening" },
    ]);
    await db.insert(papers).values([
      { title: "Published Paper", slug: "published-paper", authors: ["A"], status: "published" },
      { title: "Draft Paper", slug: "draft-paper", authors: ["B"], status: "draft" },
    ]);
    contentChanged();
  });

  const list = (change: Partial<EventFilters>, page?: { page?: number; pageSize?: number }) =>
    listPublishedEvents({ ...DEFAULT_EVENT_FILTERS, ...change }, page);
  const titles = (rows: Array<{ title: string }>) => rows.map((r) => r.title);

  describe("listPublishedEvents", () => {
    it("lists only published events, upcoming by start date, then started ones, latest first, with the total", async () => {
      const { events: rows, total } = await list({});
      expect(total).toBe(PUBLISHED.length);
      expect(titles(rows)).toEqual([
        "Data Governance Summit",
        "Big Data Expo",
        "Archivists Gala Dinner",
        "Metadata Masterclass",
        "Records Conference", // running: started yesterday
        "Past Analytics Workshop",
      ]);
      expect(rows.map((r) => r.past)).toEqual([false, false, false, false, false, true]);
    });

    it("searches title, location, description, theme and category, case-insensitively", async () => {
      expect(titles((await list({ search: "DATA" })).events).sort()).toEqual([
        "Archivists Gala Dinner", // theme
        "Big Data Expo",
        "Data Governance Summit",
        "Metadata Masterclass",
      ]);
      expect(titles((await list({ search: "kenya" })).events).sort()).toEqual([
        "Data Governance Summit",
        "Metadata Masterclass",
      ]);
      expect(titles((await list({ search: "stewardship" })).events)).toEqual([
        "Data Governance Summit",
      ]);
      expect(titles((await list({ search: "analytics" })).events)).toEqual([
        "Records Conference", // category only
        "Past Analytics Workshop",
      ]);
      expect((await list({ search: "no such thing" })).total).toBe(0);
    });

    it("treats % and _ in the search as plain characters", async () => {
      expect(titles((await list({ search: "100%" })).events)).toEqual(["Past Analytics Workshop"]);
      expect((await list({ search: "%" })).total).toBe(1);
      expect((await list({ search: "_" })).total).toBe(0);
      expect(likeContains("50%_off\\")).toBe("%50\\%\\_off\\\\%");
    });

    it("filters by type and category (any letter case)", async () => {
      expect(titles((await list({ type: "Conference" })).events)).toEqual([
        "Data Governance Summit",
        "Records Conference",
      ]);
      expect(titles((await list({ category: "ai & analytics" })).events)).toEqual([
        "Records Conference",
        "Past Analytics Workshop",
      ]);
      expect(
        titles((await list({ search: "data", type: "conference", sort: "title" })).events),
      ).toEqual(["Data Governance Summit"]);
    });

    it("filters upcoming (start later than now), featured and virtual events", async () => {
      expect(titles((await list({ upcoming: true })).events)).toEqual([
        "Data Governance Summit",
        "Big Data Expo",
        "Archivists Gala Dinner",
        "Metadata Masterclass",
      ]);
      expect(titles((await list({ featured: true })).events)).toEqual([
        "Data Governance Summit",
        "Past Analytics Workshop",
      ]);
      expect(titles((await list({ virtual: true })).events)).toEqual([
        "Big Data Expo",
        "Records Conference",
      ]);
    });

    it("sorts by title and by location", async () => {
      expect(titles((await list({ sort: "title" })).events)).toEqual(
        PUBLISHED.map((e) => e.title).sort(),
      );
      // Only the collation-independent part: where upper and lower case meet, servers differ.
      const byLocation = (await list({ sort: "location" })).events.map((e) => e.location);
      expect(byLocation.slice(0, 3)).toEqual(["Accra, Ghana", "Lagos, Nigeria", "Nairobi, Kenya"]);
    });

    it("pages without overlaps or gaps, the total staying the same", async () => {
      const pages = await Promise.all(
        [1, 2, 3, 4].map((page) => list({ sort: "title" }, { page, pageSize: 2 })),
      );
      expect(pages.map((p) => p.total)).toEqual([6, 6, 6, 6]);
      expect(pages.flatMap((p) => titles(p.events))).toEqual(PUBLISHED.map((e) => e.title).sort());
      expect(pages[3].events).toEqual([]);
    });

    it("gives each card its speaker count and type colour", async () => {
      const { events: rows } = await list({ search: "governance" });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        speakerCount: 2,
        eventType: "conference",
        typeColor: "#0B5FFF",
      });
      expect(rows[0]).not.toHaveProperty("status");
    });

    it("searches through the trigram index (so it stays fast with many events)", async () => {
      const where = eventSearchCondition("governance");
      const plan = await test.db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        return queryRows<{ "QUERY PLAN": string }>(
          sql`EXPLAIN SELECT id FROM ${events} WHERE ${where}`,
          tx,
        );
      });
      expect(plan.map((r) => r["QUERY PLAN"]).join("\n")).toContain("events_search_text_trgm_idx");
    });
  });

  describe("home, stats and options", () => {
    it("features at most three published featured events, upcoming first", async () => {
      expect(titles(await listFeaturedEvents(3))).toEqual([
        "Data Governance Summit",
        "Past Analytics Workshop",
      ]);
      expect(titles(await listFeaturedEvents(1))).toEqual(["Data Governance Summit"]);
    });

    it("counts published events and their distinct locations", async () => {
      // Nairobi twice (letter case and spaces differ), Virtual, Lagos, Accra, ONLINE.
      expect(await getEventListingStats()).toEqual({ totalEvents: 6, locations: 5 });
    });

    it("offers every type and category by name", async () => {
      const options = await listEventFilterOptions();
      expect(options.types).toContain("conference");
      expect(options.categories).toEqual(["AI & Analytics", "Data Governance"]);
    });
  });

  describe("event page", () => {
    it("loads a published event with ordered speakers, agenda, fees and sponsors", async () => {
      const detail = await getPublishedEventBySlug("data-governance-summit");
      expect(detail).not.toBeNull();
      expect(detail!.speakers.map((s) => s.name)).toEqual(["Ada Mwangi", "Ben Otieno"]);
      expect(detail!.agenda.map((a) => a.title)).toEqual([
        "Opening",
        "Workshops",
        "Day two keynote",
      ]);
      expect(detail!.fees.map((f) => [f.feeType, f.amountMinor])).toEqual([
        ["student", 5050],
        ["early_bird", 30000],
        ["full_board", 90000],
      ]);
      expect(detail!.fees[1].availableUntil).toBe("2027-01-31");
      expect(detail!.fees[0].maxQuantity).toBe(20);
      expect(detail!.sponsors.map((s) => s.tier)).toEqual(["platinum", "gold", "bronze"]);
    });

    it("keeps an event's content until the content changes; an unknown address is not kept", async () => {
      const first = await getPublishedEventBySlug("data-governance-summit");
      await test.db.execute(
        sql`update events set title = 'Renamed Summit' where slug = 'data-governance-summit'`,
      );
      expect(await getPublishedEventBySlug("data-governance-summit")).toBe(first); // kept
      expect(await getPublishedEventBySlug("published-later")).toBeNull();
      await test.db.execute(
        sql`update events set status = 'published', slug = 'published-later' where slug = 'secret-data-governance-draft'`,
      );
      // A miss is asked again at once; the kept event waits for the back office's notice.
      expect((await getPublishedEventBySlug("published-later"))?.title).toBe(
        "Secret Data Governance Draft",
      );
      contentChanged();
      expect((await getPublishedEventBySlug("data-governance-summit"))?.title).toBe(
        "Renamed Summit",
      );
      await test.db.execute(
        sql`update events set title = 'Data Governance Summit' where slug = 'data-governance-summit'`,
      );
      await test.db.execute(
        sql`update events set status = 'draft', slug = 'secret-data-governance-draft' where slug = 'published-later'`,
      );
      contentChanged();
    });

    it("finds neither drafts nor archived events, by slug or by id", async () => {
      expect(await getPublishedEventBySlug("secret-data-governance-draft")).toBeNull();
      expect(await getPublishedEventBySlug("archived-data-summit")).toBeNull();
      expect(await findPublishedEventSlugById(ids["Secret Data Governance Draft"])).toBeNull();
      expect(await findPublishedEventSlugById(ids["Big Data Expo"])).toBe("big-data-expo");
      expect(await getCalendarEventBySlug("archived-data-summit")).toBeNull();
    });
  });

  describe("calendars, feeds and sitemap", () => {
    it("feeds the events that have not ended; the export takes the whole filtered result", async () => {
      const current = await listCalendarEvents(DEFAULT_EVENT_FILTERS, { scope: "current" });
      expect(titles(current)).not.toContain("Past Analytics Workshop");
      expect(titles(current)).toContain("Records Conference"); // running now
      const all = await listCalendarEvents(
        { ...DEFAULT_EVENT_FILTERS, type: "workshop" },
        { scope: "all" },
      );
      expect(titles(all)).toEqual(["Past Analytics Workshop"]);
      const everything = await listCalendarEvents(DEFAULT_EVENT_FILTERS, { scope: "all" });
      expect(everything).toHaveLength(6);
      expect(everything[0]).toHaveProperty("sequence");
    });

    it("never lists drafts in the RSS feed or the sitemap", async () => {
      const recent = titles(await listRecentPublishedEvents());
      expect(recent.sort()).toEqual(PUBLISHED.map((e) => e.title).sort());
      const paths = (await listSitemapEntries()).map((e) => e.path);
      expect(paths).toContain("/events/data-governance-summit");
      expect(paths).toContain("/papers/published-paper");
      expect(paths).not.toContain("/papers/draft-paper");
      expect(paths).not.toContain("/events/secret-data-governance-draft");
      expect(paths).not.toContain("/events/archived-data-summit");
      expect(paths).toHaveLength(PUBLISHED.length + 1);
    });
  });
});
