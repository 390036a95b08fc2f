import { data } from "react-router";
import {
  AD_TYPES,
  ADVERTISING_STATS,
  AUDIENCE_BREAKDOWN,
  SPONSORSHIP_TIERS,
  WHY_PARTNER,
} from "~/components/advertising-content";
import {
  AdvertisingPackages,
  AudienceBars,
  type PackageTab,
} from "~/components/advertising-packages";
import { Globe, Lightbulb, Mail, Target, Users } from "~/components/icons";
import { Link } from "~/components/link";
import { buttonVariants } from "~/components/ui/button";
import { env } from "~/lib/env.server";
import { getOptionalUser } from "~/lib/permissions.server";
import { pageMeta } from "~/lib/seo";
import {
  ADVERTISING_EMAIL,
  cacheHeadersFor,
  contactHref,
  sitePageHeaders,
} from "~/lib/site-content";
import { cn } from "~/lib/utils";
import { getSiteFigures, type SiteFigures } from "~/models/site/figures.server";
import type { Route } from "./+types/advertising";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: "Advertising & Sponsorship",
    description:
      "Reach 10,000+ information-management professionals in 25 countries: event sponsorship from $3,000 per event and digital advertising from $500/month.",
    origin: loaderData?.origin ?? "",
    path: "/advertising",
  });

export const headers = sitePageHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const [user, figures] = await Promise.all([getOptionalUser(request), getSiteFigures()]);
  const initialTab: PackageTab =
    url.searchParams.get("tab") === "digital" ? "digital" : "sponsorship";
  return data(
    { origin: env().BASE_URL, initialTab, figures },
    { headers: cacheHeadersFor(user !== null) },
  );
}

/** Members and events are live, from the one count every page shows (decision 0095). */
function advertisingStats(figures: SiteFigures) {
  return ADVERTISING_STATS.map((stat) =>
    stat.label === "Global Members"
      ? { ...stat, value: figures.members.toLocaleString("en-US") }
      : stat.label === "Annual Events"
        ? { label: "Events Hosted", value: figures.events.toLocaleString("en-US") }
        : stat,
  );
}

const WHY_ICONS = [Target, Globe, Lightbulb, Users];

export default function AdvertisingPage({ loaderData }: Route.ComponentProps) {
  return (
    <main id="main">
      <section className="border-b border-border bg-gradient-to-b from-accent to-background">
        <div className="mx-auto max-w-7xl px-4 py-14 text-center sm:py-20">
          <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">
            Advertising &amp; Sponsorship
          </h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">
            Put your organisation in front of the professionals who manage, govern and transform
            information — at our events, on our website and in their inbox.
          </p>
          <dl className="mx-auto mt-10 grid max-w-4xl grid-cols-[repeat(auto-fit,minmax(10rem,1fr))] gap-4 md:grid-cols-4">
            {advertisingStats(loaderData.figures).map((stat) => (
              <div
                key={stat.label}
                className="flex flex-col rounded-xl border border-border bg-card p-5"
              >
                <dt className="text-sm text-muted-foreground">{stat.label}</dt>
                <dd className="order-first text-3xl font-bold text-primary">{stat.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <div className="mx-auto grid max-w-7xl grid-cols-1 gap-20 px-4 py-14">
        <section aria-labelledby="why-partner-heading" className="grid gap-8">
          <h2 id="why-partner-heading" className="text-center text-3xl font-semibold">
            Why Partner with Us
          </h2>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {WHY_PARTNER.map((card, index) => {
              const Icon = WHY_ICONS[index % WHY_ICONS.length];
              return (
                <li key={card.title} className="rounded-xl border border-border bg-card p-6">
                  <Icon aria-hidden className="size-8 text-primary" />
                  <h3 className="mt-4 text-lg font-semibold">{card.title}</h3>
                  <p className="mt-2 text-sm text-muted-foreground">{card.description}</p>
                </li>
              );
            })}
          </ul>
        </section>

        <section aria-labelledby="packages-heading" id="packages" className="grid gap-8">
          <div className="text-center">
            <h2 id="packages-heading" className="text-3xl font-semibold">
              Partnership Packages
            </h2>
            <p className="mt-2 text-muted-foreground">
              Sponsor an event or advertise across our digital channels.
            </p>
          </div>
          <AdvertisingPackages
            tiers={SPONSORSHIP_TIERS}
            adTypes={AD_TYPES}
            initialTab={loaderData.initialTab}
          />
        </section>

        <section
          aria-labelledby="audience-heading"
          className="grid gap-8 rounded-2xl border border-border bg-card p-6 sm:p-10 lg:grid-cols-2"
        >
          <div>
            <h2 id="audience-heading" className="text-3xl font-semibold">
              Our Audience
            </h2>
            <p className="mt-3 text-muted-foreground">
              Our members work across every sector that runs on information. This is how our
              community breaks down by industry.
            </p>
          </div>
          <AudienceBars breakdown={AUDIENCE_BREAKDOWN} />
        </section>

        <section
          aria-labelledby="advertising-cta-heading"
          className="rounded-2xl bg-primary px-6 py-12 text-center text-primary-foreground"
        >
          <h2 id="advertising-cta-heading" className="text-3xl font-semibold">
            Ready to reach our community?
          </h2>
          <p className="mx-auto mt-3 max-w-xl text-blue-50">
            Get our media kit with audience details and rates, or talk to our partnerships team
            about a package built around your goals.
          </p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Link
              to={contactHref("media-kit")}
              className={cn(buttonVariants({ variant: "inverse", size: "lg" }))}
            >
              Request Media Kit
            </Link>
            <Link
              to={contactHref("consultation")}
              className={cn(
                buttonVariants({ variant: "outline", size: "lg" }),
                "border-white bg-transparent text-white hover:bg-white/10",
              )}
            >
              Schedule Consultation
            </Link>
          </div>
          <p className="mt-6 text-blue-50">
            <Mail aria-hidden className="mr-1 inline size-4" />
            Or e-mail{" "}
            <a
              href={`mailto:${ADVERTISING_EMAIL}`}
              className="font-medium break-all text-white underline"
            >
              {ADVERTISING_EMAIL}
            </a>
          </p>
        </section>
      </div>
    </main>
  );
}
