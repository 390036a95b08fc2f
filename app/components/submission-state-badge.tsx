import { SUBMISSION_STATE_LABELS } from "~/components/review-labels";
import { Badge } from "~/components/ui/badge";

const VARIANT = {
  draft: "neutral",
  submitted: "default",
  under_review: "accent",
  revisions_requested: "warning",
  resubmitted: "accent",
  accepted: "success",
  rejected: "destructive",
  desk_rejected: "destructive",
  withdrawn: "neutral",
} as const;

/** A submission's status in the spec's paper colours (accepted green, under review accent…). */
export function SubmissionStateBadge({ state }: { state: string }) {
  return (
    <Badge variant={VARIANT[state as keyof typeof VARIANT] ?? "neutral"}>
      {SUBMISSION_STATE_LABELS[state] ?? state}
    </Badge>
  );
}
