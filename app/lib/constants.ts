// Enumerations and fixed labels shared by public pages and the back office (spec §3, §4, §9).
export const EVENT_STATUSES = ["draft", "published", "archived"] as const;
export const PAPER_STATUSES = [
  "draft",
  "submitted",
  "under_review",
  "accepted",
  "rejected",
  "published",
] as const;
/** The statuses the admin paper form offers (spec §3). */
export const ADMIN_PAPER_STATUSES = ["draft", "under_review", "published"] as const;
export const OFFICE_STATUSES = ["active", "inactive"] as const;
export const SPONSOR_TIERS = ["platinum", "gold", "silver", "bronze"] as const;
/** The database's currency enum; each has its decimals in app/lib/money.ts (decision 0081). */
export const CURRENCIES = ["USD", "EUR", "GBP", "KES", "UGX", "RWF"] as const;
export const FEE_TYPES = [
  "conference_only",
  "full_board",
  "student",
  "early_bird",
  "member",
  "group",
] as const;
export type FeeType = (typeof FEE_TYPES)[number];

/** Admin labels of the fee types (spec §3). */
export const FEE_TYPE_ADMIN_LABELS: Record<FeeType, string> = {
  conference_only: "Conference Only",
  full_board: "Conference + Full Board Accommodation",
  student: "Student Fee",
  early_bird: "Early Bird",
  member: "Member Discount",
  group: "Group Rate",
};

/** Public label: underscores as spaces, title-cased (spec §3) — 'full_board' → 'Full Board'. */
export function publicFeeTypeLabel(feeType: string) {
  return feeType
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

export const CONTACT_REGIONS = [
  { value: "global", label: "Global Headquarters" },
  { value: "africa", label: "Africa" },
  { value: "asia", label: "Asia Pacific" },
  { value: "europe", label: "Europe" },
  { value: "americas", label: "Americas" },
  { value: "oceania", label: "Oceania" },
] as const;

/** Region colour dots on office cards (spec §2.10). */
export const REGION_DOT_CLASSES: Record<string, string> = {
  africa: "bg-green-600",
  asia: "bg-blue-600",
  europe: "bg-purple-600",
  "north america": "bg-red-600",
  "south america": "bg-orange-500",
  oceania: "bg-teal-600",
};
export function regionDotClass(region: string) {
  return REGION_DOT_CLASSES[region.trim().toLowerCase()] ?? "bg-slate-400";
}

/** Event type badge colours (spec §2.4: conference, exhibition, gala, vendor, other). */
export const EVENT_TYPE_BADGE_CLASSES: Record<string, string> = {
  conference: "bg-blue-100 text-blue-800",
  exhibition: "bg-purple-100 text-purple-800",
  gala: "bg-amber-100 text-amber-900",
  vendor: "bg-red-100 text-red-800",
};
export function eventTypeBadgeClass(type: string | null | undefined) {
  return (
    EVENT_TYPE_BADGE_CLASSES[(type ?? "conference").toLowerCase()] ?? "bg-slate-100 text-slate-800"
  );
}

/** Admin event status badges (spec §4): published green, draft yellow, archived grey, else blue. */
export function eventStatusBadgeVariant(status: string) {
  return (
    ({ published: "success", draft: "warning", archived: "neutral" } as const)[
      status as "published" | "draft" | "archived"
    ] ?? "info"
  );
}

/** Paper status badges (spec §4): accepted/published green, under_review accent, submitted primary, rejected destructive, others neutral. */
export function paperStatusBadgeVariant(status: string) {
  return (
    (
      {
        published: "success",
        accepted: "success",
        under_review: "accent",
        submitted: "default",
        rejected: "destructive",
      } as const
    )[status as "published"] ?? "neutral"
  );
}

export function statusLabel(status: string) {
  return status
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

export const ORGANISATION_NAME = "Kongamano";
export const EVENT_TIME_ZONE = "Africa/Nairobi";
export const DEFAULT_COLOR = "#0B5FFF";
export const MAX_IMAGE_BYTES = 5_242_880;
