import { FileText } from "~/components/icons";
import { Link } from "~/components/link";

export type HomePaper = {
  slug: string;
  title: string;
  authors: string[];
  abstract: string | null;
  /** 'MMM d, yyyy', or null when the paper has no published date. */
  publishedLabel: string | null;
  category: string | null;
};

/** A compact paper card for the home page's 'Latest Research Papers'. */
export function HomePaperCard({ paper }: { paper: HomePaper }) {
  return (
    <article className="flex h-full flex-col gap-3 rounded-xl border border-border bg-card p-5 shadow-sm">
      <div className="flex items-center justify-between gap-2 text-sm text-muted-foreground">
        <span className="inline-flex items-center gap-1.5">
          <FileText aria-hidden className="size-4 text-primary-700" />
          {paper.category ?? "Research"}
        </span>
        <span>{paper.publishedLabel ?? "No date"}</span>
      </div>
      <h3 className="text-lg font-semibold leading-snug">
        <Link
          to={`/papers/${encodeURIComponent(paper.slug)}`}
          className="hover:text-primary hover:underline"
        >
          {paper.title}
        </Link>
      </h3>
      <p className="text-sm font-medium text-slate-700">{paper.authors.join(", ")}</p>
      {paper.abstract ? (
        <p className="line-clamp-3 text-sm text-muted-foreground">{paper.abstract}</p>
      ) : null}
    </article>
  );
}
