import type { ReactNode } from "react";
import { data, isRouteErrorResponse, redirect, useRouteError } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screens";
import {
  ArrowLeft,
  CalendarDays,
  FileSearch,
  Flag,
  Library,
  LifeBuoy,
  UserRoundSearch,
  Users,
} from "~/components/icons";
import { Link } from "~/components/link";
import { PaperActions, PaperCitation } from "~/components/paper-actions";
import { PaperStatusBadge } from "~/components/paper-status-badge";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import { formatCitation } from "~/lib/citations";
import { ORGANISATION_NAME, statusLabel } from "~/lib/constants";
import { env } from "~/lib/env.server";
import { formatDate } from "~/lib/format";
import { getOptionalUser } from "~/lib/permissions.server";
import { jsonLd, pageMeta } from "~/lib/seo";
import { cacheHeadersFor, sitePageHeaders } from "~/lib/site-content";
import { cn } from "~/lib/utils";
import { papersHref } from "~/models/papers/filters";
import { findVisiblePaper, listSimilarPapers, paperViewer } from "~/models/papers/queries.server";
import type { Route } from "./+types/detail";
import { paperShareImage } from "./paper-og.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  const viewer = paperViewer(user);
  const paper = await findVisiblePaper(params.slug, viewer);
  if (!paper) throw data("Paper Not Found", { status: 404 });
  // Old links by id (and any other alias) move permanently to the readable slug URL.
  if (paper.slug !== params.slug) throw redirect(`/papers/${paper.slug}`, 301);

  const similar = await listSimilarPapers(paper, viewer);
  const { pdfUrl, ...rest } = paper;
  // Dates are formatted here so the browser needs no date library.
  const formatted = (date: string | Date | null) => (date ? formatDate(date) : null);
  return data(
    {
      paper: {
        ...rest,
        hasPdf: Boolean(pdfUrl),
        publishedOn: formatted(paper.publishedDate),
        addedOn: formatDate(paper.createdAt),
        shareImage: paperShareImage(paper),
      },
      similar: similar.map((item) => ({ ...item, publishedOn: formatted(item.publishedDate) })),
      citation: formatCitation(paper),
      origin: new URL(env().BASE_URL).origin,
    },
    { headers: cacheHeadersFor(Boolean(user)) },
  );
}

export const headers = sitePageHeaders;

/** Google Scholar wants 'YYYY/MM/DD'. */
function scholarDate(date: string) {
  return date.slice(0, 10).replaceAll("-", "/");
}

export const meta: Route.MetaFunction = ({ data, error }) => {
  if (!data || error) {
    return [
      { title: `Paper Not Found | ${ORGANISATION_NAME}` },
      { name: "robots", content: "noindex" },
    ];
  }
  const { paper, origin } = data;
  const url = `${origin}/papers/${paper.slug}`;
  const pdfUrl = paper.hasPdf ? `${url}/pdf` : null;
  const description =
    paper.abstract?.replace(/\s+/g, " ").trim().slice(0, 200) ||
    `${paper.title}, by ${paper.authors.join(", ")}.`;
  return [
    ...pageMeta({
      title: paper.title,
      description,
      origin,
      path: `/papers/${paper.slug}`,
      type: "article",
      image: paper.shareImage,
      noindex: paper.status !== "published",
    }),
    // Google Scholar inclusion guidelines: one citation_author per author.
    { name: "citation_title", content: paper.title },
    ...paper.authors.map((author) => ({ name: "citation_author", content: author })),
    ...(paper.publishedDate
      ? [{ name: "citation_publication_date", content: scholarDate(paper.publishedDate) }]
      : []),
    ...(pdfUrl ? [{ name: "citation_pdf_url", content: pdfUrl }] : []),
    { name: "citation_abstract_html_url", content: url },
    { name: "citation_technical_report_institution", content: ORGANISATION_NAME },
    ...(paper.tags?.length ? [{ name: "citation_keywords", content: paper.tags.join("; ") }] : []),
    jsonLd({
      "@context": "https://schema.org",
      "@type": "ScholarlyArticle",
      headline: paper.title.slice(0, 110),
      name: paper.title,
      author: paper.authors.map((name) => ({ "@type": "Person", name })),
      ...(paper.publishedDate ? { datePublished: paper.publishedDate } : {}),
      dateCreated: new Date(paper.createdAt).toISOString(),
      dateModified: new Date(paper.updatedAt).toISOString(),
      ...(paper.abstract ? { abstract: paper.abstract } : {}),
      ...(paper.tags?.length ? { keywords: paper.tags.join(", ") } : {}),
      ...(paper.category ? { about: paper.category } : {}),
      image: [new URL(paper.shareImage.url, origin).toString()],
      url,
      mainEntityOfPage: url,
      inLanguage: "en",
      isAccessibleForFree: true,
      publisher: { "@type": "Organization", name: ORGANISATION_NAME, url: origin },
      ...(pdfUrl
        ? {
            encoding: {
              "@type": "MediaObject",
              encodingFormat: "application/pdf",
              contentUrl: pdfUrl,
            },
          }
        : {}),
    }),
  ];
};

