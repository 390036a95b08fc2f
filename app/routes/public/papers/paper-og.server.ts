import { formatDate } from "~/lib/format";
import { type OgCard, ogShareImage } from "~/lib/og-image.server";
import type { PaperDetail } from "~/models/papers/queries.server";

const PAPER_COLOR = "#0E7C66";

/** A paper's share card: authors and publication date under the title. */
export function paperOgCard(
  paper: Pick<PaperDetail, "title" | "authors" | "category" | "publishedDate">,
): OgCard {
  const authors =
    paper.authors.length > 3
      ? `${paper.authors.slice(0, 3).join(", ")} et al.`
      : paper.authors.join(", ");
  return {
    kicker: paper.category ? `Research paper · ${paper.category}` : "Research paper",
    title: paper.title,
    lines: [
      authors,
      paper.publishedDate ? `Published ${formatDate(paper.publishedDate)}` : "",
    ].filter(Boolean),
    color: PAPER_COLOR,
  };
}

/** The paper's generated share image: its path, versioned by its content, and its alt text. */
export function paperShareImage(paper: Parameters<typeof paperOgCard>[0] & { slug: string }) {
  return ogShareImage(paperOgCard(paper), `/papers/${encodeURIComponent(paper.slug)}/og.png`);
}
