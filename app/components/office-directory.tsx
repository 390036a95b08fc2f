import { Form, useAsyncError, useLocation } from "react-router";
import { AlertTriangle, MapPin } from "~/components/icons";
import { Link } from "~/components/link";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { OFFICE_STATS_STATIC } from "~/lib/site-content";
import { cn } from "~/lib/utils";
import { type DirectoryOffice, OfficeCard, RegionDot } from "./office-card";

export type RegionSummary = { region: string; count: number; cities: string[] };

/** One entry per distinct region (in the offices' order) with its office count and cities. */
export function summariseRegions(list: readonly DirectoryOffice[]): RegionSummary[] {
  const byRegion = new Map<string, RegionSummary>();
  for (const office of list) {
    const entry = byRegion.get(office.region) ?? { region: office.region, count: 0, cities: [] };
    entry.count += 1;
    if (!entry.cities.includes(office.city)) entry.cities.push(office.city);
    byRegion.set(office.region, entry);
  }
  return [...byRegion.values()];
}

/** The region named in the URL, matched case-insensitively against the known regions. */
export function selectedRegion(regions: readonly RegionSummary[], param: string | null) {
  const wanted = param?.trim().toLowerCase();
  if (!wanted) return null;
  return regions.find((r) => r.region.toLowerCase() === wanted)?.region ?? null;
}

/** The four stats of spec §2.10: the live office count and three fixed figures. */
export function OfficeStats({ count }: { count: number }) {
  const stats = [{ value: String(count), label: "Offices" }, ...OFFICE_STATS_STATIC];
  return (
    <dl className="grid grid-cols-2 gap-4 md:grid-cols-4">
      {stats.map((stat) => (
        <div
          key={stat.label}
          className="flex flex-col rounded-xl border border-border bg-card p-5 text-center"
        >
          <dt className="text-sm text-muted-foreground">{stat.label}</dt>
          <dd className="order-first text-3xl font-bold text-primary">{stat.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * 'All Regions' plus one button per region. A GET form, so it works without JavaScript; the
 * selection lives in the URL (?region=…).
 */
export function RegionFilter({
  regions,
  selected,
}: {
  regions: readonly RegionSummary[];
  selected: string | null;
}) {
  const buttonClass = (active: boolean) =>
    cn(
      buttonVariants({ variant: active ? "default" : "outline", size: "sm" }),
      "rounded-full",
      active ? "" : "text-foreground",
    );
  return (
    <Form
      method="get"
      preventScrollReset
      replace
      aria-label="Filter offices by region"
      className="flex flex-wrap gap-2"
    >
      <button type="submit" aria-pressed={selected === null} className={buttonClass(!selected)}>
        All Regions
      </button>
      {regions.map(({ region }) => (
        <button
          key={region}
          type="submit"
          name="region"
          value={region}
          aria-pressed={selected === region}
          className={buttonClass(selected === region)}
        >
          <RegionDot region={region} />
          {region}
        </button>
      ))}
    </Form>
  );
}

export function OfficeGrid({
  offices,
  signInHref,
  columns = 3,
  compact = false,
}: {
  offices: readonly DirectoryOffice[];
  signInHref: string;
  columns?: 3 | 4;
  compact?: boolean;
}) {
  if (offices.length === 0) {
    return (
      <div className="rounded-xl border border-dashed border-border p-10 text-center">
        <MapPin aria-hidden className="mx-auto size-8 text-muted-foreground" />
        <p className="mt-2 font-medium">No Offices Available</p>
        <p className="text-sm text-muted-foreground">
          Our regional offices will be listed here soon.
        </p>
      </div>
    );
  }
  return (
    <ul
      className={cn(
        "grid gap-6 sm:grid-cols-2",
        columns === 4 ? "lg:grid-cols-3 xl:grid-cols-4" : "lg:grid-cols-3",
      )}
    >
      {offices.map((office) => (
        <li key={office.id}>
          <OfficeCard office={office} signInHref={signInHref} compact={compact} />
        </li>
      ))}
    </ul>
  );
}

/** A card per region with its office count and cities; 'View Details' filters the list. */
export function RegionalHighlights({ regions }: { regions: readonly RegionSummary[] }) {
  if (regions.length === 0) return null;
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {regions.map((summary) => (
        <li key={summary.region}>
          <Card className="h-full">
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <RegionDot region={summary.region} />
                {summary.region}
              </CardTitle>
              <p className="text-sm text-muted-foreground">
                {summary.count} {summary.count === 1 ? "office" : "offices"}
              </p>
            </CardHeader>
            <CardContent className="text-sm">{summary.cities.join(", ")}</CardContent>
            <CardFooter>
              <Link
                to={`/offices?region=${encodeURIComponent(summary.region)}#office-list`}
                className={buttonVariants({ variant: "outline", size: "sm" })}
                aria-label={`View Details: ${summary.region}`}
              >
                View Details
              </Link>
            </CardFooter>
          </Card>
        </li>
      ))}
    </ul>
  );
}

/** 'Failed to load offices' with Retry, which reloads the page (spec §2.10, §8). */
export function OfficesLoadError() {
  const location = useLocation();
  return (
    <div
      role="alert"
      className="mx-auto grid max-w-md justify-items-center gap-3 rounded-xl border border-red-300 bg-red-50 p-8 text-center text-red-900"
    >
      <AlertTriangle aria-hidden className="size-8" />
      <p className="text-lg font-semibold">Failed to load offices</p>
      <p className="text-sm">Please check your connection and try again.</p>
      <Button asChild variant="outline">
        <a href={`${location.pathname}${location.search}`}>Retry</a>
      </Button>
    </div>
  );
}

/** The errorElement of an <Await> of offices: logs the error and shows OfficesLoadError. */
export function OfficesAwaitError() {
  const error = useAsyncError();
  if (typeof window !== "undefined") console.error("Failed to load offices", error);
  return <OfficesLoadError />;
}
