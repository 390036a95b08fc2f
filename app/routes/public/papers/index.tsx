import { data, redirect, useNavigation } from "react-router";
import {
  BookOpenCheck,
  ChevronLeft,
  ChevronRight,
  Download,
  FileSearch,
  Send,
} from "~/components/icons";
import { Link } from "~/components/link";
import { OpenCalls } from "~/components/open-calls";
import { PaperCard } from "~/components/paper-card";
import { PaperFiltersForm } from "~/components/paper-filters-form";
import { PaperGuidelines } from "~/components/paper-guidelines";
import { buttonVariants } from "~/components/ui/button";
import { env } from "~/lib/env.server";
import { formatDate } from "~/lib/format";
import { getOptionalUser } from "~/lib/permissions.server";
import { pageMeta } from "~/lib/seo";
import { cacheHeadersFor, sitePageHeaders } from "~/lib/site-content";
import { cn } from "~/lib/utils";
import { listOpenCallItems } from "~/models/cfp/queries.server";
import {
  BULK_DOWNLOAD_LIMIT,
  hasActiveFilters,
  type PaperFilters,
  paperFiltersQuery,
  papersHref,
  parsePaperFilters,
  SEARCH_COUNT_CAP,
} from "~/models/papers/filters";
import { countPapers, listPapers, paperViewer } from "~/models/papers/queries.server";
import type { Route } from "./+types/index";

const FILTER_KEYS = ["search", "status", "sort", "page"] as const;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const filters = parsePaperFilters(url.searchParams);
  // One URL per result set (defaults omitted, as a GET form without JavaScript would not do).
  const canonical = new URLSearchParams(paperFiltersQuery(filters));
  if (FILTER_KEYS.some((key) => url.searchParams.get(key) !== canonical.get(key))) {
    throw redirect(papersHref(filters));
  }

  const user = await getOptionalUser(request);
  const viewer = paperViewer(user);
  const [list, counts, openCalls] = await Promise.all([
    listPapers(filters, viewer),
    countPapers(),
    listOpenCallItems(),
  ]);
  if (filters.page > list.pageCount)
    throw redirect(papersHref({ ...filters, page: list.pageCount }));

  return data(
    {
      filters,
      papers: list.papers.map((paper) => ({
        ...paper,
        publishedOn: paper.publishedDate ? formatDate(paper.publishedDate) : null,
      })),
      total: list.total,
      capped: list.capped,
      pageCount: list.pageCount,
      counts,
      canSeeAll: viewer.canSeeAll,
      openCalls,
      origin: new URL(env().BASE_URL).origin,
    },
    { headers: cacheHeadersFor(Boolean(user)) },
  );
}

export const headers = sitePageHeaders;

export const meta: Route.MetaFunction = ({ data, location }) => {
  const origin = data?.origin ?? "";
  const filters = data?.filters;
  return [
    ...pageMeta({
      title: "Research Papers Library",
      description:
        "Search the Kongamano research library: papers on data governance, information management and digital transformation, with PDFs, citations, BibTeX and RIS.",
      origin,
      path: filters ? papersHref(filters) : location.pathname,
    }),
    {
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: "Kongamano research papers",
      href: `${origin}/papers/rss.xml`,
    },
  ];
};

export default function PapersIndex({ loaderData }: Route.ComponentProps) {
  const { filters, papers, total, capped, pageCount, counts, canSeeAll, openCalls } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "loading" && navigation.location?.pathname === "/papers";
  const bulkQuery = paperFiltersQuery({ ...filters, page: 1 });

  return (
    <main id="main">
      <section className="bg-gradient-to-br from-primary to-primary-700 text-primary-foreground">
        <div className="mx-auto max-w-6xl px-4 py-12 md:py-16">
          <h1 className="text-3xl font-bold tracking-tight md:text-4xl">Research Papers Library</h1>
          <p className="mt-3 max-w-2xl text-lg text-blue-50">
            Research from our network on data governance, information management and digital
            transformation, free to read, cite and download.
          </p>
          <dl className="mt-8 grid max-w-xl grid-cols-[repeat(auto-fit,minmax(6rem,1fr))] gap-3">
            {/* Visitors are listed published papers only: their total is what they can open. */}
            <Stat label="Total Papers" value={canSeeAll ? counts.total : counts.published} />
            <Stat label="Published" value={counts.published} />
            <Stat label="In Progress" value={counts.inProgress} />
          </dl>
        </div>
      </section>

      <section aria-labelledby="papers-heading" className="mx-auto max-w-6xl px-4 py-8">
        <h2 id="papers-heading" className="sr-only">
          Papers
        </h2>
        <div className="rounded-xl border border-border bg-card p-4 shadow-sm md:p-5">
          <PaperFiltersForm filters={filters} />
          {canSeeAll ? (
            <p className="mt-3 text-sm text-muted-foreground">
              As an editor you also see unpublished papers; each card shows its status.
            </p>
          ) : null}
        </div>

        <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
          <p role="status" className="font-medium">
            {capped
              ? `${SEARCH_COUNT_CAP.toLocaleString("en-US")}+ papers found`
              : `${total.toLocaleString("en-US")} ${total === 1 ? "paper" : "papers"} found`}
          </p>
          <BulkDownload total={total} query={bulkQuery} />
        </div>

        <div aria-busy={busy} className={cn("mt-4 transition-opacity", busy && "opacity-60")}>
          {papers.length > 0 ? (
            <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
              {papers.map((paper) => (
                <li key={paper.id} className="flex [&>article]:w-full">
                  <PaperCard paper={paper} />
                </li>
              ))}
            </ul>
          ) : (
            <EmptyState filters={filters} canSeeAll={canSeeAll} />
          )}
        </div>

        {pageCount > 1 ? <Pagination filters={filters} pageCount={pageCount} /> : null}
      </section>

      <section aria-labelledby="submit-heading" className="bg-muted">
        <div className="mx-auto flex max-w-6xl flex-col items-start gap-6 px-4 py-12 md:flex-row md:items-center md:justify-between">
          <div className="max-w-2xl">
            <h2 id="submit-heading" className="text-2xl font-semibold">
              Submit Your Research
            </h2>
            <p className="mt-2 text-muted-foreground">
              Share your work with information-management professionals around the world. Our
              editors review every submission and publish accepted papers in this library.
            </p>
          </div>
          <div className="flex flex-wrap gap-3">
            <SubmitPaperButton calls={openCalls} />
            <a href="#guidelines" className={buttonVariants({ variant: "outline", size: "lg" })}>
              <BookOpenCheck aria-hidden />
              Review Guidelines
            </a>
          </div>
        </div>
      </section>

      {openCalls.length > 0 ? (
        <div id="open-calls" className="mx-auto max-w-6xl scroll-mt-24 px-4 pt-12">
          <OpenCalls calls={openCalls} headingId="open-calls-heading" />
        </div>
      ) : null}

      <PaperGuidelines hasOpenCall={openCalls.length > 0} />
    </main>
  );
}

