// Where each person finds a submission: one place for the paths mails and pages link to, so the
// author, reviewer and editor screens (issue 32) and the mails agree.

/** The author's list of their submissions (under the profile). */
export const MY_SUBMISSIONS_PATH = "/profile/submissions";
export const mySubmissionPath = (submissionId: string) => `${MY_SUBMISSIONS_PATH}/${submissionId}`;
/** The submission form of an open call (a new draft). */
export const submitToCallPath = (callId: string) => `/papers/calls/${callId}/submit`;
/** A reviewer's page of one assignment. */
export const reviewPath = (assignmentId: string) => `/reviews/${assignmentId}`;
/** Where a reviewer invited by e-mail accepts the invitation (token from the mail). */
export const reviewerInvitationPath = (token: string) => `/reviews/invitation/${token}`;
/** The editor's page of one submission. */
export const editorSubmissionPath = (submissionId: string) => `/admin/submissions/${submissionId}`;
/** The back office's calls. */
export const ADMIN_CALLS_PATH = "/admin/calls";
/** The editor's list of one call's submissions (screening, filters). */
export const callSubmissionsPath = (callId: string) => `${ADMIN_CALLS_PATH}/${callId}/submissions`;
