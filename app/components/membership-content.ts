// Membership page content (spec §2.8, §9): every figure is the one spec §9 gives. The prices are
// the ones charged (PLAN_PRICE_MINOR in models/membership/plans.ts), labelled by lib/money.ts.
export type MembershipPlan = {
  id: "individual" | "professional" | "corporate";
  name: string;
  description: string;
  highlight?: string;
  note?: string;
  features: string[];
};

export const MEMBERSHIP_PLANS: MembershipPlan[] = [
  {
    id: "individual",
    name: "Individual",
    description: "For information professionals building their knowledge and network.",
    features: [
      "Full access to the research paper library",
      "Member rates on conferences and workshops",
      "Monthly newsletter with industry insights",
      "Online member community and discussion forums",
      "Digital membership certificate",
    ],
  },
  {
    id: "professional",
    name: "Professional",
    highlight: "Most Popular",
    description: "For practitioners who lead data governance and transformation work.",
    features: [
      "Everything in Individual",
      "Early-bird registration for every conference",
      "Two workshop passes per year",
      "Opportunities to publish and present research",
      "Mentorship programme with senior practitioners",
      "Priority member support",
    ],
  },
  {
    id: "corporate",
    name: "Corporate",
    note: "Up to 10 team members",
    description: "For organisations building information-management capability across teams.",
    features: [
      "Professional benefits for every team member",
      "Dedicated account manager",
      "Tailored in-house training sessions",
      "Speaking and exhibition opportunities at our events",
      "Quarterly strategy briefings",
    ],
  },
];

export const MEMBERSHIP_BENEFITS = [
  {
    title: "Premium Access",
    description:
      "Read every paper in our research library and join members-only sessions at our conferences.",
  },
  {
    title: "Global Network",
    description:
      "Meet data governance leaders, archivists, analysts and researchers from six continents.",
  },
  {
    title: "Career Growth",
    description:
      "Build recognised skills through workshops, mentoring and chances to speak and publish.",
  },
  {
    title: "Industry Insights",
    description:
      "Stay ahead with briefings on regulation, standards and practice from our member community.",
  },
] as const;

export const MEMBERSHIP_STATS = [
  { value: "10,000+", label: "Active Members" },
  { value: "50+", label: "Annual Events" },
  { value: "200+", label: "Research Papers" },
  { value: "25", label: "Countries" },
] as const;

/** The four FAQ answers of spec §9. */
export const MEMBERSHIP_FAQ = [
  {
    id: "cancel",
    question: "Can I cancel my membership at any time?",
    answer:
      "Yes. You can cancel at any time, and you keep full access to your member benefits until the end of your current membership period.",
  },
  {
    id: "students",
    question: "Do you offer discounts for students?",
    answer:
      "Yes. Students receive a 50% discount on membership. Contact us with proof of enrolment and we will apply it to your plan.",
  },
  {
    id: "upgrade",
    question: "Can I upgrade my plan later?",
    answer:
      "Yes. You can upgrade at any time and only pay the prorated difference for the rest of your current membership period.",
  },
  {
    id: "payment",
    question: "What payment methods do you accept?",
    answer: "We accept all major credit and debit cards, PayPal and bank transfer.",
  },
] as const;
