import { z } from "zod";

/** The speaker form (spec §5 'Speaker'): name required; title, organisation, bio and photo optional. */
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((v) => v || null);

/** A photo is one of our stored images (the uploader's answer) or a web address. */
export function isAcceptableImageUrl(value: string) {
  if (/^\/uploads\/[a-z0-9-]+\/[A-Za-z0-9_-]+\.[a-z0-9]+$/.test(value)) return true;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

export const imageUrlField = z
  .string()
  .trim()
  .refine(isAcceptableImageUrl, "Please upload a JPG, PNG, or WEBP image")
  .optional()
  .transform((v) => v ?? null);

export const SpeakerFormSchema = z.object({
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(200, "Name must be at most 200 characters"),
  title: optionalText(200, "Title"),
  organization: optionalText(200, "Organization"),
  bio: optionalText(5000, "Bio"),
  imageUrl: imageUrlField,
});

export type SpeakerFormValues = z.output<typeof SpeakerFormSchema>;
