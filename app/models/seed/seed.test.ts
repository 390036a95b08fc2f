import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { getAuth } from "~/lib/auth.server";
import { getStorage, keyFromUrl } from "~/lib/storage.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { hasMemberBenefits } from "../membership/queries.server";
import { CITY_TIME_ZONES } from "./content";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./demo-accounts";
import { seedIfEmpty } from "./seed.server";

const EVENT_TYPES = [
  "conference",
  "exhibition",
  "gala",
  "workshop",
  "seminar",
  "networking",
  "webinar",
  "vendor",
];
const REGIONS = ["Africa", "Asia", "Europe", "North America", "South America", "Oceania"];

async function tableCounts() {
  const [row] = await queryRows<Record<string, number>>(sql`
    SELECT
      (SELECT count(*)::int FROM events) AS events,
      (SELECT count(*)::int FROM event_fees) AS fees,
      (SELECT count(*)::int FROM agenda_items) AS agenda,
      (SELECT count(*)::int FROM event_speakers) AS event_speakers,
      (SELECT count(*)::int FROM event_sponsors) AS event_sponsors,
      (SELECT count(*)::int FROM event_categories) AS categories,
      (SELECT count(*)::int FROM papers) AS papers,
      (SELECT count(*)::int FROM offices) AS offices,
      (SELECT count(*)::int FROM speakers) AS speakers,
      (SELECT count(*)::int FROM sponsors) AS sponsors,
      (SELECT count(*)::int FROM "user") AS users,
      (SELECT count(*)::int FROM account) AS accounts`);
  return row;
}

