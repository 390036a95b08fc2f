import { CalendarDays, Download, FileText } from "~/components/icons";
import { Link } from "~/components/link";
import { PaperStatusBadge } from "~/components/paper-status-badge";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/lib/utils";

/** Spec §9: a paper card shows at most 3 tags. */
export const CARD_TAG_LIMIT = 3;

export type PaperCardProps = {
  paper: {
    slug: string;
    title: string;
    authors: string[];
    abstract: string | null;
    tags: string[] | null;
    status: string;
    publishedDate: string | null;
    /** `publishedDate` formatted on the server ('MMM d, yyyy'): no date library in the browser. */
    publishedOn: string | null;
    hasPdf: boolean;
    downloadCount: number;
  };
  /** Heading level of the title inside the page's outline. */
  headingLevel?: "h2" | "h3";
};

export function downloadsLabel(count: number) {
  return `${count.toLocaleString("en-US")} ${count === 1 ? "download" : "downloads"}`;
}

/** Paper card (spec §2.6). */
export function PaperCard({ paper, headingLevel: Heading = "h3" }: PaperCardProps) {
  const tags = paper.tags ?? [];
  const hiddenTags = tags.length - CARD_TAG_LIMIT;
  const href = `/papers/${paper.slug}`;
  return (
    <article
      data-testid="paper-card"
      className="flex flex-col rounded-xl border border-border bg-card p-5 shadow-sm transition-shadow hover:shadow-md"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <PaperStatusBadge status={paper.status} />
        <span className="inline-flex items-center gap-1 text-sm text-muted-foreground">
          <CalendarDays aria-hidden className="size-4" />
          {paper.publishedDate && paper.publishedOn ? (
            <time dateTime={paper.publishedDate}>{paper.publishedOn}</time>
          ) : (
            "No date"
          )}
        </span>
      </div>
      <Heading className="mt-3 text-lg leading-snug font-semibold">
        <Link to={href} className="rounded-sm hover:text-primary hover:underline">
          {paper.title}
        </Link>
      </Heading>
      <p className="mt-1 text-sm text-muted-foreground">{paper.authors.join(", ")}</p>
      {paper.abstract ? (
        <p className="mt-3 line-clamp-3 text-sm text-slate-700">{paper.abstract}</p>
      ) : null}
      {tags.length > 0 ? (
        <ul className="mt-3 flex flex-wrap gap-1.5" aria-label="Tags">
          {tags.slice(0, CARD_TAG_LIMIT).map((tag) => (
            <li key={tag}>
              <Badge variant="secondary">{tag}</Badge>
            </li>
          ))}
          {hiddenTags > 0 ? (
            <li>
              <Badge variant="outline">+{hiddenTags} more</Badge>
            </li>
          ) : null}
        </ul>
      ) : null}
      <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-5">
        <span className="inline-flex items-center gap-1 text-sm text-muted-foreground">
          <Download aria-hidden className="size-4" />
          {downloadsLabel(paper.downloadCount)}
        </span>
        <div className="flex items-center gap-2">
          {paper.hasPdf ? (
            <a
              href={`${href}/pdf`}
              className={cn(buttonVariants({ variant: "outline", size: "sm" }))}
            >
              <FileText aria-hidden />
              PDF<span className="sr-only"> of {paper.title}</span>
            </a>
          ) : null}
          <Link to={href} className={buttonVariants({ size: "sm" })}>
            View Details<span className="sr-only">: {paper.title}</span>
          </Link>
        </div>
      </div>
    </article>
  );
}
