// Canned replies of the assistant chat widget (spec §1, §5, §9). No server call: the widget
// matches keywords in the visitor's message and answers after a fixed delay.

export const CHAT_REPLY_DELAY_MS = 1000;

export const CHAT_WELCOME =
  "Hello! I'm the Kongamano assistant. Ask me about our events, research papers, global offices or membership.";

export type ChatReply = { text: string; link?: { href: string; label: string } };

type Rule = { keywords: RegExp; reply: ChatReply };

// Checked in order; the first rule whose keywords appear in the message answers.
const RULES: Rule[] = [
  {
    keywords: /\b(events?|conferences?)\b/i,
    reply: {
      text: "We run conferences, exhibitions, galas, workshops, seminars and webinars around the world. You can browse upcoming and featured events, and filter them by type or category, on our Events page.",
      link: { href: "/events", label: "Browse events" },
    },
  },
  {
    keywords: /\b(papers?|research)\b/i,
    reply: {
      text: "Our Research Papers Library holds published work on data governance, records management, AI, privacy and more. You can search it and download papers as PDF.",
      link: { href: "/papers", label: "Open the papers library" },
    },
  },
  {
    keywords: /\b(offices?|locations?)\b/i,
    reply: {
      text: "Our head office is in Nairobi, Kenya, and we have offices in Africa, Asia, Europe, North and South America and Oceania. Members who sign in see every office's full contact details.",
      link: { href: "/offices", label: "See our global offices" },
    },
  },
  {
    keywords: /\b(members?|membership|join(ing)?)\b/i,
    reply: {
      text: "Membership is annual: Individual ($99), Professional ($299, our most popular) and Corporate ($999 for up to 10 team members). Members get premium access to events and papers and join a global network.",
      link: { href: "/membership", label: "Compare membership plans" },
    },
  },
];

export const CHAT_HELP_REPLY: ChatReply = {
  text: "I can help you with:\n• Events and conferences\n• Research papers\n• Our office locations\n• Membership and how to join\nWhat would you like to know? For anything else, our team answers through the contact page.",
  link: { href: "/contact", label: "Contact us" },
};

/** The canned reply to a visitor's message. */
export function chatReplyFor(message: string): ChatReply {
  return RULES.find((rule) => rule.keywords.test(message))?.reply ?? CHAT_HELP_REPLY;
}
