import {
  data,
  isRouteErrorResponse,
  redirect,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { Countdown } from "~/components/countdown";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { shade } from "~/components/event-banner";
import { PastEventBadge, speakerCountLabel } from "~/components/event-card";
import { EventLocalTime } from "~/components/event-local-time";
import { EventShareButton } from "~/components/event-share-button";
import { EventSponsorLogo } from "~/components/event-sponsor-logo";
import { EventTypeBadge } from "~/components/event-type-badge";
import {
  ArrowLeft,
  CalendarDays,
  Clock,
  Download,
  ExternalLink,
  MapPin,
  Tag,
  Timer,
  Users,
} from "~/components/icons";
import { Link } from "~/components/link";
import { OpenCalls } from "~/components/open-calls";
import { buttonVariants } from "~/components/ui/button";
import { statusLabel } from "~/lib/constants";
import { env } from "~/lib/env.server";
import { jsonLd, pageMeta } from "~/lib/seo";
import { listOpenCallItems } from "~/models/cfp/queries.server";
import { isUuid } from "~/models/events/filters";
import {
  findPublishedEventSlugById,
  getPublishedEventBySlug,
  getSeatsLeft,
} from "~/models/events/queries.server";
import type { Route } from "./+types/detail";
import { buildEventPageView } from "./event-view.server";
import { publicCacheHeaders } from "./http.server";

export async function loader({ params, request }: Route.LoaderArgs) {
  const event = await getPublishedEventBySlug(params.slug);
  if (!event) {
    // Old links carry the id (spec §2.1): send them to the slug URL for good.
    const slug = isUuid(params.slug) ? await findPublishedEventSlugById(params.slug) : null;
    if (slug) throw redirect(`/events/${encodeURIComponent(slug)}`, 301);
    throw data({ message: "Event Not Found" }, { status: 404 });
  }
  const now = new Date();
  const [seats, openCalls] = await Promise.all([
    getSeatsLeft(event),
    listOpenCallItems({ eventId: event.id }),
  ]);
  const view = buildEventPageView(event, { now, origin: env().BASE_URL, seats });
  // Seats are counted while registration is open: the cached page follows them closely.
  const limited = event.capacity !== null || event.fees.some((fee) => fee.maxQuantity !== null);
  return data(
    { event: view, renderedAt: now.getTime(), openCalls, origin: env().BASE_URL },
    { headers: publicCacheHeaders(request, { live: view.registrationOpen && limited }) },
  );
}

export function headers({ loaderHeaders, errorHeaders }: Route.HeadersArgs) {
  return errorHeaders ?? loaderHeaders;
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) {
    return [{ title: "Event Not Found | Kongamano" }, { name: "robots", content: "noindex" }];
  }
  const { event, origin } = loaderData;
  return [
    ...pageMeta({
      title: event.title,
      description: event.metaDescription,
      origin,
      path: `/events/${encodeURIComponent(event.slug)}`,
      image: event.shareImage,
    }),
    jsonLd(event.jsonLd),
  ];
}

type RootData = { user: { id: string } | null } | undefined;

