// XML documents of the public site: the events RSS feed, the sitemap and robots.txt.
import { ORGANISATION_NAME } from "~/lib/constants";
import { formatDateRange } from "~/lib/format";
import { escapeXml } from "~/lib/xml";
import type { SitemapEntry } from "~/models/events/queries.server";

export type RssEvent = {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  theme: string | null;
  location: string;
  startDate: Date;
  endDate: Date;
  timeZone?: string;
  eventType: string;
  category: string | null;
  createdAt: Date;
};

/** RSS 2.0 feed of events (newest first as given). */
export function buildEventsRss(list: RssEvent[], { origin }: { origin: string }) {
  const lastBuild = list.reduce<Date | null>(
    (latest, e) => (!latest || e.createdAt > latest ? e.createdAt : latest),
    null,
  );
  const items = list.map((event) => {
    const link = `${origin}/events/${encodeURIComponent(event.slug)}`;
    const summary = [
      `${formatDateRange(event.startDate, event.endDate, event.timeZone)} · ${event.location}`,
      event.theme,
      event.description,
    ]
      .filter(Boolean)
      .join("\n\n");
    return [
      "    <item>",
      `      <title>${escapeXml(event.title)}</title>`,
      `      <link>${escapeXml(link)}</link>`,
      `      <guid isPermaLink="false">${escapeXml(`event-${event.id}`)}</guid>`,
      `      <pubDate>${event.createdAt.toUTCString()}</pubDate>`,
      `      <description>${escapeXml(summary)}</description>`,
      `      <category>${escapeXml(event.eventType)}</category>`,
      ...(event.category ? [`      <category>${escapeXml(event.category)}</category>`] : []),
      "    </item>",
    ].join("\n");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    "  <channel>",
    `    <title>${escapeXml(`${ORGANISATION_NAME} Events`)}</title>`,
    `    <link>${escapeXml(`${origin}/events`)}</link>`,
    `    <description>${escapeXml("Conferences, exhibitions, galas and workshops of the Kongamano network for information-management professionals.")}</description>`,
    "    <language>en</language>",
    ...(lastBuild ? [`    <lastBuildDate>${lastBuild.toUTCString()}</lastBuildDate>`] : []),
    `    <atom:link href="${escapeXml(`${origin}/events/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}

/** Public pages that are not generated from content. */
export const STATIC_SITEMAP_PATHS = [
  "/",
  "/events",
  "/papers",
  "/membership",
  "/about",
  "/offices",
  "/contact",
  "/advertising",
  "/privacy",
  "/terms",
  "/accessibility",
];

/** The sitemap protocol's cap on URLs per file. */
export const SITEMAP_MAX_URLS = 50_000;

/** A `<urlset>` of the given paths. */
export function buildUrlset(entries: Array<{ path: string; lastModified?: Date }>, origin: string) {
  const urls = entries.map(
    (e) =>
      `  <url><loc>${escapeXml(`${origin}${e.path}`)}</loc>${
        e.lastModified ? `<lastmod>${e.lastModified.toISOString()}</lastmod>` : ""
      }</url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

/** A `<sitemapindex>` pointing at `/sitemap.xml?page=1..n`. */
export function buildSitemapIndex(pages: number, origin: string) {
  const items = Array.from(
    { length: pages },
    (_, i) => `  <sitemap><loc>${escapeXml(`${origin}/sitemap.xml?page=${i + 1}`)}</loc></sitemap>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...items,
    "</sitemapindex>",
    "",
  ].join("\n");
}

/**
 * The sitemap for a request: one `<urlset>` when everything fits in one file; beyond 50,000 URLs
 * an index, and `?page=n` answers the n-th slice. Returns null for a page that does not exist.
 */
export function buildSitemap(
  content: SitemapEntry[],
  { origin, page }: { origin: string; page: number | null },
): string | null {
  const all = [...STATIC_SITEMAP_PATHS.map((path) => ({ path })), ...content];
  const pages = Math.ceil(all.length / SITEMAP_MAX_URLS);
  if (page === null) {
    return pages <= 1 ? buildUrlset(all, origin) : buildSitemapIndex(pages, origin);
  }
  if (page < 1 || page > pages) return null;
  return buildUrlset(all.slice((page - 1) * SITEMAP_MAX_URLS, page * SITEMAP_MAX_URLS), origin);
}

/** robots.txt: the back office, accounts and API are off limits; the sitemap is announced. */
export function buildRobotsTxt(origin: string) {
  return [
    "User-agent: *",
    "Disallow: /admin",
    "Disallow: /profile",
    "Disallow: /api",
    "Allow: /",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}
