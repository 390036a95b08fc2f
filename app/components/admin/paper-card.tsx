import { Link } from "react-router";
import { ConfirmDeleteDialog } from "~/components/admin/confirm-delete-dialog";
import { EntityCard } from "~/components/admin/entity-card";
import { FileText, Pencil } from "~/components/icons";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import { paperStatusBadgeVariant, statusLabel } from "~/lib/constants";
import { formatDate } from "~/lib/format";

export type PaperCardItem = {
  id: string;
  title: string;
  authors: string[];
  category: string | null;
  status: string;
  publishedDate: string | null;
  pdfUrl: string | null;
};

/** One paper in the admin grid (spec §2.15): status, authors, published date or 'Not published'. */
export function PaperCard({ paper }: { paper: PaperCardItem }) {
  return (
    <EntityCard
      title={paper.title}
      badges={
        <>
          <Badge variant={paperStatusBadgeVariant(paper.status)}>{statusLabel(paper.status)}</Badge>
          {paper.category ? <Badge variant="outline">{paper.category}</Badge> : null}
        </>
      }
      actions={
        <>
          <Link
            to={`/admin/papers/${paper.id}/edit`}
            className={buttonVariants({ variant: "outline", size: "sm" })}
            aria-label={`Edit ${paper.title}`}
          >
            <Pencil aria-hidden />
            Edit
          </Link>
          <ConfirmDeleteDialog itemName={paper.title} fields={{ intent: "delete", id: paper.id }} />
        </>
      }
    >
      <p className="text-foreground">{paper.authors.join(", ")}</p>
      <p>
        {paper.publishedDate ? `Published ${formatDate(paper.publishedDate)}` : "Not published"}
      </p>
      {paper.pdfUrl ? (
        <p>
          <a
            href={paper.pdfUrl}
            className="inline-flex items-center gap-1 text-primary underline underline-offset-4"
            target="_blank"
            rel="noopener noreferrer"
          >
            <FileText aria-hidden className="size-4" />
            PDF<span className="sr-only"> of {paper.title}</span>
          </a>
        </p>
      ) : null}
    </EntityCard>
  );
}
