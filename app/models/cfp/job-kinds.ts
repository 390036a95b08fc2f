/** The job kinds of calls for papers (handlers: ./cfp-jobs.server.ts). */
export const CFP_JOBS = {
  /** A reviewer invited by an address with no account: the mail with a fresh invitation link. */
  reviewerInvite: "cfp.reviewer-invite",
  /** The review-deadline sweep: reminders before each due date, a note to the editor after it. */
  reviewSweep: "cfp.review-sweep",
} as const;
