import { describe, expect, it } from "vitest";
import { hasActiveFilters, paperFiltersQuery, papersHref, parsePaperFilters } from "./filters";

describe("paper filters in the URL", () => {
  it("reads known values and falls back to defaults for anything else", () => {
    expect(
      parsePaperFilters(
        new URLSearchParams("search=  data   governance &status=draft&sort=title&page=3"),
      ),
    ).toEqual({ search: "data governance", status: "draft", sort: "title", page: 3 });
    expect(parsePaperFilters(new URLSearchParams("status=secret&sort=random&page=-2"))).toEqual({
      search: "",
      status: "all",
      sort: "latest",
      page: 1,
    });
    expect(parsePaperFilters(new URLSearchParams("page=abc")).page).toBe(1);
  });

  it("omits defaults so the plain listing is /papers", () => {
    expect(papersHref({ search: "", status: "all", sort: "latest", page: 1 })).toBe("/papers");
    expect(paperFiltersQuery({ search: "a&b", status: "published", sort: "title", page: 2 })).toBe(
      "search=a%26b&status=published&sort=title&page=2",
    );
  });

  it("round-trips through the query string", () => {
    const filters = {
      search: "ethics & AI",
      status: "draft" as const,
      sort: "title" as const,
      page: 4,
    };
    expect(parsePaperFilters(new URLSearchParams(paperFiltersQuery(filters)))).toEqual(filters);
  });

  it("counts search and status, not sort or page, as active filters", () => {
    expect(hasActiveFilters(parsePaperFilters(new URLSearchParams("sort=title&page=2")))).toBe(
      false,
    );
    expect(hasActiveFilters(parsePaperFilters(new URLSearchParams("search=x")))).toBe(true);
    expect(hasActiveFilters(parsePaperFilters(new URLSearchParams("status=published")))).toBe(true);
  });
});