/**
 * 'Submit Paper' leads where a paper can be sent: the one open call's form, the list of open
 * calls when there are several, and says so when none is open (issue 32).
 */
function SubmitPaperButton({ calls }: { calls: { submitHref: string }[] }) {
  if (calls.length === 0) {
    return (
      // Not a button that leads nowhere: a note in its place, which wraps on a narrow phone.
      <span className="inline-flex min-h-11 items-center gap-2 rounded-md border border-border bg-background px-4 py-2 text-base font-medium text-slate-700 [&_svg]:size-4 [&_svg]:shrink-0">
        <Send aria-hidden />
        Submit Paper: no call is open now
      </span>
    );
  }
  return (
    <Link
      to={calls.length === 1 ? calls[0].submitHref : "#open-calls"}
      className={buttonVariants({ size: "lg" })}
    >
      <Send aria-hidden />
      Submit Paper
    </Link>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg bg-slate-950/15 px-3 py-3 ring-1 ring-white/25">
      <dt className="text-xs text-blue-50 sm:text-sm">{label}</dt>
      <dd className="text-2xl font-bold">{value.toLocaleString("en-US")}</dd>
    </div>
  );
}

function BulkDownload({ total, query }: { total: number; query: string }) {
  if (total === 0) return null;
  if (total > BULK_DOWNLOAD_LIMIT) {
    return (
      <p className="max-w-md text-sm text-muted-foreground">
        Bulk Download takes up to {BULK_DOWNLOAD_LIMIT} papers at a time: narrow your search or
        filters to download these.
      </p>
    );
  }
  return (
    <a
      href={`/papers/bulk-download.zip${query ? `?${query}` : ""}`}
      className={buttonVariants({ variant: "outline" })}
    >
      <Download aria-hidden />
      Bulk Download
      <span className="sr-only">
        {" "}
        ({total} {total === 1 ? "paper" : "papers"}, ZIP with PDFs and citations.bib)
      </span>
    </a>
  );
}

function EmptyState({ filters, canSeeAll }: { filters: PaperFilters; canSeeAll: boolean }) {
  const draftsHidden = filters.status === "draft" && !canSeeAll;
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed border-border px-6 py-14 text-center">
      <FileSearch aria-hidden className="size-10 text-muted-foreground" />
      <h3 className="mt-4 text-lg font-semibold">No papers found</h3>
      <p className="mt-1 max-w-md text-muted-foreground">
        {draftsHidden
          ? "Papers in progress are visible to editors only."
          : hasActiveFilters(filters)
            ? "Try different search terms or another status."
            : "No research papers have been published yet. Please check back soon."}
      </p>
      <Link to="/papers" className={cn(buttonVariants({ variant: "outline" }), "mt-5")}>
        Clear Filters
      </Link>
    </div>
  );
}

function Pagination({ filters, pageCount }: { filters: PaperFilters; pageCount: number }) {
  const { page } = filters;
  const linkClass = buttonVariants({ variant: "outline", size: "sm" });
  return (
    <nav aria-label="Pagination" className="mt-8 flex items-center justify-center gap-3">
      {page > 1 ? (
        <Link to={papersHref({ ...filters, page: page - 1 })} className={linkClass} rel="prev">
          <ChevronLeft aria-hidden />
          Previous
        </Link>
      ) : null}
      <span className="text-sm text-muted-foreground" aria-current="page">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={papersHref({ ...filters, page: page + 1 })} className={linkClass} rel="next">
          Next
          <ChevronRight aria-hidden />
        </Link>
      ) : null}
    </nav>
  );
}
