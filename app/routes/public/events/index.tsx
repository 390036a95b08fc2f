import { useEffect, useRef, useState } from "react";
import {
  data,
  Form,
  redirect,
  useFetcher,
  useRouteLoaderData,
  useSearchParams,
} from "react-router";
import { EventCard } from "~/components/event-card";
import { CalendarPlus, Download, Rss, Search, X } from "~/components/icons";
import { Link } from "~/components/link";
import { buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { unseenItems } from "~/lib/append-page";
import { env } from "~/lib/env.server";
import { hasRole } from "~/lib/roles";
import { pageMeta } from "~/lib/seo";
import { useHydrated } from "~/lib/use-hydrated";
import {
  activeFilterChips,
  capitalise,
  EVENT_SORT_LABELS,
  EVENT_SORTS,
  EVENTS_PAGE_SIZE,
  type EventFilters,
  eventFiltersQuery,
  eventsFoundLabel,
  eventsHref,
  hasActiveFilters,
  isCanonicalEventsQuery,
  parseEventFilters,
  parsePage,
} from "~/models/events/filters";
import {
  type EventCardData,
  getEventListingStats,
  listEventFilterOptions,
  listPublishedEvents,
} from "~/models/events/queries.server";
import type { Route } from "./+types/index";
import { publicCacheHeaders } from "./http.server";

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const filters = parseEventFilters(url.searchParams);
  const page = parsePage(url.searchParams);
  // The no-JavaScript form sends every field ('type=all', 'sort=date', …): tidy the URL.
  if (!isCanonicalEventsQuery(url.searchParams)) throw redirect(eventsHref(filters, page));
  const [result, stats, options] = await Promise.all([
    listPublishedEvents(filters, { page }),
    getEventListingStats(),
    listEventFilterOptions(),
  ]);
  const pageCount = Math.max(1, Math.ceil(result.total / EVENTS_PAGE_SIZE));
  if (page > pageCount) throw redirect(eventsHref(filters, pageCount));
  return data(
    {
      filters,
      page,
      pageCount,
      events: result.events,
      total: result.total,
      capped: result.capped,
      stats,
      options,
      origin: env().BASE_URL,
    },
    { headers: publicCacheHeaders(request) },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export const links: Route.LinksFunction = () => [
  {
    rel: "alternate",
    type: "application/rss+xml",
    title: "Kongamano Events",
    href: "/events/rss.xml",
  },
];

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: "Events | Kongamano" }];
  const { filters, page, origin } = loaderData;
  return pageMeta({
    title: page > 1 ? `Events (page ${page})` : "Events",
    description:
      "Conferences, exhibitions, galas and workshops for information-management professionals: search by type, category and location, and add them to your calendar.",
    origin,
    path: eventsHref(filters, page),
  });
}

