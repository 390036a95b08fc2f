import { describe, expect, it } from "vitest";
import {
  activeFilterChips,
  calendarName,
  DEFAULT_EVENT_FILTERS,
  eventFiltersQuery,
  eventsFoundLabel,
  eventsHref,
  hasActiveFilters,
  isCanonicalEventsQuery,
  isUuid,
  parseEventFilters,
  parsePage,
} from "./filters";

const parse = (query: string) => parseEventFilters(new URLSearchParams(query));

describe("event filters in the URL", () => {
  it("reads every parameter the site's links use", () => {
    expect(
      parse("search=%20data%20&type=conference&category=AI%20%26%20Analytics&sort=title"),
    ).toEqual({
      ...DEFAULT_EVENT_FILTERS,
      search: "data",
      type: "conference",
      category: "AI & Analytics",
      sort: "title",
    });
    expect(parse("filter=upcoming")).toMatchObject({ upcoming: true, featured: false });
    expect(parse("filter=featured")).toMatchObject({ upcoming: false, featured: true });
    expect(parse("format=virtual").virtual).toBe(true);
  });

  it("falls back to the defaults for missing or unknown values", () => {
    expect(parse("")).toEqual(DEFAULT_EVENT_FILTERS);
    expect(parse("type=all&category=&sort=popularity&format=hybrid&filter=past")).toEqual(
      DEFAULT_EVENT_FILTERS,
    );
    expect(parse(`search=${"x".repeat(500)}`).search).toHaveLength(100);
  });

  it("omits 'all', 'date', page 1 and an empty search from the URL", () => {
    expect(eventsHref(DEFAULT_EVENT_FILTERS)).toBe("/events");
    expect(eventsHref({ ...DEFAULT_EVENT_FILTERS, sort: "title" }, 1)).toBe("/events?sort=title");
    expect(
      eventFiltersQuery(
        { ...DEFAULT_EVENT_FILTERS, search: "data", type: "gala", upcoming: true, virtual: true },
        3,
      ),
    ).toBe("search=data&type=gala&filter=upcoming&format=virtual&page=3");
  });

  it("round-trips: parsing a canonical query gives the same filters", () => {
    const filters = { ...DEFAULT_EVENT_FILTERS, search: "a&b c", category: "X/Y", featured: true };
    expect(parse(eventFiltersQuery(filters))).toEqual(filters);
  });

  it("knows which queries the loader tidies (what the no-JavaScript form submits)", () => {
    expect(
      isCanonicalEventsQuery(new URLSearchParams("search=data&type=conference&sort=title")),
    ).toBe(true);
    expect(isCanonicalEventsQuery(new URLSearchParams("filter=upcoming&page=2"))).toBe(true);
    for (const query of [
      "search=&type=all&category=all&sort=date",
      "search=data&type=all",
      "sort=date",
      "sort=nonsense",
      "page=1",
      "search=data%20",
    ]) {
      expect(isCanonicalEventsQuery(new URLSearchParams(query)), query).toBe(false);
      // …and what it redirects to is canonical, so there is never a redirect loop.
      const params = new URLSearchParams(query);
      const target = new URL(eventsHref(parseEventFilters(params), parsePage(params)), "http://x");
      expect(isCanonicalEventsQuery(target.searchParams), query).toBe(true);
    }
  });

  it("reads the page number defensively", () => {
    expect(parsePage(new URLSearchParams("page=3"))).toBe(3);
    for (const bad of ["page=0", "page=-2", "page=1.5", "page=abc", ""]) {
      expect(parsePage(new URLSearchParams(bad))).toBe(1);
    }
  });
});

describe("chips and labels", () => {
  it("has one chip per active filter whose link drops only that filter", () => {
    const filters = parse("search=data&type=conference&sort=title&filter=upcoming&format=virtual");
    const chips = activeFilterChips(filters);
    expect(chips.map((c) => c.label)).toEqual([
      'Search: "data"',
      "Type: Conference",
      "Upcoming",
      "Virtual Events",
    ]);
    expect(chips[0].href).toBe("/events?type=conference&sort=title&filter=upcoming&format=virtual");
    expect(chips[1].href).toBe("/events?search=data&sort=title&filter=upcoming&format=virtual");
    expect(hasActiveFilters(filters)).toBe(true);
    expect(hasActiveFilters(parse("sort=title"))).toBe(false);
  });

  it("agrees the noun with the number", () => {
    expect(eventsFoundLabel(0)).toBe("0 Events Found");
    expect(eventsFoundLabel(1)).toBe("1 Event Found");
    expect(eventsFoundLabel(5)).toBe("5 Events Found");
    expect(eventsFoundLabel(12345)).toBe("12,345 Events Found");
  });

  it("tells ids from slugs", () => {
    expect(isUuid("6f1c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f")).toBe(true);
    expect(isUuid("data-governance-summit")).toBe(false);
  });
});

describe("calendar feed names", () => {
  it("names a filtered feed after its filters, and the whole feed plainly", () => {
    expect(calendarName(parse("type=conference&category=Data+Governance"))).toBe(
      "Kongamano — Conference · Data Governance",
    );
    expect(calendarName(parse("filter=upcoming&format=virtual&search=ai"))).toBe(
      "Kongamano — Upcoming · Virtual · “ai”",
    );
    expect(calendarName(parse(""))).toBe("Kongamano Events");
  });
});