describe("seedIfEmpty", () => {
  useTestDatabase();
  const now = new Date();

  // How long seeding takes is a figure for benchmarks, not a test: it failed on a busy machine.
  it("fills an empty database with varied demo content", async () => {
    const result = await seedIfEmpty({ demoAccounts: true, now });
    expect(result.content).toBe(true);
    expect(result.accountsCreated).toHaveLength(3);

    const counts = await tableCounts();
    expect(counts.events).toBeGreaterThanOrEqual(24);
    expect(counts.categories).toBeGreaterThanOrEqual(6);
    expect(counts.papers).toBeGreaterThanOrEqual(30);
    expect(counts.offices).toBeGreaterThanOrEqual(10);
    expect(counts.speakers).toBeGreaterThanOrEqual(12);

    const types = await queryRows<{ event_type: string }>(
      sql`SELECT DISTINCT event_type FROM events ORDER BY 1`,
    );
    expect(types.map((t) => t.event_type).sort()).toEqual([...EVENT_TYPES].sort());

    const [coverage] = await queryRows<Record<string, number>>(sql`
      SELECT
        count(*) FILTER (WHERE start_date < now())::int AS past,
        count(*) FILTER (WHERE start_date > now() AND status = 'published')::int AS upcoming,
        count(*) FILTER (WHERE featured AND status = 'published')::int AS featured,
        count(*) FILTER (WHERE location ILIKE '%virtual%' OR location ILIKE '%online%')::int AS virtual,
        count(*) FILTER (WHERE status = 'draft')::int AS drafts,
        count(*) FILTER (WHERE status = 'archived')::int AS archived,
        count(DISTINCT category)::int AS categories_used
      FROM events`);
    expect(coverage.past).toBeGreaterThan(0);
    expect(coverage.upcoming).toBeGreaterThanOrEqual(3);
    expect(coverage.featured).toBeGreaterThanOrEqual(4);
    expect(coverage.virtual).toBeGreaterThan(0);
    expect(coverage.drafts).toBeGreaterThan(0);
    expect(coverage.archived).toBeGreaterThan(0);
    expect(coverage.categories_used).toBeGreaterThanOrEqual(6);

    // Every event has fees, agenda items, speakers and sponsors.
    const [missing] = await queryRows<Record<string, number>>(sql`
      SELECT
        count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM event_fees f WHERE f.event_id = e.id))::int AS no_fees,
        count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM agenda_items a WHERE a.event_id = e.id))::int AS no_agenda,
        count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM event_speakers s WHERE s.event_id = e.id))::int AS no_speakers,
        count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM event_sponsors s WHERE s.event_id = e.id))::int AS no_sponsors,
        count(*) FILTER (WHERE tags IS NULL OR cardinality(tags) = 0)::int AS no_tags
      FROM events e`);
    expect(missing).toEqual({
      no_fees: 0,
      no_agenda: 0,
      no_speakers: 0,
      no_sponsors: 0,
      no_tags: 0,
    });

    // Agenda items fall within their event.
    const [outside] = await queryRows<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM agenda_items a JOIN events e ON e.id = a.event_id
      WHERE a.start_time < e.start_date OR a.end_time > e.end_date`);
    expect(outside.n).toBe(0);

    const [fees] = await queryRows<Record<string, number>>(sql`
      SELECT count(DISTINCT fee_type)::int AS types, count(DISTINCT currency)::int AS currencies,
        count(*) FILTER (WHERE max_quantity IS NOT NULL)::int AS limited,
        count(*) FILTER (WHERE available_until IS NOT NULL)::int AS dated
      FROM event_fees`);
    expect(fees.types).toBe(6);
    expect(fees.currencies).toBeGreaterThanOrEqual(3);
    expect(fees.limited).toBeGreaterThan(0);
    expect(fees.dated).toBeGreaterThan(0);

    const statuses = await queryRows<{ status: string; n: number }>(
      sql`SELECT status, count(*)::int AS n FROM papers GROUP BY status`,
    );
    const byStatus = Object.fromEntries(statuses.map((s) => [s.status, s.n]));
    for (const status of [
      "draft",
      "submitted",
      "under_review",
      "accepted",
      "rejected",
      "published",
    ]) {
      expect(byStatus[status], status).toBeGreaterThan(0);
    }
    expect(byStatus.published).toBeGreaterThan(counts.papers / 2);
    const [publishedWithoutDate] = await queryRows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM papers WHERE status = 'published' AND published_date IS NULL`,
    );
    expect(publishedWithoutDate.n).toBe(0);

    const regions = await queryRows<{ region: string }>(sql`SELECT DISTINCT region FROM offices`);
    expect(regions.map((r) => r.region).sort()).toEqual([...REGIONS].sort());
    const [hq] = await queryRows<{ city: string; country: string; phone: string; email: string }>(
      sql`SELECT city, country, phone, email FROM offices WHERE is_headquarters`,
    );
    expect(hq).toMatchObject({ city: "Nairobi", country: "Kenya" });
    expect(hq.phone).toBeTruthy();
    expect(hq.email).toContain("@");
    const [inactive] = await queryRows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM offices WHERE status = 'inactive'`,
    );
    expect(inactive.n).toBeGreaterThan(0);
    // Every office has its own hours, with its local time zone named, and its services.
    const hours = await queryRows<{
      city: string;
      opening_hours: string | null;
      services: string[];
    }>(sql`SELECT city, opening_hours, services FROM offices`);
    for (const office of hours) {
      expect(office.opening_hours, office.city).toMatch(/\d\d:\d\d–\d\d:\d\d [A-Z]{2,4}\b/);
      expect(office.services.length, office.city).toBeGreaterThan(0);
    }
    expect(new Set(hours.map((o) => o.opening_hours)).size).toBeGreaterThan(hours.length / 2);

    const tiers = await queryRows<{ tier: string }>(sql`SELECT DISTINCT tier FROM sponsors`);
    expect(tiers.map((t) => t.tier).sort()).toEqual(["bronze", "gold", "platinum", "silver"]);
  });

  it("gives events their city's time zone, locally drawn pictures, no made-up links and a programme per day", async () => {
    const events = await queryRows<{ location: string; time_zone: string }>(
      sql`SELECT location, time_zone FROM events`,
    );
    for (const e of events) {
      const city = e.location.split(",")[0].trim();
      expect(e.time_zone, e.location).toBe(CITY_TIME_ZONES[city] ?? "Africa/Nairobi");
    }
    expect(new Set(events.map((e) => e.time_zone)).size).toBeGreaterThanOrEqual(4);

    // Pictures are drawn at seed time and stored here, not fetched from elsewhere.
    const pictures = await queryRows<{ url: string }>(sql`
      SELECT image_url AS url FROM events WHERE image_url IS NOT NULL
      UNION ALL SELECT image_url FROM speakers WHERE image_url IS NOT NULL
      UNION ALL SELECT logo_url FROM sponsors WHERE logo_url IS NOT NULL`);
    expect(pictures.length).toBeGreaterThanOrEqual(30);
    for (const { url } of pictures.slice(0, 12)) {
      expect(url, url).toMatch(/^\/uploads\//);
      const stored = await getStorage().get(keyFromUrl(url)!);
      expect(stored?.contentType, url).toMatch(/^image\//);
    }

    // No sponsor links to sites that are not theirs.
    const [links] = await queryRows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM sponsors WHERE website_url IS NOT NULL`,
    );
    expect(links.n).toBe(0);

    // A multi-day event does not repeat its first day's programme on the other days.
    const days = await queryRows<{ event_id: string; day: string; titles: string }>(sql`
      SELECT a.event_id, (a.start_time AT TIME ZONE e.time_zone)::date::text AS day,
             string_agg(a.title, '|' ORDER BY a.title) AS titles
      FROM agenda_items a JOIN events e ON e.id = a.event_id
      GROUP BY a.event_id, day`);
    const byEvent = new Map<string, string[]>();
    for (const d of days) byEvent.set(d.event_id, [...(byEvent.get(d.event_id) ?? []), d.titles]);
    const multiDay = [...byEvent.values()].filter((programmes) => programmes.length > 1);
    expect(multiDay.length).toBeGreaterThan(0);
    for (const programmes of multiDay) {
      expect(new Set(programmes).size).toBe(programmes.length);
    }
  });

  it("stores valid PDFs for some papers", async () => {
    const rows = await queryRows<{ title: string; pdf_url: string }>(
      sql`SELECT title, pdf_url FROM papers WHERE pdf_url IS NOT NULL`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const key = keyFromUrl(row.pdf_url);
      expect(key, row.pdf_url).toBeTruthy();
      const stored = await getStorage().get(key!);
      expect(stored?.contentType).toBe("application/pdf");
      const bytes = Buffer.from(await new Response(stored!.body).arrayBuffer());
      const text = bytes.toString("latin1");
      expect(text.startsWith("%PDF-1.4")).toBe(true);
      expect(text.trimEnd().endsWith("%%EOF")).toBe(true);
      // The cross-reference table points at the real object offsets.
      const xrefAt = Number(/startxref\n(\d+)/.exec(text)![1]);
      expect(text.slice(xrefAt, xrefAt + 4)).toBe("xref");
      const offsets = [...text.slice(xrefAt).matchAll(/(\d{10}) 00000 n/g)].map((m) =>
        Number(m[1]),
      );
      offsets.forEach((offset, i) => {
        const header = `${i + 1} 0 obj`;
        expect(text.slice(offset, offset + header.length)).toBe(header);
      });
      expect(text).toContain(row.title.slice(0, 20).replace(/[()]/g, ""));
    }
  });

  it("changes nothing when run again", async () => {
    const before = await tableCounts();
    const result = await seedIfEmpty({ demoAccounts: true });
    expect(result).toEqual({ content: false, accountsCreated: [] });
    expect(await tableCounts()).toEqual(before);
  });

  it("makes the demo member an active member with member benefits, once", async () => {
    const member = DEMO_ACCOUNTS.find((a) => a.email === "member@kongamano.org");
    const rows = await queryRows<{ user_id: string; state: string; plan: string; terms: number }>(
      sql`SELECT m.user_id, m.state, m.plan,
            (SELECT count(*)::int FROM membership_terms t
              WHERE t.membership_id = m.id AND t.activated_at IS NOT NULL) AS terms
          FROM memberships m JOIN "user" u ON u.id = m.user_id WHERE u.email = ${member?.email}`,
    );
    expect(rows).toEqual([
      { user_id: expect.any(String), state: "active", plan: "professional", terms: 1 },
    ]);
    expect(await hasMemberBenefits(rows[0].user_id)).toBe(true);
    await seedIfEmpty({ demoAccounts: true });
    const again = await queryRows<{ n: number }>(sql`SELECT count(*)::int AS n FROM memberships`);
    expect(again).toEqual([{ n: 1 }]);
  });

  it("creates demo accounts that can sign in with their role", async () => {
    for (const demo of DEMO_ACCOUNTS) {
      const result = await getAuth().api.signInEmail({
        body: { email: demo.email, password: DEMO_PASSWORD },
      });
      expect(result.user.email).toBe(demo.email);
      const [row] = await queryRows<{ role: string; email_verified: boolean }>(
        sql`SELECT role, email_verified FROM "user" WHERE email = ${demo.email}`,
      );
      expect(row).toEqual({ role: demo.role, email_verified: true });
    }
    await expect(
      getAuth().api.signInEmail({
        body: { email: DEMO_ACCOUNTS[0].email, password: "wrong-password" },
      }),
    ).rejects.toThrow();
  });
});
