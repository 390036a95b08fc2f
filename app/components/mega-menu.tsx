import { useEffect, useId, useRef, useState } from "react";
import { NavLink, useLocation, useNavigate } from "react-router";
import {
  ArrowRight,
  CalendarDays,
  ChevronDown,
  Clock,
  Search,
  Star,
  Video,
} from "~/components/icons";
import { Link } from "~/components/link";
import { eventCountLabel } from "~/lib/format";
import { cn } from "~/lib/utils";
import type { MegaMenuData, NavTaxonomy } from "~/models/site/navigation.server";

/** Types and categories shown per column (spec §9). */
export const MEGA_MENU_LIMIT = 6;
const CLOSE_DELAY_MS = 150;

export const QUICK_ACCESS_LINKS = [
  { to: "/events", label: "All Events", icon: CalendarDays },
  { to: "/events?filter=upcoming", label: "Upcoming", icon: Clock },
  { to: "/events?filter=featured", label: "Featured", icon: Star },
  { to: "/events?format=virtual", label: "Virtual Events", icon: Video },
] as const;

/** 'trade show' → 'Trade Show' (type names are stored lower-case). */
export function capitalise(name: string) {
  return name.replace(
    /(^|\s)(\p{Ll})/gu,
    (_, space: string, letter: string) => space + letter.toUpperCase(),
  );
}

/** The events page filtered by one event type or category (spec §2.1 query parameters). */
export function eventsFilterHref(param: "type" | "category", name: string) {
  return `/events?${param}=${encodeURIComponent(name)}`;
}

/** The trimmed search target, or null when there is nothing to search for (spec §5). */
export function eventsSearchHref(term: string) {
  const trimmed = term.trim();
  return trimmed ? `/events?search=${encodeURIComponent(trimmed)}` : null;
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "rounded-md px-3 py-2 text-sm font-medium text-slate-700 transition-colors hover:bg-muted hover:text-foreground",
    isActive && "text-primary",
  );

/**
 * 'Events' in the top navigation: the link goes to /events; hovering (or the chevron button,
 * for keyboard users) opens the mega menu. It closes on mouse leave, Escape, focus leaving it,
 * and on every route change (spec §2.2, §4).
 */
export function EventsNavItem({ data }: { data: MegaMenuData }) {
  const [open, setOpen] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const hovering = useRef(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const location = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the point of a route change
  useEffect(() => {
    setOpen(false);
  }, [location.pathname, location.search]);
  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const show = () => {
    clearTimeout(closeTimer.current);
    setOpen(true);
  };
  const hideSoon = () => {
    clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => setOpen(false), CLOSE_DELAY_MS);
  };

  return (
    <li
      className="flex items-center"
      onMouseEnter={() => {
        hovering.current = true;
        show();
      }}
      onMouseLeave={() => {
        hovering.current = false;
        hideSoon();
      }}
      onBlur={(event) => {
        const stillInside = event.currentTarget.contains(event.relatedTarget as Node | null);
        if (!stillInside && !hovering.current) setOpen(false);
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) {
          setOpen(false);
          toggleRef.current?.focus();
        }
      }}
    >
      <NavLink
        to="/events"
        className={navLinkClass}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown") {
            event.preventDefault();
            show();
          }
        }}
      >
        Events
      </NavLink>
      <button
        ref={toggleRef}
        type="button"
        className="-ml-2 rounded-md p-1.5 text-slate-700 hover:bg-muted"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label="Events menu"
        onClick={() => (open ? setOpen(false) : show())}
      >
        <ChevronDown
          aria-hidden
          className={cn("size-4 transition-transform", open && "rotate-180")}
        />
      </button>
      {open ? <MegaMenuPanel id={panelId} data={data} /> : null}
    </li>
  );
}

