import { data } from "react-router";
import { CountUp } from "~/components/count-up";
import { EventCard } from "~/components/event-card";
import { HomeOfficeCard } from "~/components/home-office-card";
import { HomePaperCard } from "~/components/home-paper-card";
import { ArrowRight, Award, Globe2, Handshake, TrendingUp, Unlock } from "~/components/icons";
import { Link } from "~/components/link";
import { buttonVariants } from "~/components/ui/button";
import { ORGANISATION_NAME } from "~/lib/constants";
import { env } from "~/lib/env.server";
import { jsonLd, pageMeta, SITE_NAME } from "~/lib/seo";
import { getSiteFigures, type SiteFigures } from "~/models/site/figures.server";
import { getHomeContent } from "~/models/site/home.server";
import type { Route } from "./+types/home";
import { publicCacheHeaders } from "./events/http.server";

export async function loader({ request }: Route.LoaderArgs) {
  const [content, figures] = await Promise.all([getHomeContent(), getSiteFigures()]);
  return data(
    { ...content, figures, origin: env().BASE_URL },
    { headers: publicCacheHeaders(request) },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta({ loaderData }: Route.MetaArgs) {
  const origin = loaderData?.origin ?? "";
  return [
    ...pageMeta({
      title: SITE_NAME,
      description:
        "Kongamano is the global network for information-management professionals: conferences and events, a research-paper library and regional offices, with its head office in Nairobi, Kenya.",
      origin,
      path: "/",
    }),
    jsonLd({
      "@context": "https://schema.org",
      "@type": "Organization",
      name: ORGANISATION_NAME,
      url: origin,
      foundingDate: "2023",
      address: { "@type": "PostalAddress", addressLocality: "Nairobi", addressCountry: "KE" },
    }),
  ];
}

/** A secondary button on the dark hero and 'Why Join' backgrounds. */
const OUTLINE_ON_DARK =
  "inline-flex h-11 items-center justify-center gap-2 rounded-md border border-white/70 px-6 text-sm font-medium whitespace-nowrap text-white transition-colors hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white [&_svg]:size-4";

/** The hero's figures (spec §2.3): events and members live, as on every page (decision 0095). */
function heroStats(figures: SiteFigures) {
  return [
    [figures.events.toLocaleString("en-US"), "Events Hosted"],
    ["200+", "Research Papers"],
    [figures.members.toLocaleString("en-US"), "Members"],
  ] as const;
}

/** The animated impact figures and their growth badges (spec §2.3). */
function impact(figures: SiteFigures) {
  // Events and members are live, from the one count every page shows (decision 0095).
  return [
    { value: figures.events, suffix: "", label: "Events Hosted", growth: "+15%" },
    { value: 90, suffix: "+", label: "Research Papers", growth: "+23%" },
    { value: figures.members, suffix: "", label: "Members", growth: "+42%" },
    { value: 18, suffix: "+", label: "Countries", growth: "+8%" },
  ];
}

const WHY_JOIN = [
  {
    icon: Unlock,
    title: "Premium Access",
    text: "Member pricing for conferences and workshops, and the full research-paper library.",
  },
  {
    icon: Globe2,
    title: "Global Network",
    text: "Meet data-governance leaders, researchers and information professionals on six continents.",
  },
  {
    icon: Award,
    title: "Career Growth",
    text: "Learn from practitioners, present your work and grow your professional reputation.",
  },
] as const;

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const { featuredEvents, latestPapers, offices, figures } = loaderData;
  return (
    <main id="main">
      <section className="bg-gradient-to-br from-primary to-primary-700 text-white">
        <div className="mx-auto max-w-7xl px-4 py-12 sm:py-24">
          <p className="text-sm font-semibold tracking-wide text-blue-50 uppercase">
            Global Information Management Network
          </p>
          <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">
            Where information professionals meet, learn and lead
          </h1>
          <p className="mt-5 max-w-2xl text-lg text-blue-50">
            Conferences, research and a worldwide community for data governance, digital
            transformation and information management — from our head office in Nairobi to every
            region.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to="/membership" className={buttonVariants({ variant: "inverse", size: "lg" })}>
              Join Our Network
            </Link>
            <Link to="/events" className={OUTLINE_ON_DARK}>
              View Conferences
              <ArrowRight aria-hidden />
            </Link>
          </div>
          <dl className="mt-10 flex max-w-2xl flex-wrap gap-x-10 gap-y-4">
            {heroStats(figures).map(([value, label]) => (
              <div key={label} className="flex flex-col">
                <dt className="text-sm text-blue-50">{label}</dt>
                <dd className="order-first text-2xl font-bold sm:text-4xl">{value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <section aria-labelledby="impact-heading" className="border-b border-border bg-muted">
        <div className="mx-auto max-w-7xl px-4 py-14">
          <h2 id="impact-heading" className="text-center text-3xl font-bold">
            Our Impact
          </h2>
          <p className="mx-auto mt-2 max-w-xl text-center text-muted-foreground">
            A community that grows every year.
          </p>
          <ul className="mt-10 grid grid-cols-2 gap-4 lg:grid-cols-4">
            {impact(figures).map((item) => (
              <li
                key={item.label}
                className="flex flex-col items-center gap-2 rounded-xl border border-border bg-card p-6 text-center shadow-sm"
              >
                <span className="text-4xl font-bold text-primary-700">
                  <CountUp value={item.value} suffix={item.suffix} />
                </span>
                <span className="font-medium">{item.label}</span>
                <span className="inline-flex items-center gap-1 rounded-full bg-green-100 px-2.5 py-0.5 text-xs font-semibold text-green-800">
                  <TrendingUp aria-hidden className="size-3.5" />
                  {item.growth}
                  <span className="sr-only"> growth</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <HomeSection
        id="featured-events"
        title="Featured Events"
        moreHref="/events"
        moreLabel="View All Events"
      >
        {featuredEvents.length > 0 ? (
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {featuredEvents.map((event) => (
              <li key={event.id} className="grid">
                <EventCard event={event} />
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState title="No Events Available" text="New events are announced regularly." />
        )}
      </HomeSection>

      <HomeSection
        id="latest-papers"
        title="Latest Research Papers"
        moreHref="/papers"
        moreLabel="View All Papers"
        muted
      >
        {latestPapers.length > 0 ? (
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {latestPapers.map((paper) => (
              <li key={paper.id}>
                <HomePaperCard paper={paper} />
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState title="No Papers Available" text="Research papers will appear here." />
        )}
      </HomeSection>

      <HomeSection
        id="offices"
        title="Our Global Offices"
        moreHref="/offices"
        moreLabel="View All Offices"
      >
        {offices.length > 0 ? (
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {offices.map((office) => (
              <li key={office.id}>
                <HomeOfficeCard office={office} />
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState title="No Offices Available" text="Office locations will appear here." />
        )}
      </HomeSection>

      <section aria-labelledby="why-join-heading" className="bg-slate-900 text-white">
        <div className="mx-auto max-w-7xl px-4 py-16">
          <h2 id="why-join-heading" className="text-center text-3xl font-bold">
            Why Join {ORGANISATION_NAME}?
          </h2>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {WHY_JOIN.map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-xl bg-white/5 p-6">
                <Icon aria-hidden className="size-8 text-blue-300" />
                <h3 className="mt-4 text-xl font-semibold">{title}</h3>
                <p className="mt-2 text-slate-300">{text}</p>
              </li>
            ))}
          </ul>
          <div className="mt-10 flex flex-wrap justify-center gap-3">
            <Link to="/membership" className={buttonVariants({ variant: "inverse", size: "lg" })}>
              Become a Member
            </Link>
            <Link to="/auth" className={OUTLINE_ON_DARK}>
              Sign In / Create Account
            </Link>
          </div>
        </div>
      </section>

      <section aria-labelledby="partnerships-heading">
        <div className="mx-auto flex max-w-4xl flex-col items-center px-4 py-16 text-center">
          <Handshake aria-hidden className="size-10 text-primary-700" />
          <h2 id="partnerships-heading" className="mt-4 text-3xl font-bold">
            Partnerships &amp; Sponsorship
          </h2>
          <p className="mt-4 text-lg text-muted-foreground">
            We work with technology vendors, universities, professional bodies and public
            institutions to bring practical knowledge to our members. Sponsor an event, advertise to
            a focused professional audience or build a programme with us.
          </p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Link to="/contact?topic=partnership" className={buttonVariants({ size: "lg" })}>
              Partner with Us
            </Link>
            <Link to="/advertising" className={buttonVariants({ variant: "outline", size: "lg" })}>
              Advertising &amp; Sponsorship
            </Link>
          </div>
        </div>
      </section>
    </main>
  );
}

function HomeSection({
  id,
  title,
  moreHref,
  moreLabel,
  muted = false,
  children,
}: {
  id: string;
  title: string;
  moreHref: string;
  moreLabel: string;
  muted?: boolean;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className={muted ? "bg-muted" : undefined}>
      <div className="mx-auto max-w-7xl px-4 py-14">
        <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
          <h2 id={`${id}-heading`} className="text-3xl font-bold">
            {title}
          </h2>
          <Link
            to={moreHref}
            className="inline-flex items-center gap-1 font-semibold text-primary-700 hover:underline"
          >
            {moreLabel}
            <ArrowRight aria-hidden className="size-4" />
          </Link>
        </div>
        {children}
      </div>
    </section>
  );
}

function EmptyState({ title, text }: { title: string; text: string }) {
  return (
    <div className="rounded-xl border border-dashed border-border px-6 py-12 text-center">
      <h3 className="text-lg font-semibold">{title}</h3>
      <p className="mt-1 text-muted-foreground">{text}</p>
    </div>
  );
}
