// Home page queries (spec §2.3, §9): featured events, latest papers, a few offices.
import { asc, desc, eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { newestFirst } from "~/db/order";
import { offices, papers } from "~/db/schema";
import { formatDate } from "~/lib/format";
import { listFeaturedEvents } from "../events/queries.server";
import { contentMemo } from "../shared/content-memo.server";

export const HOME_FEATURED_EVENTS = 3;
export const HOME_LATEST_PAPERS = 3;
export const HOME_OFFICES = 4;

/** The newest published papers (public list order: created_at descending). */
export async function listLatestPublishedPapers(limit = HOME_LATEST_PAPERS) {
  const rows = await getDb()
    .select({
      id: papers.id,
      slug: papers.slug,
      title: papers.title,
      authors: papers.authors,
      abstract: sql<string | null>`left(${papers.abstract}, 240)`,
      publishedDate: papers.publishedDate,
      category: papers.category,
    })
    .from(papers)
    .where(eq(papers.status, "published"))
    .orderBy(newestFirst(papers.createdAt), asc(papers.id))
    .limit(limit);
  return rows.map((paper) => ({
    ...paper,
    publishedLabel: paper.publishedDate ? formatDate(paper.publishedDate) : null,
  }));
}

/**
 * Active offices, head office first. Public projection only (region, city, country): the home
 * page is the same for everyone, so it never carries addresses, e-mails or phone numbers.
 */
export async function listHomeOffices(limit = HOME_OFFICES) {
  return getDb()
    .select({
      id: offices.id,
      region: offices.region,
      city: offices.city,
      country: offices.country,
    })
    .from(offices)
    .where(eq(offices.status, "active"))
    .orderBy(desc(offices.isHeadquarters), asc(offices.region), asc(offices.city), asc(offices.id))
    .limit(limit);
}

async function readHomeContent() {
  const [featuredEvents, latestPapers, officeList] = await Promise.all([
    listFeaturedEvents(HOME_FEATURED_EVENTS),
    listLatestPublishedPapers(HOME_LATEST_PAPERS),
    listHomeOffices(HOME_OFFICES),
  ]);
  return { featuredEvents, latestPapers, offices: officeList };
}

// Everything on the home page changes through the back office only, except that a featured event
// that ends moves behind the others (and shows as past): the content is kept until the content
// changes or the first of its featured events ends (decision 0091).
const homeContent = contentMemo<Awaited<ReturnType<typeof readHomeContent>>>();

/** The home page's featured events, latest papers and offices (shared: read, never change). */
export function getHomeContent() {
  return homeContent("home", readHomeContent, {
    until: ({ featuredEvents }) => {
      const now = Date.now();
      const ends = featuredEvents.map((e) => e.endDate.getTime()).filter((end) => end > now);
      return Math.min(...ends); // Infinity without one still to end
    },
  });
}
