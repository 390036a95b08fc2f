import { z } from "zod";
import { OFFICE_STATUSES } from "~/lib/constants";
import { parseTags } from "~/lib/forms/paper-schema";

/**
 * The office form (spec §5 'Office'): region, city and country required; e-mail optional but
 * valid when filled; latitude and longitude free decimals (within the globe); status active
 * (default) or inactive; opening hours (one span a line, its time zone named) and services
 * (short labels) shown on the public office card (issue 18, decision 0060).
 */
const required = (message: string) =>
  z.string({ error: message }).trim().min(1, message).max(200, "Must be at most 200 characters");

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .optional()
    .transform((v) => v || null);

export const LATITUDE_INVALID = "Latitude must be a decimal number between -90 and 90";
export const LONGITUDE_INVALID = "Longitude must be a decimal number between -180 and 180";

/** '-1.2921', '36,8219' (decimal comma) → a number; anything else → NaN (refused). */
export function parseDecimal(value: unknown) {
  if (typeof value === "number") return value;
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  if (!trimmed) return undefined;
  return /^[-+]?(\d+([.,]\d*)?|[.,]\d+)$/.test(trimmed)
    ? Number(trimmed.replace(",", "."))
    : Number.NaN;
}

export const OPENING_HOURS_MAX_LINES = 10;
export const OPENING_HOURS_TOO_LONG = `Opening hours: at most ${OPENING_HOURS_MAX_LINES} lines of 120 characters`;
export const SERVICES_INVALID = "Services: at most 12, each at most 40 characters";

/**
 * Opening hours as staff write them, one span a line ("Mon–Fri 08:00–18:00 EAT"): each line
 * trimmed, blank lines dropped, stored as one text (null when nothing is left).
 */
export function normaliseOpeningHours(value: unknown) {
  if (typeof value !== "string") return value;
  return value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .join("\n");
}

const coordinate = (limit: number, message: string) =>
  z
    .preprocess(
      parseDecimal,
      z.number({ error: message }).min(-limit, message).max(limit, message).optional(),
    )
    .transform((v) => v ?? null);

export const OfficeFormSchema = z.object({
  region: required("Region is required"),
  city: required("City is required"),
  country: required("Country is required"),
  address: optionalText(500),
  email: z
    .preprocess(
      (v) => (typeof v === "string" ? v.trim() || undefined : v),
      z.email({ error: "Invalid email address" }).max(254, "Invalid email address").optional(),
    )
    .transform((v) => v ?? null),
  phone: optionalText(50),
  latitude: coordinate(90, LATITUDE_INVALID),
  longitude: coordinate(180, LONGITUDE_INVALID),
  openingHours: z
    .preprocess(
      normaliseOpeningHours,
      z
        .string()
        .refine(
          (v) =>
            v.split("\n").length <= OPENING_HOURS_MAX_LINES &&
            v.split("\n").every((line) => line.length <= 120),
          OPENING_HOURS_TOO_LONG,
        )
        .optional(),
    )
    .transform((v) => v || null),
  /** Repeated fields from the services input, or one comma-separated text without JavaScript. */
  services: z
    .union([z.string(), z.array(z.string().optional())])
    .optional()
    .transform(parseTags)
    .pipe(z.array(z.string().max(40, SERVICES_INVALID)).max(12, SERVICES_INVALID)),
  status: z.enum(OFFICE_STATUSES, { error: "Status must be active or inactive" }).default("active"),
});

export type OfficeFormValues = z.output<typeof OfficeFormSchema>;
