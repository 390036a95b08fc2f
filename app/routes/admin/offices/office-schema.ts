import { z } from "zod";
import { OFFICE_STATUSES } from "~/lib/constants";

/**
 * The office form (spec §5 'Office'): region, city and country required; e-mail optional but
 * valid when filled; latitude and longitude free decimals (within the globe); status active
 * (default) or inactive.
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
  status: z.enum(OFFICE_STATUSES, { error: "Status must be active or inactive" }).default("active"),
});

export type OfficeFormValues = z.output<typeof OfficeFormSchema>;
