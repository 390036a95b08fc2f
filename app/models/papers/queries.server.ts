import { type AnyColumn, and, asc, count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { alphabetical, newestFirst } from "~/db/order";
import { papers } from "~/db/schema";
import { hasRole } from "~/lib/roles";
import { PAPERS_PAGE_SIZE, type PaperFilters, SEARCH_COUNT_CAP } from "~/models/papers/filters";
import { contentMemo } from "~/models/shared/content-memo.server";

export {
  BULK_DOWNLOAD_LIMIT,
  PAPERS_PAGE_SIZE,
  SEARCH_COUNT_CAP,
} from "~/models/papers/filters";

// Public paper queries. Visibility is decided here, in SQL: visitors and members only ever receive
// published papers; editors and admins (`canSeeAll`) also receive every other status.

const CARD_ABSTRACT_CHARS = 320;

export type PaperViewer = { canSeeAll: boolean };

/** Editors and admins see unpublished papers too; everybody else only published ones. */
export function paperViewer(user: { role: string } | null): PaperViewer {
  return { canSeeAll: Boolean(user && hasRole(user.role, "editor")) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(value: string) {
  return UUID.test(value);
}

/** `LIKE` pattern for a substring search: the term's own % _ and \ match literally. */
export function likePattern(term: string) {
  return `%${term.replace(/[\\%_]/g, "\\$&")}%`;
}

/** One or two letters or digits: searched as a word prefix (see searchMatches). */
const SHORT_TERM = /^[\p{L}\p{N}]{1,2}$/u;

/**
 * Search on title, authors, tags and abstract (spec §5) in the stored, lower-cased `search_text`
 * column (drizzle/0003). Terms of 3+ characters are substrings (`LIKE`, trigram index
 * papers_search_text_trgm_idx). Trigrams cannot serve 1–2 characters, which would scan every row
 * (and match inside any word: 'ai' in 'maintain'): those match the start of a word instead
 * ('ai' → AI, aid, aims), through the full-text index papers_search_text_fts_idx.
 */
export function searchMatches(term: string, column: AnyColumn | SQL = papers.searchText): SQL {
  if (isShortTerm(term)) {
    return sql`to_tsvector('simple', ${column}) @@ to_tsquery('simple', ${`${term.toLowerCase()}:*`})`;
  }
  return sql`${column} LIKE lower(${likePattern(term)})`;
}

function isShortTerm(term: string) {
  return SHORT_TERM.test(term);
}

function visibleTo(viewer: PaperViewer): SQL | undefined {
  return viewer.canSeeAll ? undefined : eq(papers.status, "published");
}

function filtersWhere(filters: Pick<PaperFilters, "search" | "status">, viewer: PaperViewer) {
  return and(
    visibleTo(viewer),
    filters.status === "all" ? undefined : eq(papers.status, filters.status),
    filters.search ? searchMatches(filters.search) : undefined,
  );
}

// 'nulls last' matches the created_at indexes (DESC NULLS LAST), so 'Latest' reads them in order.
function filtersOrder(sort: PaperFilters["sort"]) {
  return sort === "title"
    ? [alphabetical(papers.title), asc(papers.title), asc(papers.id)]
    : [newestFirst(papers.createdAt), asc(papers.id)];
}

const cardColumns = {
  id: papers.id,
  slug: papers.slug,
  title: papers.title,
  authors: papers.authors,
  abstract: sql<string | null>`left(${papers.abstract}, ${CARD_ABSTRACT_CHARS})`.as("abstract"),
  tags: papers.tags,
  status: papers.status,
  publishedDate: papers.publishedDate,
  hasPdf: sql<boolean>`(${papers.pdfUrl} is not null and ${papers.pdfUrl} <> '')`.as("has_pdf"),
  downloadCount: papers.downloadCount,
};

/**
 * One page of the listing and the number of papers matching the filters (`capped` when a search
 * matched more than SEARCH_COUNT_CAP: `total` is then SEARCH_COUNT_CAP + 1).
 */
export async function listPapers(filters: PaperFilters, viewer: PaperViewer) {
  const where = filtersWhere(filters, viewer);
  const order = filtersOrder(filters.sort);
  const offset = (filters.page - 1) * PAPERS_PAGE_SIZE;
  const result = <Row>(rows: Row[], total: number, capped = false) => ({
    papers: rows,
    total,
    capped,
    pageCount: Math.max(1, Math.ceil(Math.min(total, SEARCH_COUNT_CAP) / PAPERS_PAGE_SIZE)),
  });

  if (!filters.search) {
    // Status filters alone: index-ordered page and an index-only count.
    const db = getDb();
    const [rows, [{ total }]] = await Promise.all([
      db
        .select(cardColumns)
        .from(papers)
        .where(where)
        .orderBy(...order)
        .limit(PAPERS_PAGE_SIZE)
        .offset(offset),
      db.select({ total: count() }).from(papers).where(where),
    ]);
    return result(rows, total);
  }

  // A search. The right plan depends on how many papers match, which the planner guesses badly
  // for text patterns, so we find out first: count through the search index, stopping past the
  // cap (with sequential scans allowed, the planner often reads most of the table for `LIMIT`).
  // Few matches: fetch them all through the search index, then sort (at most 1,000 rows). Many:
  // they are dense, so the first rows in date/title order hold a full page, unless the term
  // clusters elsewhere in that order ('open' among titles); then the few-matches plan runs anyway.
  return getDb().transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const matching = tx
      .select({ one: sql`1` })
      .from(papers)
      .where(where)
      .limit(SEARCH_COUNT_CAP + 1)
      .as("matching");
    const [{ total }] = await tx.select({ total: count() }).from(matching);
    const common = total > SEARCH_COUNT_CAP;
    const pageArgs = { sort: filters.sort, offset };
    if (common && !isShortTerm(filters.search)) {
      const window = Math.max(2_000, (offset + PAPERS_PAGE_SIZE) * 40);
      const scope = filtersWhere({ ...filters, search: "" }, viewer);
      const rows = await sortedPage(tx, scope, window, pageArgs, filters.search);
      if (rows.length === PAPERS_PAGE_SIZE) return result(rows, total, true);
    }
    // The LIMIT drops nothing (it is above the count); it keeps the subquery from being merged
    // into the outer query, so the matches come from the search index before the sort.
    const rows = await sortedPage(
      tx,
      where,
      common ? 1_000_000_000 : SEARCH_COUNT_CAP + 1,
      pageArgs,
    );
    return result(rows, total, common);
  });
}

type Tx = Parameters<Parameters<ReturnType<typeof getDb>["transaction"]>[0]>[0];

/**
 * A page of the first `limit` papers matching `where` (in no particular order), sorted; with
 * `search`, the page of those among the first `limit` papers in the sort order that match it.
 */
async function sortedPage(
  tx: Tx,
  where: SQL | undefined,
  limit: number,
  { sort, offset }: { sort: PaperFilters["sort"]; offset: number },
  search?: string,
) {
  const inner = tx
    .select({ ...cardColumns, createdAt: papers.createdAt, searchText: papers.searchText })
    .from(papers)
    .where(where);
  const rows = (search ? inner.orderBy(...filtersOrder(sort)) : inner).limit(limit).as("rows");
  return tx
    .select({
      id: rows.id,
      slug: rows.slug,
      title: rows.title,
      authors: rows.authors,
      abstract: rows.abstract,
      tags: rows.tags,
      status: rows.status,
      publishedDate: rows.publishedDate,
      hasPdf: rows.hasPdf,
      downloadCount: rows.downloadCount,
    })
    .from(rows)
    .where(search ? searchMatches(search, rows.searchText) : undefined)
    .orderBy(
      ...(sort === "title"
        ? [alphabetical(rows.title), asc(rows.title), asc(rows.id)]
        : [sql`${rows.createdAt} desc nulls last`, asc(rows.id)]),
    )
    .limit(PAPERS_PAGE_SIZE)
    .offset(offset);
}
export type PaperCardData = Awaited<ReturnType<typeof listPapers>>["papers"][number];

const paperCounts = contentMemo<{ total: number; published: number; inProgress: number }>();

/**
 * Library-wide counts (spec §2.6: total, published, in progress = draft). Numbers only; statuses
 * change through the back office only, so they are kept per content version (decision 0091).
 */
export function countPapers() {
  return paperCounts("all", readPaperCounts);
}

async function readPaperCounts() {
  const [row] = await getDb()
    .select({
      total: count(),
      published: sql<number>`count(*) filter (where ${papers.status} = 'published')`.mapWith(
        Number,
      ),
      inProgress: sql<number>`count(*) filter (where ${papers.status} = 'draft')`.mapWith(Number),
    })
    .from(papers);
  return row;
}

const detailColumns = {
  id: papers.id,
  slug: papers.slug,
  title: papers.title,
  abstract: papers.abstract,
  authors: papers.authors,
  category: papers.category,
  tags: papers.tags,
  pdfUrl: papers.pdfUrl,
  status: papers.status,
  publishedDate: papers.publishedDate,
  downloadCount: papers.downloadCount,
  createdAt: papers.createdAt,
  updatedAt: papers.updatedAt,
};

/** A paper the viewer may see, by slug (or by id, for old links); null otherwise. */
export async function findVisiblePaper(slugOrId: string, viewer: PaperViewer) {
  const match = isUuid(slugOrId)
    ? sql`(${papers.id} = ${slugOrId.toLowerCase()} or ${papers.slug} = ${slugOrId})`
    : eq(papers.slug, slugOrId);
  const [paper] = await getDb()
    .select(detailColumns)
    .from(papers)
    .where(and(match, visibleTo(viewer)))
    .limit(1);
  return paper ?? null;
}
export type PaperDetail = NonNullable<Awaited<ReturnType<typeof findVisiblePaper>>>;

function textArray(values: string[]) {
  return values.length
    ? sql`ARRAY[${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )}]::text[]`
    : sql`ARRAY[]::text[]`;
}

/**
 * Papers sharing tags or the category with `paper`, best matches first: one point per shared tag,
 * one for the same category; ties go to the newest.
 */
export async function listSimilarPapers(
  paper: Pick<PaperDetail, "id" | "tags" | "category">,
  viewer: PaperViewer,
  limit = 4,
) {
  const tags = textArray(paper.tags ?? []);
  const sameCategory = paper.category ? sql`${papers.category} = ${paper.category}` : sql`false`;
  const score = sql<number>`((select count(*) from unnest(${papers.tags}) as t(tag) where t.tag = any(${tags})) + (case when ${sameCategory} then 1 else 0 end))`;
  return getDb()
    .select({
      id: papers.id,
      slug: papers.slug,
      title: papers.title,
      authors: papers.authors,
      status: papers.status,
      publishedDate: papers.publishedDate,
      sharedTags: sql<
        string[]
      >`array(select unnest(${papers.tags}) intersect select unnest(${tags}))`,
      score: score.mapWith(Number),
    })
    .from(papers)
    .where(
      and(
        sql`${papers.id} <> ${paper.id}`,
        visibleTo(viewer),
        sql`(${papers.tags} && ${tags} or ${sameCategory})`,
      ),
    )
    .orderBy(desc(score), desc(papers.createdAt))
    .limit(limit);
}
export type SimilarPaper = Awaited<ReturnType<typeof listSimilarPapers>>[number];

/** The whole result set of the filters (up to `limit`) with what citations and the ZIP need. */
export async function listPapersForExport(
  filters: Pick<PaperFilters, "search" | "status" | "sort">,
  viewer: PaperViewer,
  limit: number,
) {
  return getDb()
    .select({
      id: papers.id,
      slug: papers.slug,
      title: papers.title,
      authors: papers.authors,
      abstract: papers.abstract,
      tags: papers.tags,
      category: papers.category,
      pdfUrl: papers.pdfUrl,
      publishedDate: papers.publishedDate,
    })
    .from(papers)
    .where(filtersWhere(filters, viewer))
    .orderBy(...filtersOrder(filters.sort))
    .limit(limit);
}

/** The newest published papers (RSS). */
export async function listLatestPublishedPapers(limit = 20) {
  return getDb()
    .select({
      slug: papers.slug,
      title: papers.title,
      authors: papers.authors,
      abstract: papers.abstract,
      tags: papers.tags,
      category: papers.category,
      publishedDate: papers.publishedDate,
      createdAt: papers.createdAt,
    })
    .from(papers)
    .where(eq(papers.status, "published"))
    .orderBy(newestFirst(papers.createdAt), asc(papers.id))
    .limit(limit);
}

/**
 * Counts one download, atomically in SQL (concurrent downloads never lose an increment).
 * `updated_at` is left alone: a download is not an edit of the paper.
 */
export async function recordPaperDownload(id: string) {
  await getDb().execute(
    sql`update ${papers} set download_count = download_count + 1 where ${papers.id} = ${id}`,
  );
}

/** Counts one download for each paper (bulk ZIP). */
export async function recordPaperDownloads(ids: string[]) {
  if (ids.length === 0) return;
  await getDb().execute(
    sql`update ${papers} set download_count = download_count + 1 where ${inArray(papers.id, ids)}`,
  );
}

/** A paper as the citation writers want it: absolute page and PDF URLs (PDF through our route). */
export function citablePaper<
  T extends { slug: string; title: string; authors: string[]; publishedDate: string | null },
>(paper: T & { pdfUrl: string | null }, origin: string) {
  const url = `${origin}/papers/${paper.slug}`;
  return { ...paper, url, pdfUrl: paper.pdfUrl ? `${url}/pdf` : null };
}