export default function EventPage({ loaderData }: Route.ComponentProps) {
  const { event, renderedAt, openCalls } = loaderData;
  const signedIn = Boolean((useRouteLoaderData("root") as RootData)?.user);
  const path = `/events/${encodeURIComponent(event.slug)}`;
  // A visitor signs in first and comes back to the registration page.
  const registerHref = signedIn
    ? `${path}/register`
    : `/auth?${new URLSearchParams({ redirectTo: `${path}/register` })}`;
  const showCountdown = new Date(event.end).getTime() > renderedAt;
  const days = event.durationDays;

  return (
    <main id="main">
      <section
        className="text-white"
        style={{
          background: `linear-gradient(135deg, ${shade(event.typeColor, 0.45)}, ${shade(event.typeColor, 0.3)})`,
          backgroundColor: shade(event.typeColor, 0.3),
        }}
      >
        <div
          className={`mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:py-14 ${event.imageUrl ? "md:grid-cols-2 md:items-center" : ""}`}
        >
          <div>
            <Link
              to="/events"
              className="inline-flex items-center gap-1 text-sm font-medium text-white/90 hover:text-white hover:underline"
            >
              <ArrowLeft aria-hidden className="size-4" />
              All Events
            </Link>
            <div className="mt-4 flex flex-wrap gap-2">
              <EventTypeBadge type={event.eventType} />
              {event.past ? <PastEventBadge /> : null}
              {event.cancelled ? (
                <span className="rounded-full bg-red-100 px-2.5 py-0.5 text-xs font-semibold text-red-900">
                  Cancelled
                </span>
              ) : null}
              {event.featured ? (
                <span className="rounded-full bg-white px-2.5 py-0.5 text-xs font-semibold text-slate-900">
                  Featured
                </span>
              ) : null}
            </div>
            <h1 className="mt-3 text-3xl font-bold tracking-tight sm:text-4xl">{event.title}</h1>
            {event.theme ? <p className="mt-3 text-lg text-white/90">{event.theme}</p> : null}
            <p className="mt-4 flex flex-wrap gap-x-6 gap-y-2 text-white/90">
              <span className="inline-flex items-center gap-2">
                <CalendarDays aria-hidden className="size-4" />
                {event.dateLabel}
              </span>
              <span className="inline-flex items-center gap-2">
                <MapPin aria-hidden className="size-4" />
                {event.location}
              </span>
            </p>
          </div>
          {event.imageUrl ? (
            <img
              src={event.imageUrl}
              alt=""
              width={1200}
              height={630}
              fetchPriority="high"
              className="aspect-[40/21] w-full rounded-xl object-cover shadow-lg"
            />
          ) : null}
        </div>
      </section>

      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 lg:grid-cols-3">
        <section aria-labelledby="info-heading" className="lg:col-span-2">
          <h2 id="info-heading" className="text-2xl font-semibold">
            Event Information
          </h2>
          <dl className="mt-4 grid gap-4 sm:grid-cols-2">
            <InfoItem icon={<CalendarDays aria-hidden className="size-5" />} label="Date">
              {event.dateLabel}
            </InfoItem>
            <InfoItem icon={<Clock aria-hidden className="size-5" />} label="Time">
              {event.timeLabel} {event.zoneLabel}
              <EventLocalTime start={event.start} end={event.end} timeZone={event.timeZone} />
            </InfoItem>
            <InfoItem icon={<MapPin aria-hidden className="size-5" />} label="Location">
              {event.location}
            </InfoItem>
            {event.industrySector ? (
              <InfoItem icon={<Tag aria-hidden className="size-5" />} label="Industry Sector">
                {event.industrySector}
              </InfoItem>
            ) : null}
          </dl>
          {event.description ? (
            <div className="mt-6 grid gap-4 leading-relaxed text-slate-700">
              {event.description
                .split(/\n{2,}/)
                .filter(Boolean)
                .map((paragraph, i) => (
                  // Paragraphs of one fixed text: position is their identity.
                  <p key={i} className="whitespace-pre-line">
                    {paragraph}
                  </p>
                ))}
            </div>
          ) : null}
          {event.tags.length > 0 ? (
            <ul aria-label="Tags" className="mt-6 flex flex-wrap gap-2">
              {event.tags.map((tag) => (
                <li
                  key={tag}
                  className="rounded-full bg-muted px-3 py-1 text-sm font-medium text-slate-700"
                >
                  {tag}
                </li>
              ))}
            </ul>
          ) : null}
        </section>

        <aside className="grid content-start gap-6 lg:col-start-3 lg:row-span-4 lg:row-start-1">
          <section
            aria-labelledby="registration-heading"
            className="rounded-xl border border-border bg-card p-6 shadow-sm"
          >
            <h2 id="registration-heading" className="text-xl font-semibold">
              Registration
            </h2>
            {!event.registrationOpen ? (
              <p className="mt-3 text-sm text-muted-foreground">
                {event.cancelled
                  ? "This event has been cancelled and takes no registrations."
                  : event.past
                    ? "This is a past event; it takes no registrations."
                    : "This event has started and takes no registrations."}
              </p>
            ) : event.fees.length > 0 ? (
              <ul className="mt-4 grid gap-3">
                {event.fees.map((fee) => (
                  <li key={fee.id} className="rounded-lg border border-border p-3">
                    <div className="flex items-baseline justify-between gap-3">
                      <span className="font-medium">{fee.label}</span>
                      <span className="font-semibold text-primary-700">{fee.amountLabel}</span>
                    </div>
                    {fee.description ? (
                      <p className="mt-1 text-sm text-muted-foreground">{fee.description}</p>
                    ) : null}
                    {fee.onSaleFromLabel ? (
                      <p className="mt-1 text-sm font-medium">{fee.onSaleFromLabel}</p>
                    ) : fee.soldOut && fee.onSaleNow ? (
                      <p className="mt-1 text-sm font-medium">Sold out</p>
                    ) : null}
                    <dl className="mt-2 grid gap-0.5 text-xs text-muted-foreground">
                      {fee.availableUntilLabel ? (
                        <div className="flex gap-1">
                          <dt>Available until:</dt>
                          <dd>
                            {fee.availableUntilLabel}
                            {fee.closed ? " (closed)" : ""}
                          </dd>
                        </div>
                      ) : null}
                      <div className="flex gap-1">
                        <dt>Max quantity:</dt>
                        <dd>{fee.maxQuantity ?? "Unlimited"}</dd>
                      </div>
                    </dl>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-3 text-sm text-muted-foreground">Registration is free.</p>
            )}
            <div className="mt-5 grid gap-3">
              {event.callToAction === "register" ? (
                <Link to={registerHref} className={`${buttonVariants({ size: "lg" })} w-full`}>
                  Register Now
                </Link>
              ) : event.callToAction === "waitlist" ? (
                <>
                  <p className="text-sm text-muted-foreground">
                    This event is sold out. Join the waitlist: we e-mail you when a seat is free.
                  </p>
                  <Link to={registerHref} className={`${buttonVariants({ size: "lg" })} w-full`}>
                    Join Waitlist
                  </Link>
                </>
              ) : event.callToAction === "not-yet" ? (
                <p className="text-sm font-medium">{event.nextSaleLabel}.</p>
              ) : null}
              <EventShareButton title={event.title} />
              <a
                href={`${path}/calendar.ics`}
                download={`${event.slug}.ics`}
                className={`${buttonVariants({ variant: "outline" })} w-full`}
              >
                <Download aria-hidden />
                Download .ics
              </a>
            </div>
          </section>

          {showCountdown ? (
            <section
              aria-labelledby="countdown-heading"
              className="rounded-xl border border-border bg-card p-6 shadow-sm"
            >
              <h2
                id="countdown-heading"
                className="mb-4 flex items-center gap-2 text-xl font-semibold"
              >
                <Timer aria-hidden className="size-5 text-primary" />
                Event Countdown
              </h2>
              <Countdown start={event.start} end={event.end} renderedAt={renderedAt} />
            </section>
          ) : null}

          <section
            aria-labelledby="quick-info-heading"
            className="rounded-xl border border-border bg-card p-6 shadow-sm"
          >
            <h2 id="quick-info-heading" className="text-xl font-semibold">
              Quick Info
            </h2>
            <dl className="mt-4 grid gap-3 text-sm">
              <QuickInfoRow label="Category" value={event.category} />
              <QuickInfoRow label="Event Type" value={statusLabel(event.eventType)} />
              <QuickInfoRow label="Speakers" value={speakerCountLabel(event.speakers.length)} />
              <QuickInfoRow label="Duration" value={`${days} ${days === 1 ? "day" : "days"}`} />
            </dl>
          </section>
        </aside>

        <section aria-labelledby="speakers-heading" className="lg:col-span-2">
          <h2 id="speakers-heading" className="text-2xl font-semibold">
            Featured Speakers
          </h2>
          {event.speakers.length > 0 ? (
            <ul className="mt-4 grid gap-4 sm:grid-cols-2">
              {event.speakers.map((speaker) => (
                <li key={speaker.id} className="flex gap-4 rounded-xl border border-border p-4">
                  {speaker.imageUrl ? (
                    <img
                      src={speaker.imageUrl}
                      alt=""
                      width={64}
                      height={64}
                      loading="lazy"
                      decoding="async"
                      className="size-16 shrink-0 rounded-full object-cover"
                    />
                  ) : (
                    <span
                      aria-hidden
                      className="flex size-16 shrink-0 items-center justify-center rounded-full bg-accent text-lg font-semibold text-accent-foreground"
                    >
                      {initials(speaker.name)}
                    </span>
                  )}
                  <div className="min-w-0">
                    <h3 className="font-semibold">{speaker.name}</h3>
                    {speaker.title || speaker.organization ? (
                      <p className="text-sm text-primary-700">
                        {[speaker.title, speaker.organization].filter(Boolean).join(", ")}
                      </p>
                    ) : null}
                    {speaker.bio ? (
                      <p className="mt-2 text-sm text-muted-foreground">{speaker.bio}</p>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-3 text-muted-foreground">Speakers will be announced soon.</p>
          )}
        </section>

        <section aria-labelledby="agenda-heading" className="lg:col-span-2">
          <h2 id="agenda-heading" className="text-2xl font-semibold">
            Event Agenda
          </h2>
          {event.agendaDays.length > 0 ? (
            <>
              <p className="mt-1 text-sm text-muted-foreground">All times {event.zoneLabel}.</p>
              <div className="mt-4 grid gap-6">
                {event.agendaDays.map((day, index) => (
                  <div key={day.date}>
                    <h3 className="font-semibold">
                      Day {index + 1} · {day.date}
                    </h3>
                    <ol className="mt-3 grid gap-3 border-l-2 border-primary/30 pl-4">
                      {day.items.map((item) => (
                        <li key={item.id}>
                          <p className="text-sm font-semibold text-primary-700">{item.timeLabel}</p>
                          <p className="font-medium">{item.title}</p>
                          {item.description ? (
                            <p className="text-sm text-muted-foreground">{item.description}</p>
                          ) : null}
                        </li>
                      ))}
                    </ol>
                  </div>
                ))}
              </div>
            </>
          ) : (
            <p className="mt-3 text-muted-foreground">The agenda will be published soon.</p>
          )}
        </section>

        {openCalls.length > 0 ? (
          <div className="lg:col-span-2">
            <OpenCalls
              calls={openCalls}
              headingId="event-calls-heading"
              heading="Call for Papers"
              showEvent={false}
            />
          </div>
        ) : null}

        <section aria-labelledby="sponsors-heading" className="lg:col-span-2">
          <h2 id="sponsors-heading" className="text-2xl font-semibold">
            Sponsors
          </h2>
          {event.sponsorGroups.length > 0 ? (
            <div className="mt-4 grid gap-6">
              {event.sponsorGroups.map((group) => (
                <div key={group.tier}>
                  <h3 className="font-semibold">{group.heading}</h3>
                  <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                    {group.sponsors.map((sponsor) => (
                      <li
                        key={sponsor.id}
                        className="flex flex-col items-center gap-2 rounded-xl border border-border p-4 text-center"
                      >
                        {sponsor.logoUrl ? <EventSponsorLogo src={sponsor.logoUrl} /> : null}
                        {sponsor.websiteUrl ? (
                          <a
                            href={sponsor.websiteUrl}
                            rel="noopener noreferrer"
                            className="inline-flex items-center gap-1 font-medium text-primary-700 hover:underline"
                          >
                            {sponsor.name}
                            <ExternalLink aria-hidden className="size-3.5" />
                          </a>
                        ) : (
                          <span className="font-medium">{sponsor.name}</span>
                        )}
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </div>
          ) : (
            <p className="mt-3 text-muted-foreground">
              Sponsorship opportunities are open.{" "}
              <Link to="/advertising" className="text-primary-700 underline underline-offset-4">
                Become a sponsor
              </Link>
              .
            </p>
          )}
        </section>
      </div>
    </main>
  );
}

function InfoItem({
  icon,
  label,
  children,
}: {
  icon: React.ReactNode;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <div className="relative rounded-lg bg-muted p-4 pl-12">
      <dt className="text-sm font-medium text-muted-foreground">
        <span className="absolute top-4 left-4 text-primary-700">{icon}</span>
        {label}
      </dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

function QuickInfoRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-center justify-between gap-3 border-b border-border pb-2 last:border-0 last:pb-0">
      <dt className="inline-flex items-center gap-2 text-muted-foreground">
        {label === "Speakers" ? <Users aria-hidden className="size-4" /> : null}
        {label}
      </dt>
      <dd className="font-medium">{value}</dd>
    </div>
  );
}

function initials(name: string) {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w.charAt(0).toUpperCase())
    .join("");
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <main
        id="main"
        className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 text-center"
      >
        <h1 className="text-3xl font-bold">Event Not Found</h1>
        <p className="text-muted-foreground">
          The event you're looking for doesn't exist or has been removed.
        </p>
        <Link to="/events" className={buttonVariants()}>
          Browse All Events
        </Link>
      </main>
    );
  }
  return <GeneralErrorBoundary />;
}
