// Words the reviewer and editor screens use for review states and recommendations (issue 32).

export const RECOMMENDATION_LABELS: Record<string, string> = {
  accept: "Accept",
  minor: "Minor revisions",
  major: "Major revisions",
  reject: "Reject",
};

export const ASSIGNMENT_LABELS: Record<string, string> = {
  invited: "Conflict check needed",
  active: "Reviewing",
  conflicted: "Conflict declared",
  declined: "Declined",
  cancelled: "Withdrawn by the editor",
};

export const SUBMISSION_STATE_LABELS: Record<string, string> = {
  draft: "Draft",
  submitted: "Submitted",
  under_review: "Under review",
  revisions_requested: "Revisions requested",
  resubmitted: "Revised version in review",
  accepted: "Accepted",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
  desk_rejected: "Desk-rejected",
};

/** What a reviewer's list says about one assignment. */
export function assignmentStatus(assignment: {
  state: string;
  reviewState: "draft" | "submitted" | null;
  submissionState: string;
}) {
  if (assignment.state !== "active") return ASSIGNMENT_LABELS[assignment.state] ?? assignment.state;
  if (assignment.reviewState === "submitted") return "Review submitted";
  if (!["under_review", "resubmitted"].includes(assignment.submissionState)) return "Closed";
  return assignment.reviewState === "draft" ? "Draft saved" : "To review";
}