export default function PaperDetail({ loaderData }: Route.ComponentProps) {
  const { paper, citation, similar, origin } = loaderData;
  const url = `${origin}/papers/${paper.slug}`;
  const tags = paper.tags ?? [];
  const firstAuthor = paper.authors[0];
  const { publishedOn } = paper;

  return (
    <main id="main">
      <section className="bg-gradient-to-br from-primary to-primary-700 text-primary-foreground">
        <div className="mx-auto max-w-6xl px-4 py-10 md:py-14">
          <Link
            to="/papers"
            className="inline-flex items-center gap-1 rounded-sm text-sm text-blue-50 hover:underline focus-visible:outline-white"
          >
            <ArrowLeft aria-hidden className="size-4" />
            Back to Research Papers
          </Link>
          <div className="mt-5">
            <PaperStatusBadge status={paper.status} />
          </div>
          <h1 className="mt-3 max-w-4xl text-3xl leading-tight font-bold tracking-tight md:text-4xl">
            {paper.title}
          </h1>
          <p className="mt-3 flex items-start gap-2 text-lg text-blue-50">
            <Users aria-hidden className="mt-1 size-5 shrink-0" />
            <span>{paper.authors.join(", ")}</span>
          </p>
          <p className="mt-2 flex items-center gap-2 text-blue-50">
            <CalendarDays aria-hidden className="size-5 shrink-0" />
            {publishedOn ? `Published ${publishedOn}` : "Not published yet"}
          </p>
          <div className="mt-6">
            <PaperActions
              title={paper.title}
              slug={paper.slug}
              url={url}
              citation={citation}
              hasPdf={paper.hasPdf}
            />
          </div>
        </div>
      </section>

      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="grid content-start gap-8">
          {paper.status !== "published" ? (
            <Alert>
              <AlertDescription>
                This paper is {statusLabel(paper.status).toLowerCase()}: only editors and admins can
                see it until it is published.
              </AlertDescription>
            </Alert>
          ) : null}

          <Section id="abstract" title="Abstract">
            {paper.abstract ? (
              <div className="grid gap-3 leading-relaxed text-slate-800">
                {paper.abstract
                  .split(/\n\s*\n/)
                  .filter((p) => p.trim())
                  .map((paragraph, i) => (
                    <p key={i}>{paragraph}</p>
                  ))}
              </div>
            ) : (
              <p className="text-muted-foreground">No abstract is available for this paper.</p>
            )}
          </Section>

          <Section id="tags" title="Tags">
            {tags.length ? (
              <ul className="flex flex-wrap gap-2">
                {tags.map((tag) => (
                  <li key={tag}>
                    <Link
                      to={papersHref({ search: tag })}
                      className="rounded-full focus-visible:outline-2"
                    >
                      <Badge variant="secondary" className="text-sm hover:bg-slate-200">
                        {tag}
                      </Badge>
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-muted-foreground">No tags yet.</p>
            )}
          </Section>

          <Section id="citation" title="Citation">
            <PaperCitation slug={paper.slug} citation={citation} />
          </Section>

          <Section id="similar-papers" title="Similar Papers">
            {similar.length ? (
              <ul className="grid gap-3">
                {similar.map((item) => (
                  <li
                    key={item.id}
                    className="rounded-lg border border-border bg-card p-4 shadow-sm"
                  >
                    <Link
                      to={`/papers/${item.slug}`}
                      className="font-semibold hover:text-primary hover:underline"
                    >
                      {item.title}
                    </Link>
                    <p className="mt-1 text-sm text-muted-foreground">
                      {item.authors.join(", ")}
                      {item.publishedOn ? ` · ${item.publishedOn}` : ""}
                    </p>
                    {item.sharedTags.length ? (
                      <p className="mt-1 text-sm text-slate-700">
                        Shared tags: {item.sharedTags.join(", ")}
                      </p>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-muted-foreground">
                No other papers share this paper's tags or category yet.{" "}
                <Link to="/papers" className="text-primary underline underline-offset-4">
                  Browse all papers
                </Link>
              </p>
            )}
          </Section>
        </div>

        <aside className="grid content-start gap-6" aria-label="About this paper">
          <SideCard title="Paper Information">
            <dl className="grid gap-3 text-sm">
              <InfoRow label="Status">
                <PaperStatusBadge status={paper.status} />
              </InfoRow>
              <InfoRow label="Published">{publishedOn ?? "Not published"}</InfoRow>
              <InfoRow label="Category">{paper.category || "General"}</InfoRow>
              <InfoRow label="Added">{paper.addedOn}</InfoRow>
              <InfoRow label="Downloads">{paper.downloadCount.toLocaleString("en-US")}</InfoRow>
              <InfoRow label="Format">{paper.hasPdf ? "PDF" : "No PDF available"}</InfoRow>
            </dl>
          </SideCard>

          <SideCard title="Authors">
            <ul className="grid gap-2 text-sm">
              {paper.authors.map((author) => (
                <li key={author}>
                  <Link
                    to={papersHref({ search: author })}
                    className="text-primary underline-offset-4 hover:underline"
                  >
                    {author}
                  </Link>
                </li>
              ))}
            </ul>
          </SideCard>

          <SideCard title="Need Help?">
            <p className="text-sm text-muted-foreground">
              Trouble downloading or citing this paper? Our team replies within 24 hours.
            </p>
            <Link
              to="/contact?topic=support"
              className={cn(buttonVariants({ variant: "outline", size: "sm" }), "mt-3 w-full")}
            >
              <LifeBuoy aria-hidden />
              Contact Support
            </Link>
          </SideCard>

          <SideCard title="Actions">
            <div className="grid gap-2">
              <a href="#similar-papers" className={sideAction}>
                <Library aria-hidden />
                View Similar Papers
              </a>
              {firstAuthor ? (
                <Link to={papersHref({ search: firstAuthor })} className={sideAction}>
                  <UserRoundSearch aria-hidden />
                  Follow Author
                </Link>
              ) : null}
              <Link
                to={`/contact?${new URLSearchParams({ topic: "report-issue", paper: paper.title })}`}
                className={sideAction}
              >
                <Flag aria-hidden />
                Report Issue
              </Link>
            </div>
          </SideCard>
        </aside>
      </div>
    </main>
  );
}

const sideAction = cn(
  buttonVariants({ variant: "ghost", size: "sm" }),
  "w-full justify-start border border-border",
);

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-24">
      <h2 id={`${id}-heading`} className="mb-3 text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function SideCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-xl border border-border bg-card p-5 shadow-sm">
      <h2 className="mb-3 text-base font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function InfoRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium">{children}</dd>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <main
        id="main"
        className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center"
      >
        <FileSearch aria-hidden className="size-12 text-muted-foreground" />
        <h1 className="text-3xl font-bold">Paper Not Found</h1>
        <p className="text-muted-foreground">
          The research paper you're looking for doesn't exist or has been removed.
        </p>
        <Link to="/papers" className={buttonVariants()}>
          Browse All Papers
        </Link>
      </main>
    );
  }
  return <GeneralErrorBoundary />;
}
