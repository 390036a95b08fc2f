import { Link } from "react-router";
import { ConfirmDeleteDialog } from "~/components/admin/confirm-delete-dialog";
import { EntityCard } from "~/components/admin/entity-card";
import { Pencil } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button";
import { eventCountLabel } from "~/lib/format";
import { isHexColor, readableTextColor } from "./category-colors";

export type TaxonomyCardItem = {
  id: string;
  name: string;
  color: string | null;
  icon: string | null;
  description: string | null;
  industrySector: string | null;
  eventCount: number;
};

/** The colour of a category or type as a badge in that colour (spec §2.15). */
export function ColorBadge({ color }: { color: string }) {
  return (
    <span
      className="inline-flex items-center rounded-full border border-transparent px-2.5 py-0.5 font-mono text-xs font-medium"
      style={{ backgroundColor: color, color: readableTextColor(color) }}
    >
      {color.toUpperCase()}
    </span>
  );
}

/** One category or event type in the 'Categories & Types' grids, with edit and delete. */
export function TaxonomyCard({
  item,
  kind,
}: {
  item: TaxonomyCardItem;
  kind: "category" | "type";
}) {
  const editHref =
    kind === "category"
      ? `/admin/event-categories/${item.id}/edit`
      : `/admin/event-types/${item.id}/edit`;
  const noun = kind === "category" ? "category" : "type";
  return (
    <EntityCard
      headingLevel={3}
      title={item.name}
      badges={
        <>
          {isHexColor(item.color) ? <ColorBadge color={item.color} /> : null}
          <span className="text-xs text-muted-foreground">{eventCountLabel(item.eventCount)}</span>
        </>
      }
      actions={
        <>
          <Link
            to={editHref}
            className={buttonVariants({ variant: "outline", size: "sm" })}
            aria-label={`Edit ${item.name}`}
          >
            <Pencil aria-hidden />
            Edit
          </Link>
          <ConfirmDeleteDialog
            itemName={item.name}
            fields={{ intent: `delete-${kind}`, id: item.id }}
            description={
              item.eventCount > 0 ? (
                <>
                  <strong>{item.name}</strong> is used by {eventCountLabel(item.eventCount)}, so it
                  cannot be deleted until those events use another {noun}.
                </>
              ) : undefined
            }
          />
        </>
      }
    >
      {item.description ? <p>{item.description}</p> : null}
      {item.industrySector ? <p>Industry sector: {item.industrySector}</p> : null}
      {item.icon ? <p>Icon: {item.icon}</p> : null}
    </EntityCard>
  );
}
