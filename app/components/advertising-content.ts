// Advertising and sponsorship page content (spec §2.12, §9): every figure is the one spec §9 gives.
// Prices are US dollars in minor units (cents), labelled by app/lib/money.ts like every amount.
import { formatPriceTag } from "~/lib/money";

/** The currency of the advertising and sponsorship prices. */
export const ADVERTISING_CURRENCY = "USD";
export const ADVERTISING_STATS = [
  { value: "10,000+", label: "Global Members" },
  { value: "50,000+", label: "Monthly Website Visitors" },
  { value: "25", label: "Countries Represented" },
  { value: "50+", label: "Annual Events" },
] as const;

export const WHY_PARTNER = [
  {
    title: "Targeted Audience",
    description:
      "Reach decision-makers in data governance, records management and digital transformation.",
  },
  {
    title: "Global Reach",
    description:
      "Connect with professionals across 25 countries through our events, website and newsletter.",
  },
  {
    title: "Thought Leadership",
    description:
      "Position your organisation as an expert by speaking, publishing and hosting sessions.",
  },
  {
    title: "Community Access",
    description:
      "Build lasting relationships with an engaged community of members and researchers.",
  },
] as const;

export type SponsorshipTier = {
  id: "platinum" | "gold" | "silver" | "bronze";
  name: string;
  /** Per event, in cents. */
  priceMinor: number;
  popular?: boolean;
  description: string;
  features: string[];
};

export const SPONSORSHIP_TIERS: SponsorshipTier[] = [
  {
    id: "platinum",
    name: "Platinum",
    priceMinor: 2_500_000,
    popular: true,
    description: "Headline partnership with maximum visibility before, during and after the event.",
    features: [
      "Premier logo placement on all event materials",
      "Keynote speaking opportunity",
      "Premium exhibition booth",
      "4 complimentary conference passes",
      "Full-page feature in the event programme",
      "Dedicated social media campaign",
    ],
  },
  {
    id: "gold",
    name: "Gold",
    priceMinor: 1_500_000,
    description: "Prominent presence and a voice on stage in front of the whole audience.",
    features: [
      "Prominent logo placement on event materials",
      "Panel speaking opportunity",
      "Standard exhibition booth",
      "2 complimentary conference passes",
      "Half-page advertisement in the event programme",
      "Social media mentions",
    ],
  },
  {
    id: "silver",
    name: "Silver",
    priceMinor: 800_000,
    description: "Solid brand exposure and direct contact with attendees at the venue.",
    features: [
      "Logo on the event website and venue signage",
      "Exhibition table",
      "1 complimentary conference pass",
      "Quarter-page advertisement in the event programme",
      "Mention in the event newsletter",
    ],
  },
  {
    id: "bronze",
    name: "Bronze",
    priceMinor: 300_000,
    description: "An affordable way to show your support and be seen by every attendee.",
    features: [
      "Logo on the event website",
      "Recognition in the opening remarks",
      "Digital brochure in the attendee pack",
    ],
  },
];

export type AdType = {
  id: "website-banner" | "newsletter" | "conference-app" | "paper-sponsorship";
  name: string;
  /** The lowest price, in cents, and what it buys ('month' → 'From $500/month'). */
  fromMinor: number;
  per: string;
  reach: string;
  description: string;
  formats?: string[];
  features: string[];
};

export const AD_TYPES: AdType[] = [
  {
    id: "website-banner",
    name: "Website Banner",
    fromMinor: 50_000,
    per: "month",
    reach: "50,000+ monthly visitors",
    description: "Display banners on our events, research and membership pages.",
    formats: ["728x90", "300x250", "160x600"],
    features: ["Placement across high-traffic pages", "Monthly impression and click report"],
  },
  {
    id: "newsletter",
    name: "Newsletter Advertising",
    fromMinor: 80_000,
    per: "insertion",
    reach: "10,000+ subscribers",
    description: "A sponsored block in the member newsletter, read by our whole community.",
    features: ["Logo, headline, copy and link", "Open and click report after each send"],
  },
  {
    id: "conference-app",
    name: "Conference App Ads",
    fromMinor: 120_000,
    per: "event",
    reach: "5,000+ active users per event",
    description: "Reach attendees where they plan their day: in the conference app.",
    features: ["Banner on the agenda and speaker screens", "Push notification during the event"],
  },
  {
    id: "paper-sponsorship",
    name: "Research Paper Sponsorship",
    fromMinor: 200_000,
    per: "paper",
    reach: "25,000+ annual downloads",
    description: "Sponsor a research paper and be credited wherever it is read.",
    features: ["Credit on the paper page and PDF cover", "Acknowledgement in the announcement"],
  },
];

export const AUDIENCE_BREAKDOWN = [
  { sector: "Technology & Software", percent: 35 },
  { sector: "Financial Services", percent: 25 },
  { sector: "Healthcare & Life Sciences", percent: 15 },
  { sector: "Government & Public Sector", percent: 12 },
  { sector: "Education & Research", percent: 8 },
  { sector: "Other Industries", percent: 5 },
] as const;

/** A sponsorship tier's price: '$25,000'. */
export function tierPriceLabel(tier: Pick<SponsorshipTier, "priceMinor">) {
  return formatPriceTag(tier.priceMinor, ADVERTISING_CURRENCY);
}

/** An advertising type's starting price: 'From $500/month'. */
export function adPriceLabel(ad: Pick<AdType, "fromMinor" | "per">) {
  return `From ${formatPriceTag(ad.fromMinor, ADVERTISING_CURRENCY)}/${ad.per}`;
}
