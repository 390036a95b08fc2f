import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { z } from "zod";
import { CURRENCIES, EVENT_STATUSES, EVENT_TIME_ZONE, FEE_TYPES } from "~/lib/constants";

/**
 * The event form's and the fees card's schemas (spec §5), shared by Conform in the browser and
 * `parseWithZod` in the actions. Messages are the spec's, word for word.
 */

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A `datetime-local` value read as Nairobi time (spec §2.5: event times are GMT+3) → UTC. */
export function nairobiLocalToDate(value: string): Date | null {
  const m = LOCAL_DATE_TIME.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  const date = new TZDate(y, mo - 1, d, h, mi, s || 0, EVENT_TIME_ZONE);
  // Reject overflowing parts (e.g. 2026-02-31) rather than silently rolling them over.
  if (date.getDate() !== d || date.getMonth() !== mo - 1 || date.getHours() !== h) return null;
  return new Date(date.getTime());
}

/** A stored instant as the `datetime-local` value of the form (Nairobi time). */
export function dateToNairobiLocal(value: Date | string | null | undefined): string {
  if (!value) return "";
  return format(new TZDate(new Date(value).getTime(), EVENT_TIME_ZONE), "yyyy-MM-dd'T'HH:mm");
}

/** Empty or blank optional text becomes null (spec §5). */
const optionalText = (max = 5000) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : null));

const requiredText = (message: string, max = 300) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);

const requiredDateTime = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .transform((value, ctx) => {
      const date = nairobiLocalToDate(value);
      if (!date) {
        ctx.addIssue({ code: "custom", message: "Please enter a valid date and time" });
        return z.NEVER;
      }
      return date;
    });

const optionalDateTime = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx) => {
    if (!value) return null;
    const date = nairobiLocalToDate(value);
    if (!date) {
      ctx.addIssue({ code: "custom", message: "Please enter a valid date and time" });
      return z.NEVER;
    }
    return date;
  });

/**
 * Tags arrive as repeated fields (chips) plus whatever was typed but not yet added; each may hold
 * comma-separated tags. Trimmed, empties dropped, duplicates ignored; none at all → null (§5).
 */
export function normaliseTags(values: ReadonlyArray<string | undefined> | undefined) {
  const tags: string[] = [];
  for (const value of values ?? []) {
    for (const part of (value ?? "").split(",")) {
      const tag = part.trim().slice(0, 50);
      if (tag && !tags.includes(tag)) tags.push(tag);
    }
  }
  return tags.length ? tags.slice(0, 30) : null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const idList = z
  .array(z.string().regex(UUID, "Invalid selection").optional())
  .optional()
  .transform((ids) => [...new Set((ids ?? []).filter((id): id is string => Boolean(id)))]);

/** Our own uploads, or an absolute http(s) URL; anything else (javascript:, data:) is refused. */
const imageUrl = z
  .string()
  .trim()
  .max(2000)
  .optional()
  .refine((v) => !v || v.startsWith("/uploads/") || /^https?:\/\/[^\s"'<>]+$/i.test(v), {
    message: "Please upload the image again",
  })
  .transform((v) => (v ? v : null));

export const AgendaItemSchema = z
  .object({
    startTime: requiredDateTime("Start time is required"),
    endTime: optionalDateTime,
    title: requiredText("Title is required"),
    description: optionalText(2000),
  })
  .refine((item) => !item.endTime || item.endTime >= item.startTime, {
    message: "End time must be after start time",
    path: ["endTime"],
  });

export const EventFormSchema = z
  .object({
    // Event Classification
    eventType: z
      .string()
      .trim()
      .max(100)
      .optional()
      .transform((v) => v || "conference"),
    category: z
      .string()
      .trim()
      .max(100)
      .optional()
      .transform((v) => (!v || v === "none" ? null : v)),
    industrySector: optionalText(200),
    tags: z.array(z.string().optional()).optional().transform(normaliseTags),
    // Event Information
    title: requiredText("Title is required", 200),
    description: optionalText(20_000),
    // Location & Timing
    location: requiredText("Location is required"),
    startDate: requiredDateTime("Start date is required"),
    endDate: requiredDateTime("End date is required"),
    theme: optionalText(300),
    imageUrl,
    // Publication & Visibility
    status: z
      .enum(EVENT_STATUSES, { error: "Status must be one of draft, published, archived" })
      .default("draft"),
    featured: z.boolean().default(false),
    // Linked people and programme (edited on the same screen, design.md §4)
    speakerIds: idList,
    sponsorIds: idList,
    agenda: z
      .array(AgendaItemSchema)
      .max(200)
      .optional()
      .transform((items) => items ?? []),
  })
  .refine((event) => event.startDate <= event.endDate, {
    message: "Start date must be before end date",
    path: ["endDate"],
  });

export type EventFormValues = z.output<typeof EventFormSchema>;

const TWO_DECIMALS = (n: number) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export const FeeRowSchema = z.object({
  /** Set on rows already saved (lets the card remove one at once); never written back. */
  id: z.string().regex(UUID).optional(),
  feeType: z.enum(FEE_TYPES, { error: "Please choose a fee type" }).default("conference_only"),
  currency: z.enum(CURRENCIES, { error: "Please choose a currency" }).default("USD"),
  amount: z
    .number({ error: "Amount must be a number" })
    .min(0, "Amount must be at least 0")
    .max(1_000_000_000, "Amount is too large")
    .refine(TWO_DECIMALS, "Amount can have at most 2 decimal places")
    .default(0),
  maxQuantity: z
    .number({ error: "Max quantity must be a whole number" })
    .int("Max quantity must be a whole number")
    .min(1, "Max quantity must be at least 1")
    .max(1_000_000)
    .optional()
    .transform((v) => v ?? null),
  availableUntil: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || (ISO_DATE.test(v) && !Number.isNaN(Date.parse(v))), {
      message: "Please enter a valid date",
    })
    .transform((v) => v || null),
  description: optionalText(1000),
});

export const FeesFormSchema = z.object({
  fees: z
    .array(FeeRowSchema)
    .max(50)
    .optional()
    .transform((rows) => rows ?? []),
});

export type FeeRowValues = z.output<typeof FeeRowSchema>;
