import { AD_TYPES, SPONSORSHIP_TIERS } from "./advertising-content";

// Contact topics: `/contact?topic=…` pre-fills the subject with a readable line (design.md §4:
// every button that "had no behaviour" opens the contact form with its topic).
const TOPIC_SUBJECTS: Record<string, string> = {
  partnership: "Partnership Inquiry",
  demo: "Schedule a Membership Demo",
  registration: "Event Registration",
  "event-registration": "Event Registration",
  "paper-submission": "Research Paper Submission",
  "review-guidelines": "Paper Review Guidelines",
  support: "Support Request",
  "report-issue": "Report an Issue",
  "media-kit": "Media Kit Request",
  consultation: "Schedule a Consultation",
  "global-team": "Message for the Global Team",
  membership: "Membership Inquiry",
  media: "Media Inquiry",
  advertising: "Advertising Inquiry",
  sponsorship: "Sponsorship Inquiry",
  "host-event": "Host an Event with Us",
  accessibility: "Accessibility Feedback",
};

const MAX_SUBJECT_LENGTH = 200;

function clean(text: string | null | undefined, max = 120) {
  return (text ?? "").replace(/\s+/g, " ").trim().slice(0, max);
}

function titleCase(words: string) {
  return words
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join(" ");
}

/**
 * The subject line for a contact topic. `params` may carry `event` (registration) or `paper`
 * (report-issue). Unknown topics become a humanised subject; an empty topic gives "".
 */
export function subjectForTopic(
  topic: string | null | undefined,
  params: { event?: string | null; paper?: string | null } = {},
): string {
  const key = clean(topic, 60)
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, "");
  if (!key) return "";
  const event = clean(params.event);
  const paper = clean(params.paper);
  let subject: string;
  if ((key === "registration" || key === "event-registration") && event) {
    subject = `Event Registration: ${event}`;
  } else if (key === "report-issue" && paper) {
    subject = `Report an Issue: ${paper}`;
  } else if (key === "paper-submission" && paper) {
    subject = `Research Paper Submission: ${paper}`;
  } else if (TOPIC_SUBJECTS[key]) {
    subject = TOPIC_SUBJECTS[key];
  } else if (key.startsWith("sponsorship-")) {
    const tier = SPONSORSHIP_TIERS.find((t) => t.id === key.slice("sponsorship-".length));
    subject = `${tier ? tier.name : titleCase(key.slice("sponsorship-".length))} Sponsorship Inquiry`;
  } else if (key.startsWith("advertising-")) {
    const ad = AD_TYPES.find((a) => a.id === key.slice("advertising-".length));
    subject = `${ad ? ad.name : titleCase(key.slice("advertising-".length))} Inquiry`;
  } else {
    subject = titleCase(key);
  }
  return subject.slice(0, MAX_SUBJECT_LENGTH);
}
