import { Suspense } from "react";
import { Await, data, type ShouldRevalidateFunctionArgs, useSearchParams } from "react-router";
import { Globe, Headphones } from "~/components/icons";
import { Link } from "~/components/link";
import {
  OfficeGrid,
  OfficeStats,
  OfficesAwaitError,
  OfficesLoadError,
  RegionalHighlights,
  RegionFilter,
  selectedRegion,
  summariseRegions,
} from "~/components/office-directory";
import { buttonVariants } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { getOptionalUser } from "~/lib/permissions.server";
import { pageMeta } from "~/lib/seo";
import { cacheHeadersFor, contactHref, sitePageHeaders } from "~/lib/site-content";
import { cn } from "~/lib/utils";
import { getOfficeDirectory, type OfficeDirectory } from "~/models/offices/queries.server";
import type { Route } from "./+types/offices";

const SIGN_IN_HREF = "/auth?redirectTo=/offices";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: "Our Global Offices",
    description:
      "Find Kongamano's regional offices across six continents, from our Nairobi headquarters to teams in every region. Conferences, training and consulting near you.",
    origin: loaderData?.origin ?? "",
    path: "/offices",
  });

export const headers = sitePageHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  const signedIn = user !== null;
  // Streamed: the page shell renders at once and the list follows ('Loading offices...').
  // Visitors' rows never contain address, phone or e-mail: the query does not select them.
  const directory = getOfficeDirectory(signedIn).catch((error: unknown) => {
    logger.error({ err: error }, "failed to load offices");
    throw error;
  });
  return data({ origin: env().BASE_URL, directory }, { headers: cacheHeadersFor(signedIn) });
}

/** Switching the region filter only changes ?region=: the list is already here. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const strip = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete("region");
    return params.toString();
  };
  return strip(currentUrl) === strip(nextUrl) ? false : defaultShouldRevalidate;
}

export default function OfficesPage({ loaderData }: Route.ComponentProps) {
  return (
    <main id="main">
      <section className="border-b border-border bg-gradient-to-b from-accent to-background">
        <div className="mx-auto max-w-7xl px-4 py-14 text-center sm:py-20">
          <p className="inline-flex items-center gap-2 text-sm font-medium text-accent-foreground">
            <Globe aria-hidden className="size-4" /> Worldwide presence
          </p>
          <h1 className="mt-3 text-4xl font-bold tracking-tight sm:text-5xl">Our Global Offices</h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">
            From our headquarters in Nairobi to teams on six continents, our regional offices run
            conferences, training and consulting for information-management professionals close to
            where they work.
          </p>
        </div>
      </section>
      <div className="mx-auto grid max-w-7xl gap-14 px-4 py-12">
        <Suspense fallback={<Spinner label="Loading offices..." className="py-24" />}>
          <Await resolve={loaderData.directory} errorElement={<OfficesAwaitError />}>
            {(directory) => <OfficeDirectoryView directory={directory} />}
          </Await>
        </Suspense>
      </div>
    </main>
  );
}

function OfficeDirectoryView({ directory }: { directory: OfficeDirectory }) {
  const [searchParams] = useSearchParams();
  const offices = directory.offices;
  const regions = summariseRegions(offices);
  const region = selectedRegion(regions, searchParams.get("region"));
  const shown = region ? offices.filter((o) => o.region === region) : offices;

  return (
    <>
      <section aria-labelledby="office-stats-heading">
        <h2 id="office-stats-heading" className="sr-only">
          Our network at a glance
        </h2>
        <OfficeStats count={offices.length} />
      </section>

      <section aria-labelledby="office-list-heading" id="office-list" className="grid gap-6">
        <div className="flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
          <div>
            <h2 id="office-list-heading" className="text-2xl font-semibold">
              {region ? `Offices in ${region}` : "All Offices"}
            </h2>
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {shown.length} {shown.length === 1 ? "office" : "offices"}
              {directory.audience === "public"
                ? " · sign in to see addresses, phone numbers and e-mail"
                : ""}
            </p>
          </div>
          {regions.length > 0 ? <RegionFilter regions={regions} selected={region} /> : null}
        </div>
        <OfficeGrid offices={shown} signInHref={SIGN_IN_HREF} />
      </section>

      <section
        aria-labelledby="office-help-heading"
        className="grid gap-6 rounded-2xl bg-primary px-6 py-10 text-primary-foreground md:grid-cols-[1fr_auto] md:items-center md:px-10"
      >
        <div>
          <h2 id="office-help-heading" className="flex items-center gap-2 text-2xl font-semibold">
            <Headphones aria-hidden className="size-6" /> Need help from our team?
          </h2>
          <p className="mt-2 max-w-2xl text-blue-50">
            Not sure which office to contact? Our global team will route your question to the right
            region, or set up a consultation with one of our specialists.
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Link to={contactHref("global-team")} className={buttonVariants({ variant: "inverse" })}>
            Contact Global Team
          </Link>
          <Link
            to={contactHref("consultation")}
            className={cn(
              buttonVariants({ variant: "outline" }),
              "border-white bg-transparent text-white hover:bg-white/10",
            )}
          >
            Schedule Consultation
          </Link>
        </div>
      </section>

      {regions.length > 0 ? (
        <section aria-labelledby="regional-highlights-heading" className="grid gap-6">
          <h2 id="regional-highlights-heading" className="text-2xl font-semibold">
            Regional Highlights
          </h2>
          <RegionalHighlights regions={regions} />
        </section>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return (
    <main id="main" className="mx-auto max-w-7xl px-4 py-16">
      <h1 className="sr-only">Our Global Offices</h1>
      <OfficesLoadError />
    </main>
  );
}
