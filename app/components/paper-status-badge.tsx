import { Badge } from "~/components/ui/badge";
import { paperStatusBadgeVariant, statusLabel } from "~/lib/constants";

/** A paper's status in the colours of spec §4 ('under_review' reads 'Under Review'). */
export function PaperStatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <Badge variant={paperStatusBadgeVariant(status)} className={className}>
      {statusLabel(status)}
    </Badge>
  );
}
