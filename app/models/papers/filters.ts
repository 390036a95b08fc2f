// The /papers filters as they live in the URL (shared by the listing, its form and the bulk ZIP).
// Defaults are omitted from URLs, as on /events: `?search=…&status=…&sort=…&page=…`.

export const PAPERS_PAGE_SIZE = 12;
/** A search counts its matches exactly up to this many; beyond, the listing says '1,000+'. */
export const SEARCH_COUNT_CAP = 1000;
/** Bulk Download refuses result sets larger than this (issue #5). */
export const BULK_DOWNLOAD_LIMIT = 200;

export const PAPER_STATUS_FILTERS = ["all", "published", "draft"] as const;
export const PAPER_SORTS = ["latest", "title"] as const;
export type PaperStatusFilter = (typeof PAPER_STATUS_FILTERS)[number];
export type PaperSort = (typeof PAPER_SORTS)[number];

export type PaperFilters = {
  search: string;
  status: PaperStatusFilter;
  sort: PaperSort;
  page: number;
};

export const DEFAULT_PAPER_FILTERS: PaperFilters = {
  search: "",
  status: "all",
  sort: "latest",
  page: 1,
};

export const STATUS_FILTER_LABELS: Record<PaperStatusFilter, string> = {
  all: "All Statuses",
  published: "Published",
  draft: "Draft",
};
export const SORT_LABELS: Record<PaperSort, string> = { latest: "Latest", title: "Title" };

const MAX_SEARCH_LENGTH = 200;
const MAX_PAGE = 10_000;

function oneOf<T extends string>(values: readonly T[], value: string | null, fallback: T): T {
  return values.includes(value as T) ? (value as T) : fallback;
}

/** Reads the filters from a query string; anything unknown falls back to its default. */
export function parsePaperFilters(params: URLSearchParams): PaperFilters {
  const page = Number.parseInt(params.get("page") ?? "", 10);
  return {
    search: (params.get("search") ?? "").trim().replace(/\s+/g, " ").slice(0, MAX_SEARCH_LENGTH),
    status: oneOf(PAPER_STATUS_FILTERS, params.get("status"), "all"),
    sort: oneOf(PAPER_SORTS, params.get("sort"), "latest"),
    page: Number.isFinite(page) && page >= 1 ? Math.min(page, MAX_PAGE) : 1,
  };
}

/** The canonical query string (no leading '?'): defaults omitted, fixed parameter order. */
export function paperFiltersQuery(filters: Partial<PaperFilters>) {
  const params = new URLSearchParams();
  if (filters.search) params.set("search", filters.search);
  if (filters.status && filters.status !== "all") params.set("status", filters.status);
  if (filters.sort && filters.sort !== "latest") params.set("sort", filters.sort);
  if (filters.page && filters.page > 1) params.set("page", String(filters.page));
  return params.toString();
}

/** A /papers URL for the filters. */
export function papersHref(filters: Partial<PaperFilters>) {
  const query = paperFiltersQuery(filters);
  return query ? `/papers?${query}` : "/papers";
}

export function hasActiveFilters(filters: PaperFilters) {
  return Boolean(filters.search) || filters.status !== "all";
}
