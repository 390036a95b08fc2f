import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { escapeXml } from "~/lib/xml";
import {
  buildEventsRss,
  buildRobotsTxt,
  buildSitemap,
  type RssEvent,
  SITEMAP_MAX_URLS,
  STATIC_SITEMAP_PATHS,
} from "./feeds.server";

const event: RssEvent = {
  id: "6f1c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f",
  slug: "r-d-summit",
  title: 'R&D <Summit> "2027"',
  description: "Talks & workshops\u0007 for <everyone>.",
  theme: "Data & trust",
  location: "Nairobi, Kenya",
  startDate: new Date("2027-03-01T06:00:00Z"),
  endDate: new Date("2027-03-01T15:00:00Z"),
  eventType: "conference",
  category: "Data Governance",
  createdAt: new Date("2026-05-04T10:00:00Z"),
};

const parser = new XMLParser({ ignoreAttributes: false });

describe("escapeXml", () => {
  it("escapes markup and drops characters XML forbids", () => {
    expect(escapeXml(`<a href="x">&'\u0000</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;",
    );
  });
});

describe("buildEventsRss", () => {
  it("is well-formed RSS 2.0 whose items carry the events' text unchanged", () => {
    const xml = buildEventsRss([event], { origin: "https://k.example" });
    expect(XMLValidator.validate(xml)).toBe(true);
    const rss = parser.parse(xml).rss;
    expect(rss["@_version"]).toBe("2.0");
    expect(rss.channel.title).toBe("Kongamano Events");
    expect(rss.channel["atom:link"]["@_href"]).toBe("https://k.example/events/rss.xml");
    const item = rss.channel.item;
    expect(item.title).toBe('R&D <Summit> "2027"');
    expect(item.link).toBe("https://k.example/events/r-d-summit");
    expect(item.guid["#text"]).toBe(`event-${event.id}`);
    expect(item.guid["@_isPermaLink"]).toBe("false");
    expect(item.description).toContain("Mar 1, 2027 · Nairobi, Kenya");
    expect(item.description).toContain("Talks & workshops for <everyone>.");
    expect(new Date(item.pubDate).toISOString()).toBe("2026-05-04T10:00:00.000Z");
  });

  it("is valid with no events", () => {
    const xml = buildEventsRss([], { origin: "https://k.example" });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parser.parse(xml).rss.channel.item).toBeUndefined();
  });
});

describe("buildSitemap", () => {
  const entry = (i: number) => ({
    path: `/events/e-${i}?x=1&y=2`,
    lastModified: new Date("2026-01-01T00:00:00Z"),
  });

  it("lists the static pages and every entry in one urlset, escaped", () => {
    const xml = buildSitemap([entry(1)], { origin: "https://k.example", page: null })!;
    expect(XMLValidator.validate(xml)).toBe(true);
    const urls = parser.parse(xml).urlset.url as Array<{ loc: string; lastmod?: string }>;
    expect(urls.map((u) => u.loc)).toEqual([
      ...STATIC_SITEMAP_PATHS.map((p) => `https://k.example${p}`),
      "https://k.example/events/e-1?x=1&y=2",
    ]);
    expect(urls.at(-1)?.lastmod).toBe("2026-01-01T00:00:00.000Z");
  });

  it("becomes an index of 50,000-URL slices beyond the protocol's limit", () => {
    const many = Array.from({ length: SITEMAP_MAX_URLS + 5 }, (_, i) => entry(i));
    const index = buildSitemap(many, { origin: "https://k.example", page: null })!;
    expect(XMLValidator.validate(index)).toBe(true);
    const locs = parser.parse(index).sitemapindex.sitemap.map((s: { loc: string }) => s.loc);
    expect(locs).toEqual([
      "https://k.example/sitemap.xml?page=1",
      "https://k.example/sitemap.xml?page=2",
    ]);
    const second = parser.parse(buildSitemap(many, { origin: "https://k.example", page: 2 })!);
    expect(second.urlset.url).toHaveLength(STATIC_SITEMAP_PATHS.length + 5);
    expect(buildSitemap(many, { origin: "https://k.example", page: 3 })).toBeNull();
  });
});

describe("buildRobotsTxt", () => {
  it("keeps crawlers out of the back office, accounts and API, and names the sitemap", () => {
    const txt = buildRobotsTxt("https://k.example");
    expect(txt).toMatch(/^User-agent: \*$/m);
    for (const path of ["/admin", "/profile", "/api"]) expect(txt).toContain(`Disallow: ${path}\n`);
    expect(txt).toContain("Sitemap: https://k.example/sitemap.xml");
  });
});
