import { useEffect, useRef, useState } from "react";
import { Form, useNavigate } from "react-router";
import { Search } from "~/components/icons";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import {
  PAPER_SORTS,
  PAPER_STATUS_FILTERS,
  type PaperFilters,
  papersHref,
  SORT_LABELS,
  STATUS_FILTER_LABELS,
} from "~/models/papers/filters";

const SEARCH_DELAY_MS = 350;

/**
 * Search, status and sort for /papers. A plain GET form (works without JavaScript); with it, every
 * change replaces the current history entry with the canonical URL (defaults omitted, page reset).
 */
export function PaperFiltersForm({ filters }: { filters: PaperFilters }) {
  const navigate = useNavigate();
  const [search, setSearch] = useState(filters.search);
  // The search we last put into the URL: a different one in the URL came from elsewhere (back
  // button, 'Clear Filters', an author link) and replaces what is in the box.
  const sent = useRef(filters.search);
  useEffect(() => {
    if (filters.search !== sent.current) {
      sent.current = filters.search;
      setSearch(filters.search);
    }
  }, [filters.search]);

  const apply = (next: Partial<PaperFilters>) => {
    const merged = { ...filters, search: search.trim().replace(/\s+/g, " "), ...next, page: 1 };
    sent.current = merged.search;
    navigate(papersHref(merged), { replace: true, preventScrollReset: true });
  };

  // Typing searches after a pause; only the text (not a new `apply` closure) restarts the timer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    const term = search.trim().replace(/\s+/g, " ");
    if (term === sent.current) return;
    // Pressing Enter or Search before the pause applies the term at once; then there is no repeat.
    const timer = setTimeout(
      () => term !== sent.current && apply({ search: term }),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [search]);

  return (
    <Form
      method="get"
      action="/papers"
      role="search"
      aria-label="Paper filters"
      className="grid grid-cols-2 gap-3 md:grid-cols-[minmax(0,1fr)_12rem_10rem_auto] md:items-end md:gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        apply({});
      }}
    >
      <div className="col-span-2 grid gap-2 md:col-span-1">
        <label htmlFor="paper-search" className="text-sm font-medium">
          Search papers
        </label>
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id="paper-search"
            type="search"
            name="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Title, author, tag or abstract"
            maxLength={200}
            className="pl-9"
            autoComplete="off"
          />
        </div>
      </div>
      <div className="grid gap-2">
        <label htmlFor="paper-status" className="text-sm font-medium">
          Status
        </label>
        <NativeSelect
          id="paper-status"
          name="status"
          key={`status-${filters.status}`}
          defaultValue={filters.status}
          onChange={(event) => apply({ status: event.target.value as PaperFilters["status"] })}
        >
          {PAPER_STATUS_FILTERS.map((status) => (
            <option key={status} value={status}>
              {STATUS_FILTER_LABELS[status]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-2">
        <label htmlFor="paper-sort" className="text-sm font-medium">
          Sort by
        </label>
        <NativeSelect
          id="paper-sort"
          name="sort"
          key={`sort-${filters.sort}`}
          defaultValue={filters.sort}
          onChange={(event) => apply({ sort: event.target.value as PaperFilters["sort"] })}
        >
          {PAPER_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Button type="submit" className="col-span-2 md:col-span-1">
        Search
      </Button>
    </Form>
  );
}
