import { ArrowRight, CalendarDays, MapPin, Users } from "~/components/icons";
import { Link } from "~/components/link";
import { EventBanner } from "./event-banner";
import { EventTypeBadge } from "./event-type-badge";

export type EventCardEvent = {
  slug: string;
  title: string;
  theme: string | null;
  description: string | null;
  location: string;
  /** 'MMM d, yyyy' range, or one date when start and end fall on the same day. */
  dateLabel: string;
  eventType: string;
  imageUrl: string | null;
  featured: boolean;
  typeColor: string;
  speakerCount: number;
  /** Ended: shown with a 'Past event' badge (issue 15). */
  past?: boolean;
};

export function PastEventBadge() {
  return (
    <span className="rounded-full bg-slate-200 px-2.5 py-0.5 text-xs font-semibold text-slate-800">
      Past event
    </span>
  );
}

export function speakerCountLabel(n: number) {
  return `${n} ${n === 1 ? "Speaker" : "Speakers"}`;
}

/** Event card (spec §2.4): type badge, title, theme, dates, location, speakers, description, Learn More. */
export function EventCard({
  event,
  headingLevel = 3,
}: {
  event: EventCardEvent;
  headingLevel?: 2 | 3;
}) {
  const href = `/events/${encodeURIComponent(event.slug)}`;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article
      data-testid="event-card"
      className="flex flex-col overflow-hidden rounded-xl border border-border bg-card shadow-sm transition-shadow [contain-intrinsic-size:auto_480px] [content-visibility:auto] hover:shadow-md"
    >
      <EventBanner imageUrl={event.imageUrl} color={event.typeColor} aspect="aspect-[12/5]" />
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div className="flex flex-wrap items-center gap-2">
          <EventTypeBadge type={event.eventType} />
          {event.featured ? (
            <span className="rounded-full bg-accent px-2.5 py-0.5 text-xs font-semibold text-accent-foreground">
              Featured
            </span>
          ) : null}
          {event.past ? <PastEventBadge /> : null}
        </div>
        <div>
          <Heading className="text-lg font-semibold leading-snug">
            <Link to={href} className="hover:text-primary hover:underline">
              {event.title}
            </Link>
          </Heading>
          {event.theme ? (
            <p className="mt-1 text-sm font-medium text-primary-700">{event.theme}</p>
          ) : null}
        </div>
        <ul className="grid gap-1.5 text-sm text-muted-foreground">
          <li className="flex items-center gap-2">
            <CalendarDays aria-hidden className="size-4 shrink-0" />
            {event.dateLabel}
          </li>
          <li className="flex items-center gap-2">
            <MapPin aria-hidden className="size-4 shrink-0" />
            {event.location}
          </li>
          <li className="flex items-center gap-2">
            <Users aria-hidden className="size-4 shrink-0" />
            {speakerCountLabel(event.speakerCount)}
          </li>
        </ul>
        {event.description ? (
          <p className="line-clamp-3 text-sm text-slate-700">{event.description}</p>
        ) : null}
        <Link
          to={href}
          className="mt-auto inline-flex items-center gap-1 pt-1 text-sm font-semibold text-primary hover:underline"
        >
          Learn More<span className="sr-only"> about {event.title}</span>
          <ArrowRight aria-hidden className="size-4" />
        </Link>
      </div>
    </article>
  );
}
