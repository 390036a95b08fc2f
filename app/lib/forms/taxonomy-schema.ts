import { z } from "zod";
import { DEFAULT_COLOR } from "~/lib/constants";

/**
 * The category and type forms (spec §5 'Category and type'): name required, at most 100
 * characters; colour required, '#' plus 6 hex digits, default #0B5FFF; icon and description
 * optional; categories also carry an industry sector.
 */
export const NAME_MAX_LENGTH = 100;
export const COLOR_PATTERN = /^#[0-9A-Fa-f]{6}$/;
export { DEFAULT_COLOR };

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((v) => v || null);

const base = {
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`),
  color: z
    .string({ error: "Invalid color format" })
    .trim()
    .regex(COLOR_PATTERN, "Invalid color format"),
  icon: optionalText(50, "Icon"),
  description: optionalText(2000, "Description"),
};

export const EventTypeFormSchema = z.object(base);

export const CategoryFormSchema = z.object({
  ...base,
  industrySector: optionalText(200, "Industry sector"),
});

export type EventTypeFormValues = z.output<typeof EventTypeFormSchema>;
export type CategoryFormValues = z.output<typeof CategoryFormSchema>;
