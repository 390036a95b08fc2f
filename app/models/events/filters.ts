// The /events query string (spec §2.1, §2.4), shared by the loader, the page and the feeds.
// Canonical form: defaults ('all', 'date', page 1, empty search) are omitted from the URL.

export const EVENT_SORTS = ["date", "title", "location"] as const;
export type EventSort = (typeof EVENT_SORTS)[number];
export const EVENT_SORT_LABELS: Record<EventSort, string> = {
  date: "Date",
  title: "Title",
  location: "Location",
};

export const EVENTS_PAGE_SIZE = 12;
/** A search counts its matches exactly up to this many; beyond, the listing says '1,000+'. */
export const EVENT_SEARCH_COUNT_CAP = 1000;
const MAX_SEARCH_LENGTH = 100;

export type EventFilters = {
  /** Trimmed search text; '' when none. */
  search: string;
  /** Event type name, or 'all'. */
  type: string;
  /** Category name, or 'all'. */
  category: string;
  sort: EventSort;
  /** `filter=upcoming`: start later than now. */
  upcoming: boolean;
  /** `filter=featured`. */
  featured: boolean;
  /** `format=virtual`: location mentions 'virtual' or 'online'. */
  virtual: boolean;
};

export const DEFAULT_EVENT_FILTERS: EventFilters = {
  search: "",
  type: "all",
  category: "all",
  sort: "date",
  upcoming: false,
  featured: false,
  virtual: false,
};

function namedValue(value: string | null) {
  const trimmed = value?.trim() ?? "";
  return trimmed === "" || trimmed.toLowerCase() === "all" ? "all" : trimmed.slice(0, 100);
}

export function parseEventFilters(params: URLSearchParams): EventFilters {
  const sort = params.get("sort") as EventSort | null;
  const flags = params.getAll("filter").map((v) => v.trim().toLowerCase());
  return {
    search: (params.get("search") ?? "").trim().slice(0, MAX_SEARCH_LENGTH),
    type: namedValue(params.get("type")),
    category: namedValue(params.get("category")),
    sort: sort && EVENT_SORTS.includes(sort) ? sort : "date",
    upcoming: flags.includes("upcoming"),
    featured: flags.includes("featured"),
    virtual: params.get("format")?.trim().toLowerCase() === "virtual",
  };
}

/** 1-based page number from `page=`; anything invalid is page 1. */
export function parsePage(params: URLSearchParams) {
  const page = Number(params.get("page"));
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

/** The canonical query string of a filter set (no leading '?'). */
export function eventFiltersQuery(filters: EventFilters, page = 1) {
  const params = new URLSearchParams();
  if (filters.search) params.set("search", filters.search);
  if (filters.type !== "all") params.set("type", filters.type);
  if (filters.category !== "all") params.set("category", filters.category);
  if (filters.sort !== "date") params.set("sort", filters.sort);
  if (filters.upcoming) params.append("filter", "upcoming");
  if (filters.featured) params.append("filter", "featured");
  if (filters.virtual) params.set("format", "virtual");
  if (page > 1) params.set("page", String(page));
  return params.toString();
}

/** `/events` or `/events?…` for a filter set. */
export function eventsHref(filters: EventFilters, page = 1) {
  const query = eventFiltersQuery(filters, page);
  return query ? `/events?${query}` : "/events";
}

/** True when anything narrows the list (the sort order alone does not). */
export function hasActiveFilters(filters: EventFilters) {
  return (
    filters.search !== "" ||
    filters.type !== "all" ||
    filters.category !== "all" ||
    filters.upcoming ||
    filters.featured ||
    filters.virtual
  );
}

export function capitalise(name: string) {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export type FilterChip = { key: string; label: string; href: string };

/** One removable chip per active filter; each chip's link drops only that filter. */
export function activeFilterChips(filters: EventFilters): FilterChip[] {
  const chips: FilterChip[] = [];
  const without = (change: Partial<EventFilters>) => eventsHref({ ...filters, ...change });
  if (filters.search)
    chips.push({
      key: "search",
      label: `Search: "${filters.search}"`,
      href: without({ search: "" }),
    });
  if (filters.type !== "all")
    chips.push({
      key: "type",
      label: `Type: ${capitalise(filters.type)}`,
      href: without({ type: "all" }),
    });
  if (filters.category !== "all")
    chips.push({
      key: "category",
      label: `Category: ${filters.category}`,
      href: without({ category: "all" }),
    });
  if (filters.upcoming)
    chips.push({ key: "upcoming", label: "Upcoming", href: without({ upcoming: false }) });
  if (filters.featured)
    chips.push({ key: "featured", label: "Featured", href: without({ featured: false }) });
  if (filters.virtual)
    chips.push({ key: "virtual", label: "Virtual Events", href: without({ virtual: false }) });
  return chips;
}

/** 'N Event(s) Found' with the number agreeing: '1 Event Found', '0 Events Found'. */
export function eventsFoundLabel(count: number, capped = false) {
  if (capped) return `${count.toLocaleString("en-US")}+ Events Found`;
  return `${count.toLocaleString("en-US")} ${count === 1 ? "Event" : "Events"} Found`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for an event id (old links used `/events/{id}`). */
export function isUuid(value: string) {
  return UUID.test(value);
}

/**
 * False when the query carries values the canonical form leaves out ('type=all', 'sort=date',
 * an empty search, 'page=1', padding): what the no-JavaScript form submits. The loader redirects
 * those to `eventsHref(...)`, which is always canonical (so there is never a loop).
 */
export function isCanonicalEventsQuery(params: URLSearchParams) {
  for (const [key, value] of params) {
    const trimmed = value.trim();
    if ((key === "search" || key === "type" || key === "category") && trimmed !== value)
      return false;
    if (key === "search" && trimmed === "") return false;
    if (
      (key === "type" || key === "category") &&
      (trimmed === "" || trimmed.toLowerCase() === "all")
    )
      return false;
    if (key === "sort" && !(EVENT_SORTS as readonly string[]).includes(value)) return false;
    if (key === "sort" && value === "date") return false;
    if (key === "page" && value === "1") return false;
  }
  return true;
}

/**
 * A calendar feed's name after its filters: 'Kongamano — Conference · Data Governance'; the
 * plain 'Kongamano Events' without any.
 */
export function calendarName(filters: EventFilters, organisation = "Kongamano") {
  const words = (name: string) =>
    name
      .split(/[_\s]+/)
      .map(capitalise)
      .join(" ");
  const parts = [
    filters.type !== "all" ? words(filters.type) : null,
    filters.category !== "all" ? filters.category : null,
    filters.upcoming ? "Upcoming" : null,
    filters.featured ? "Featured" : null,
    filters.virtual ? "Virtual" : null,
    filters.search ? `“${filters.search}”` : null,
  ].filter(Boolean);
  return parts.length ? `${organisation} — ${parts.join(" · ")}` : `${organisation} Events`;
}