export default function EventsPage({ loaderData }: Route.ComponentProps) {
  const { filters, page, pageCount, events, total, capped, stats, options, origin } = loaderData;
  const rootUser = (useRouteLoaderData("root") as { user: { role: string } | null } | undefined)
    ?.user;
  const canCreateEvents = hasRole(rootUser?.role, "editor");
  const active = hasActiveFilters(filters);
  const feedQuery = eventFiltersQuery(filters);
  const exportHref = `/events.ics?${feedQuery ? `${feedQuery}&` : ""}scope=all`;
  const subscribeHref = `${origin.replace(/^https?:/, "webcal:")}/events.ics${feedQuery ? `?${feedQuery}` : ""}`;

  return (
    <main id="main">
      <section className="bg-gradient-to-br from-primary to-primary-700 text-white">
        <div className="mx-auto max-w-7xl px-4 py-10 sm:py-16">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">
            Events &amp; Conferences
          </h1>
          <p className="mt-3 max-w-2xl text-lg text-blue-50">
            Connect with information-management professionals at conferences, exhibitions, galas and
            workshops around the world.
          </p>
          <dl className="mt-8 grid max-w-xl grid-cols-[repeat(auto-fit,minmax(6rem,1fr))] gap-2 sm:gap-4">
            {[
              ["Total Events", stats.totalEvents.toLocaleString("en-US")],
              ["Locations", stats.locations.toLocaleString("en-US")],
              ["Attendees", "10,000+"],
            ].map(([label, value]) => (
              <div key={label} className="flex flex-col rounded-lg bg-white/10 p-3 sm:p-4">
                <dt className="text-sm text-blue-50">{label}</dt>
                <dd className="order-first text-xl font-bold sm:text-3xl">{value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <div className="mx-auto max-w-7xl px-4 py-8">
        <EventFiltersForm filters={filters} options={options} />

        <div className="mt-6 flex flex-wrap items-center justify-between gap-4">
          <div role="status" aria-live="polite">
            <h2 className="text-xl font-semibold">{eventsFoundLabel(total, capped)}</h2>
          </div>
          <div className="flex flex-wrap gap-2">
            <a
              href={exportHref}
              download="kongamano-events.ics"
              className={buttonVariants({ variant: "outline", size: "sm" })}
            >
              <Download aria-hidden />
              Export Calendar
            </a>
            <a href={subscribeHref} className={buttonVariants({ variant: "outline", size: "sm" })}>
              <CalendarPlus aria-hidden />
              Subscribe
            </a>
            <a
              href="/events/rss.xml"
              className={buttonVariants({ variant: "outline", size: "sm" })}
            >
              <Rss aria-hidden />
              RSS
            </a>
          </div>
        </div>
        <ActiveFilterChips filters={filters} />

        {events.length === 0 ? (
          <div className="mt-8 rounded-xl border border-dashed border-border px-6 py-16 text-center">
            <h3 className="text-lg font-semibold">No Events Found</h3>
            <p className="mt-2 text-muted-foreground">
              {active
                ? "Try adjusting your filters or search terms."
                : "There are no published events yet. Please check back soon."}
            </p>
            {active ? (
              <Link
                to="/events"
                replace
                preventScrollReset
                className={`${buttonVariants({ variant: "outline" })} mt-4`}
              >
                Clear Filters
              </Link>
            ) : null}
          </div>
        ) : (
          <EventResults
            key={eventsHref(filters, page)}
            filters={filters}
            firstPage={page}
            pageCount={pageCount}
            total={total}
            events={events}
          />
        )}
      </div>

      <section className="border-t border-border bg-muted">
        <div className="mx-auto max-w-7xl px-4 py-12 text-center">
          <h2 className="text-2xl font-bold">Want to Host an Event with Us?</h2>
          <p className="mx-auto mt-3 max-w-2xl text-muted-foreground">
            Bring your conference, exhibition or workshop to a global audience of
            information-management professionals. We help with planning, promotion and partners.
          </p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            {/* Editors open the event form (spec); everyone else sends a proposal to the inbox. */}
            <Link
              to={canCreateEvents ? "/admin/events/new" : "/events/propose"}
              className={buttonVariants({ size: "lg" })}
            >
              Propose an Event
            </Link>
            <Link
              to="/contact?topic=partnership"
              className={buttonVariants({ variant: "outline", size: "lg" })}
            >
              Partner with Us
            </Link>
          </div>
        </div>
      </section>
    </main>
  );
}

/**
 * The filter bar: a GET form that works without JavaScript (submit button), and with it updates
 * the URL as you type (debounced) or choose, replacing the history entry instead of adding one.
 */
function EventFiltersForm({
  filters,
  options,
}: {
  filters: EventFilters;
  options: { types: string[]; categories: string[] };
}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const searchRef = useRef<HTMLInputElement>(null);
  const debounce = useRef<ReturnType<typeof setTimeout>>(undefined);

  function apply(change: Partial<EventFilters>) {
    clearTimeout(debounce.current);
    const next = { ...parseEventFilters(searchParams), ...change };
    setSearchParams(new URLSearchParams(eventFiltersQuery(next)), {
      replace: true,
      preventScrollReset: true,
    });
  }

  // Keep the box in step when the URL changes elsewhere (a chip, Clear Filters, the mega menu),
  // but never overwrite what the visitor is typing.
  const urlSearch = filters.search;
  useEffect(() => {
    const input = searchRef.current;
    if (input && document.activeElement !== input) input.value = urlSearch;
  }, [urlSearch]);
  useEffect(() => () => clearTimeout(debounce.current), []);

  const typeOptions = withCurrent(options.types, filters.type);
  const categoryOptions = withCurrent(options.categories, filters.category);

  return (
    <Form
      method="get"
      action="/events"
      role="search"
      aria-label="Filter events"
      className="grid gap-4 rounded-xl border border-border bg-card p-4 shadow-sm sm:p-6 md:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto] lg:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        apply({ search: (searchRef.current?.value ?? "").trim() });
      }}
    >
      <div className="grid gap-1.5 md:col-span-2 lg:col-span-1">
        <Label htmlFor="event-search">Search events</Label>
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            ref={searchRef}
            id="event-search"
            name="search"
            type="search"
            defaultValue={filters.search}
            placeholder="Title, location, theme..."
            maxLength={100}
            autoComplete="off"
            className="pl-9"
            onChange={(event) => {
              const value = event.currentTarget.value;
              clearTimeout(debounce.current);
              debounce.current = setTimeout(() => apply({ search: value.trim() }), 300);
            }}
          />
        </div>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="event-type">Event Type</Label>
        <NativeSelect
          id="event-type"
          name="type"
          value={matchOption(typeOptions, filters.type)}
          onChange={(event) => apply({ type: event.currentTarget.value })}
        >
          <option value="all">All Types</option>
          {typeOptions.map((type) => (
            <option key={type} value={type}>
              {capitalise(type)}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="event-category">Category</Label>
        <NativeSelect
          id="event-category"
          name="category"
          value={matchOption(categoryOptions, filters.category)}
          onChange={(event) => apply({ category: event.currentTarget.value })}
        >
          <option value="all">All Categories</option>
          {categoryOptions.map((category) => (
            <option key={category} value={category}>
              {category}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="event-sort">Sort By</Label>
        <NativeSelect
          id="event-sort"
          name="sort"
          value={filters.sort}
          onChange={(event) => apply({ sort: event.currentTarget.value as EventFilters["sort"] })}
        >
          {EVENT_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {EVENT_SORT_LABELS[sort]}
            </option>
          ))}
        </NativeSelect>
      </div>
      {/* The quick links' filters (Upcoming, Featured, Virtual) survive a submit. */}
      {filters.upcoming ? <input type="hidden" name="filter" value="upcoming" /> : null}
      {filters.featured ? <input type="hidden" name="filter" value="featured" /> : null}
      {filters.virtual ? <input type="hidden" name="format" value="virtual" /> : null}
      <div className="flex gap-2 md:col-span-2 lg:col-span-1">
        <button type="submit" className={`${buttonVariants()} flex-1 lg:flex-none`}>
          <Search aria-hidden />
          Search
        </button>
        {hasActiveFilters(filters) || filters.sort !== "date" ? (
          <Link
            to="/events"
            replace
            preventScrollReset
            className={`${buttonVariants({ variant: "outline" })} flex-1 lg:flex-none`}
          >
            <X aria-hidden />
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/** The option list, with the URL's value added when it names nothing listed (so it shows). */
function withCurrent(list: string[], current: string) {
  if (current === "all" || list.some((v) => v.toLowerCase() === current.toLowerCase())) return list;
  return [...list, current];
}

function matchOption(list: string[], current: string) {
  return list.find((v) => v.toLowerCase() === current.toLowerCase()) ?? "all";
}

function ActiveFilterChips({ filters }: { filters: EventFilters }) {
  const chips = activeFilterChips(filters);
  if (chips.length === 0) return null;
  return (
    <ul aria-label="Active filters" className="mt-3 flex flex-wrap gap-2">
      {chips.map((chip) => (
        <li key={chip.key}>
          <Link
            to={chip.href}
            replace
            preventScrollReset
            className="inline-flex items-center gap-1.5 rounded-full bg-accent px-3 py-1 text-sm font-medium text-accent-foreground hover:bg-blue-100"
          >
            {chip.label}
            <X aria-hidden className="size-3.5" />
            <span className="sr-only">(remove filter)</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * The card grid. Without JavaScript: one page per URL (`page=`) with Previous/Next links. With it:
 * 'Load more' appends the next page in place.
 */
function EventResults({
  filters,
  firstPage,
  pageCount,
  total,
  events,
}: {
  filters: EventFilters;
  firstPage: number;
  pageCount: number;
  total: number;
  events: EventCardData[];
}) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<typeof loader>();
  const [more, setMore] = useState<{ lastPage: number; events: EventCardData[] }>({
    lastPage: firstPage,
    events: [],
  });

  useEffect(() => {
    const next = fetcher.data;
    if (fetcher.state !== "idle" || !next || !("events" in next)) return;
    setMore((current) => {
      if (next.page !== current.lastPage + 1) return current;
      const added = unseenItems([...events, ...current.events], next.events);
      return { lastPage: next.page, events: [...current.events, ...added] };
    });
  }, [fetcher.state, fetcher.data, events]);

  const shown = [...events, ...more.events];
  const firstIndex = (firstPage - 1) * EVENTS_PAGE_SIZE + 1;
  const lastIndex = firstIndex + shown.length - 1;
  const loading = fetcher.state !== "idle";

  return (
    <>
      <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {shown.map((event) => (
          <li key={event.id} className="grid">
            <EventCard event={event} />
          </li>
        ))}
      </ul>
      {pageCount > 1 ? (
        <nav aria-label="Pagination" className="mt-8 flex flex-col items-center gap-3">
          <p className="text-sm text-muted-foreground" aria-live="polite">
            Showing {firstIndex.toLocaleString("en-US")}–{lastIndex.toLocaleString("en-US")} of{" "}
            {total.toLocaleString("en-US")} events
          </p>
          <div className="flex flex-wrap items-center justify-center gap-3">
            {firstPage > 1 ? (
              <Link
                to={eventsHref(filters, firstPage - 1)}
                className={buttonVariants({ variant: "outline" })}
              >
                Previous
              </Link>
            ) : null}
            {more.lastPage < pageCount ? (
              hydrated ? (
                <button
                  type="button"
                  className={buttonVariants()}
                  disabled={loading}
                  onClick={() => fetcher.load(eventsHref(filters, more.lastPage + 1))}
                >
                  {loading ? "Loading events..." : "Load more"}
                </button>
              ) : (
                <Link
                  to={eventsHref(filters, firstPage + 1)}
                  className={buttonVariants({ variant: "outline" })}
                >
                  Next
                </Link>
              )
            ) : null}
          </div>
        </nav>
      ) : null}
    </>
  );
}
