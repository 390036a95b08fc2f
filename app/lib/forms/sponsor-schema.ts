import { z } from "zod";
import { SPONSOR_TIERS } from "~/lib/constants";
import { imageUrlField } from "./speaker-schema";

/** The sponsor form (spec §5 'Sponsor'): name required; tier required (bronze by default). */
export const INVALID_WEBSITE = "Please enter a valid URL starting with http:// or https://";

export function isHttpUrl(value: string) {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && Boolean(url.hostname);
  } catch {
    return false;
  }
}

export const SponsorFormSchema = z.object({
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(200, "Name must be at most 200 characters"),
  tier: z.enum(SPONSOR_TIERS, {
    error: (issue) =>
      issue.input === undefined
        ? "Tier is required"
        : "Tier must be bronze, silver, gold or platinum",
  }),
  websiteUrl: z
    .string()
    .trim()
    .refine(isHttpUrl, INVALID_WEBSITE)
    .optional()
    .transform((v) => v ?? null),
  logoUrl: imageUrlField,
});

export type SponsorFormValues = z.output<typeof SponsorFormSchema>;