function MegaMenuPanel({ id, data }: { id: string; data: MegaMenuData }) {
  const navigate = useNavigate();
  const searchId = useId();
  return (
    <div
      id={id}
      data-testid="mega-menu"
      className="absolute top-full left-1/2 z-50 mt-px w-[min(56rem,calc(100vw-2rem))] -translate-x-1/2 rounded-b-lg border border-border bg-background p-6 shadow-xl"
    >
      <div className="grid grid-cols-3 gap-8">
        <MenuColumn title="Quick Access">
          <ul className="space-y-1">
            {QUICK_ACCESS_LINKS.map(({ to, label, icon: Icon }) => (
              <li key={to}>
                <Link to={to} className={itemClass}>
                  <Icon aria-hidden className="size-4 text-primary" />
                  <span className="flex-1">{label}</span>
                </Link>
              </li>
            ))}
          </ul>
          {/* A real GET form (works without JavaScript); with it, the term is trimmed first. */}
          <form
            method="get"
            action="/events"
            className="mt-4 flex gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              const term = new FormData(event.currentTarget).get("search");
              const href = eventsSearchHref(typeof term === "string" ? term : "");
              if (href) navigate(href);
            }}
          >
            <label htmlFor={searchId} className="sr-only">
              Search events
            </label>
            <input
              id={searchId}
              name="search"
              type="search"
              placeholder="Search events..."
              autoComplete="off"
              className="h-9 min-w-0 flex-1 rounded-md border border-input bg-background px-3 text-sm"
            />
            <button
              type="submit"
              className="inline-flex size-9 items-center justify-center rounded-md bg-primary text-primary-foreground hover:bg-primary-700"
            >
              <Search aria-hidden className="size-4" />
              <span className="sr-only">Search</span>
            </button>
          </form>
        </MenuColumn>
        <TaxonomyColumn
          title="Event Types"
          items={data.types}
          param="type"
          viewAllLabel="View all types"
        />
        <TaxonomyColumn
          title="Categories"
          items={data.categories}
          param="category"
          viewAllLabel="View all categories"
          showColour
        />
      </div>
      <div className="mt-6 flex justify-end border-t border-border pt-4">
        <Link
          to="/events"
          className="inline-flex items-center gap-1 text-sm font-semibold text-primary hover:underline"
        >
          View All Events
          <ArrowRight aria-hidden className="size-4" />
        </Link>
      </div>
    </div>
  );
}

const itemClass =
  "flex items-center gap-2 rounded-md px-2 py-1.5 text-sm text-slate-700 hover:bg-muted hover:text-foreground";

function MenuColumn({ title, children }: { title: string; children: React.ReactNode }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId}>
      <p
        id={titleId}
        className="mb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase"
      >
        {title}
      </p>
      {children}
    </section>
  );
}

function TaxonomyColumn({
  title,
  items,
  param,
  viewAllLabel,
  showColour = false,
}: {
  title: string;
  items: NavTaxonomy[];
  param: "type" | "category";
  viewAllLabel: string;
  showColour?: boolean;
}) {
  return (
    <MenuColumn title={title}>
      {items.length === 0 ? (
        <p className="px-2 text-sm text-muted-foreground">None yet</p>
      ) : (
        <ul className="space-y-1">
          {items.slice(0, MEGA_MENU_LIMIT).map((item) => (
            <li key={item.name}>
              <Link to={eventsFilterHref(param, item.name)} className={itemClass}>
                {showColour && item.color ? (
                  <span
                    aria-hidden
                    className="size-2.5 shrink-0 rounded-full"
                    style={{ backgroundColor: item.color }}
                  />
                ) : null}
                <span className="flex-1 truncate">{capitalise(item.name)}</span>
                <span
                  aria-hidden
                  className="rounded-full bg-muted px-2 py-0.5 text-xs font-medium text-slate-700"
                >
                  {item.count}
                </span>
                <span className="sr-only">, {eventCountLabel(item.count)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {items.length > MEGA_MENU_LIMIT ? (
        <Link
          to="/events"
          className="mt-2 inline-flex items-center gap-1 px-2 text-sm font-medium text-primary hover:underline"
        >
          {viewAllLabel}
          <ArrowRight aria-hidden className="size-3.5" />
        </Link>
      ) : null}
    </MenuColumn>
  );
}
