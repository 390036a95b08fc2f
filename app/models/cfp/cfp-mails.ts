// What authors, reviewers and editors are told about a submission: one template per message,
// plain data in, subject, text and HTML out (mail-layout). Reviewer mails name the paper by its
// title only (never its authors); author mails never name a reviewer.
import type { DecisionOutcome } from "~/db/schema";
import { formatDate } from "~/lib/format";
import { greeting, renderMail } from "~/lib/mail-layout.server";

type Paper = { title: string; callTitle: string; url: string };

export function submissionReceivedMail(facts: Paper & { greetName: string | null }) {
  return renderMail({
    subject: `Submission received: ${facts.title}`,
    greeting: greeting(facts.greetName),
    blocks: [
      {
        kind: "paragraph",
        text: `Thank you: we received "${facts.title}" for ${facts.callTitle}. An editor checks its scope and format within two weeks, then at least two reviewers assess it.`,
      },
      { kind: "button", label: "View your submission", url: facts.url },
      { kind: "note", text: "You can withdraw the submission from that page until a decision." },
    ],
  });
}

export function revisionReceivedMail(facts: Paper & { greetName: string | null; round: number }) {
  return renderMail({
    subject: `Revised version received: ${facts.title}`,
    greeting: greeting(facts.greetName),
    blocks: [
      {
        kind: "paragraph",
        text: `We received your revised version (round ${facts.round}) of "${facts.title}" with your response letter. The reviewers now read it.`,
      },
      { kind: "button", label: "View your submission", url: facts.url },
    ],
  });
}

export function submissionWithdrawnMail(facts: Paper & { greetName: string | null }) {
  return renderMail({
    subject: `Submission withdrawn: ${facts.title}`,
    greeting: greeting(facts.greetName),
    blocks: [
      {
        kind: "paragraph",
        text: `Your submission "${facts.title}" to ${facts.callTitle} is withdrawn; nobody reviews it further.`,
      },
      { kind: "link", label: "Your submissions", url: facts.url },
    ],
  });
}

const OUTCOME_SUBJECT: Record<DecisionOutcome, string> = {
  accepted: "Accepted",
  revisions_requested: "Revisions requested",
  rejected: "Decision",
  desk_rejected: "Decision",
};

const OUTCOME_LINE: Record<DecisionOutcome, string> = {
  accepted: "We are glad to tell you that your paper is accepted.",
  revisions_requested:
    "The editor asks you to revise your paper. Upload the revised version with a response letter from your submission's page.",
  rejected: "We are sorry to tell you that your paper is not accepted.",
  desk_rejected:
    "An editor read your submission and it is not sent to review. We are sorry to disappoint you.",
};

/** The decision with its letter (which carries the reviewers' comments to the authors). */
export function decisionMail(
  facts: Paper & { greetName: string | null; outcome: DecisionOutcome; letter: string },
) {
  return renderMail({
    subject: `${OUTCOME_SUBJECT[facts.outcome]}: ${facts.title}`,
    greeting: greeting(facts.greetName),
    blocks: [
      {
        kind: "paragraph",
        text: `${OUTCOME_LINE[facts.outcome]} ("${facts.title}", ${facts.callTitle})`,
      },
      { kind: "quote", text: facts.letter },
      {
        kind: "button",
        label:
          facts.outcome === "revisions_requested" ? "Upload your revision" : "View your submission",
        url: facts.url,
      },
    ],
  });
}

export function paperPublishedMail(facts: Paper & { greetName: string | null }) {
  return renderMail({
    subject: `Published: ${facts.title}`,
    greeting: greeting(facts.greetName),
    blocks: [
      {
        kind: "paragraph",
        text: `"${facts.title}" is now published in the Kongamano paper library, with its PDF, citation, BibTeX and RIS records.`,
      },
      { kind: "button", label: "View the paper", url: facts.url },
    ],
  });
}

type Review = { title: string; callTitle: string; dueAt: Date; url: string };

/** To a reviewer with an account: a paper to review (title only: never the authors). */
export function reviewRequestMail(facts: Review) {
  return renderMail({
    subject: `Review request: ${facts.title}`,
    greeting: greeting(null),
    blocks: [
      {
        kind: "paragraph",
        text: `An editor of ${facts.callTitle} asks you to review "${facts.title}". Please first declare whether you have a conflict of interest; then the paper opens.`,
      },
      { kind: "facts", rows: [["Review due", formatDate(facts.dueAt)]] },
      { kind: "button", label: "Open the review", url: facts.url },
    ],
  });
}

/** To an address with no account: the invitation (its link makes or signs in to an account). */
export function reviewerInvitationMail(facts: Review & { expiresAt: Date }) {
  return renderMail({
    subject: `Invitation to review: ${facts.title}`,
    greeting: greeting(null),
    blocks: [
      {
        kind: "paragraph",
        text: `An editor of ${facts.callTitle} invites you to review "${facts.title}" for Kongamano. Create an account with this e-mail address (or sign in), then declare any conflict of interest; the paper opens after that.`,
      },
      { kind: "facts", rows: [["Review due", formatDate(facts.dueAt)]] },
      { kind: "button", label: "Accept the invitation", url: facts.url },
      {
        kind: "note",
        text: `The link works until ${formatDate(facts.expiresAt)}. If you did not expect this, ignore this mail.`,
      },
    ],
  });
}

export function reviewReminderMail(facts: Review) {
  return renderMail({
    subject: `Review due ${formatDate(facts.dueAt)}: ${facts.title}`,
    greeting: greeting(null),
    blocks: [
      {
        kind: "paragraph",
        text: `A reminder: your review of "${facts.title}" (${facts.callTitle}) is due on ${formatDate(facts.dueAt)}.`,
      },
      { kind: "button", label: "Open the review", url: facts.url },
    ],
  });
}

/** To the reviewers still on the paper: the authors sent a revised version. */
export function revisedVersionMail(facts: Review & { round: number }) {
  return renderMail({
    subject: `Revised version to review: ${facts.title}`,
    greeting: greeting(null),
    blocks: [
      {
        kind: "paragraph",
        text: `The authors of "${facts.title}" sent a revised version (round ${facts.round}) with a response letter. Please review it; both versions are on the review page.`,
      },
      { kind: "facts", rows: [["Review due", formatDate(facts.dueAt)]] },
      { kind: "button", label: "Open the review", url: facts.url },
    ],
  });
}

/** To the editor: a review passed its due date without being submitted. */
export function reviewOverdueMail(facts: Review & { reviewer: string }) {
  return renderMail({
    subject: `Review overdue: ${facts.title}`,
    greeting: greeting(null),
    blocks: [
      {
        kind: "paragraph",
        text: `The review of "${facts.title}" (${facts.callTitle}) by ${facts.reviewer} was due on ${formatDate(facts.dueAt)} and has not been submitted.`,
      },
      { kind: "button", label: "Open the submission", url: facts.url },
    ],
  });
}

/** To the editor: a reviewer declared a conflict (or declined) and will not review. */
export function reviewerUnavailableMail(
  facts: Omit<Review, "dueAt"> & { reviewer: string; reason: string },
) {
  return renderMail({
    subject: `Reviewer unavailable: ${facts.title}`,
    greeting: greeting(null),
    blocks: [
      {
        kind: "paragraph",
        text: `${facts.reviewer} will not review "${facts.title}" (${facts.callTitle}): ${facts.reason}. Please assign another reviewer.`,
      },
      { kind: "button", label: "Open the submission", url: facts.url },
    ],
  });
}
