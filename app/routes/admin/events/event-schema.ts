import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { z } from "zod";
import { CURRENCIES, EVENT_STATUSES, EVENT_TIME_ZONE, FEE_TYPES } from "~/lib/constants";
import { parseMinorUnits } from "~/lib/money";
import { isTimeZone } from "~/lib/time-zones";
import { SALE_START_AFTER_UNTIL } from "~/models/events/fee-sale";

const skippedTimeMessage = "This time does not exist in the event's time zone (clocks change)";

/**
 * The event form's and the fees card's schemas (spec §5), shared by Conform in the browser and
 * `parseWithZod` in the actions. Messages are the spec's, word for word.
 */

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A `datetime-local` value read as wall-clock time in the event's zone → the instant (UTC).
 * Null for malformed values, overflowing parts (2026-02-31) and times a daylight-saving jump skips.
 */
export function zonedLocalToDate(value: string, timeZone: string = EVENT_TIME_ZONE): Date | null {
  const m = LOCAL_DATE_TIME.exec(value);
  if (!m || !isTimeZone(timeZone)) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  const date = new TZDate(y, mo - 1, d, h, mi, s || 0, timeZone);
  if (date.getDate() !== d || date.getMonth() !== mo - 1 || date.getHours() !== h) return null;
  return new Date(date.getTime());
}

/** A stored instant as the `datetime-local` value of the form, in the event's zone. */
export function dateToZonedLocal(
  value: Date | string | null | undefined,
  timeZone: string = EVENT_TIME_ZONE,
): string {
  if (!value) return "";
  return format(new TZDate(new Date(value).getTime(), timeZone), "yyyy-MM-dd'T'HH:mm");
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

// Dates stay wall-clock text until the whole form is read: which instant they name depends on
// the time zone chosen in the same form (converted in EventFormSchema's transform).
const localDateTimeMessage = "Please enter a valid date and time";
const isLocalDateTime = (value: string) => zonedLocalToDate(value, "UTC") !== null;

const requiredDateTime = (message: string) =>
  z.string({ error: message }).trim().min(1, message).refine(isLocalDateTime, localDateTimeMessage);

const optionalDateTime = z
  .string()
  .trim()
  .optional()
  .refine((value) => !value || isLocalDateTime(value), localDateTimeMessage)
  .transform((value) => value || null);

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

/** An online event's join link: https only (it is handed to registrants' browsers). */
export const joinUrlField = z
  .string()
  .trim()
  .max(2000)
  .optional()
  .refine((v) => !v || /^https:\/\/[^\s"'<>]+$/i.test(v), {
    message: "Enter the join link as a full https:// address",
  })
  .transform((v) => (v ? v : null));

export const AgendaItemSchema = z.object({
  startTime: requiredDateTime("Start time is required"),
  endTime: optionalDateTime,
  title: requiredText("Title is required"),
  description: optionalText(2000),
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
    timeZone: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || EVENT_TIME_ZONE)
      .refine(isTimeZone, "Please choose a time zone from the list"),
    theme: optionalText(300),
    imageUrl,
    // Publication & Visibility
    status: z
      .enum(EVENT_STATUSES, { error: "Status must be one of draft, published, archived" })
      .default("draft"),
    featured: z.boolean().default(false),
    // Registration: seats for the whole event across all tickets; empty means no limit.
    capacity: z
      .number({ error: "Capacity must be a whole number" })
      .int("Capacity must be a whole number")
      .min(1, "Capacity must be at least 1")
      .max(1_000_000, "Capacity must be at most 1,000,000")
      .optional()
      .transform((v) => v ?? null),
    joinUrl: joinUrlField,
    // Linked people and programme (edited on the same screen, design.md §4)
    speakerIds: idList,
    sponsorIds: idList,
    agenda: z
      .array(AgendaItemSchema)
      .max(200)
      .optional()
      .transform((items) => items ?? []),
  })
  .transform((event, ctx) => {
    // Wall-clock text → instants in the chosen zone; a time the zone skips (DST) is refused.
    const instant = (value: string, path: Array<string | number>) => {
      const date = zonedLocalToDate(value, event.timeZone);
      if (!date) ctx.addIssue({ code: "custom", message: skippedTimeMessage, path });
      return date ?? new Date(Number.NaN);
    };
    const startDate = instant(event.startDate, ["startDate"]);
    const endDate = instant(event.endDate, ["endDate"]);
    if (startDate > endDate) {
      ctx.addIssue({
        code: "custom",
        message: "Start date must be before end date",
        path: ["endDate"],
      });
    }
    const agenda = event.agenda.map((item, i) => {
      const startTime = instant(item.startTime, ["agenda", i, "startTime"]);
      const endTime = item.endTime ? instant(item.endTime, ["agenda", i, "endTime"]) : null;
      if (endTime && endTime < startTime) {
        ctx.addIssue({
          code: "custom",
          message: "End time must be after start time",
          path: ["agenda", i, "endTime"],
        });
      }
      return { ...item, startTime, endTime };
    });
    return { ...event, startDate, endDate, agenda };
  });

export type EventFormValues = z.output<typeof EventFormSchema>;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL_TEXT = /^-?\d+(?:\.\d+)?$/;
/** The largest fee, in whole units of its currency. */
const MAX_FEE_UNITS = 1_000_000_000;

/**
 * What is wrong with a typed amount before its currency is known (spec §5 messages); the row
 * then parses it with the currency's decimals (app/lib/money.ts). Never read through a float.
 */
function amountProblem(text: string) {
  const plain = text.replace(/,/g, "");
  if (!DECIMAL_TEXT.test(plain)) return "Amount must be a number";
  if (plain.startsWith("-"))
    return /^-0+(?:\.0+)?$/.test(plain) ? null : "Amount must be at least 0";
  if ((plain.split(".")[1] ?? "").length > 2) return "Amount can have at most 2 decimal places";
  const cents = parseMinorUnits(plain, "USD");
  return cents === null || cents > MAX_FEE_UNITS * 100 ? "Amount is too large" : null;
}

export const FeeRowSchema = z
  .object({
    /** Set on rows already saved (lets the card remove one at once); never written back. */
    id: z.string().regex(UUID).optional(),
    feeType: z.enum(FEE_TYPES, { error: "Please choose a fee type" }).default("conference_only"),
    currency: z.enum(CURRENCIES, { error: "Please choose a currency" }).default("USD"),
    /** Decimal text as typed ('1234.56'); the row turns it into `amountMinor` in its currency. */
    amount: z
      .string({ error: "Amount must be a number" })
      .trim()
      .default("0")
      .superRefine((text, ctx) => {
        const message = amountProblem(text);
        if (message) ctx.addIssue({ code: "custom", message });
      }),
    maxQuantity: z
      .number({ error: "Max quantity must be a whole number" })
      .int("Max quantity must be a whole number")
      .min(1, "Max quantity must be at least 1")
      .max(1_000_000)
      .optional()
      .transform((v) => v ?? null),
    // Fair shares (decision 0073): enforced when people register, shown on the registration form.
    maxPerOrder: z
      .number({ error: "Max per order must be a whole number" })
      .int("Max per order must be a whole number")
      .min(1, "Max per order must be at least 1")
      .max(1000, "Max per order must be at most 1000")
      .default(10),
    maxPerAccount: z
      .number({ error: "Max per account must be a whole number" })
      .int("Max per account must be a whole number")
      .min(1, "Max per account must be at least 1")
      .max(100, "Max per account must be at most 100")
      .default(1),
    // A group ticket (decision 0093): its one QR code admits this many people per event day.
    admits: z
      .number({ error: "Admits must be a whole number" })
      .int("Admits must be a whole number")
      .min(1, "Admits must be at least 1")
      .max(1000, "Admits must be at most 1000")
      .default(1),
    availableUntil: z
      .string()
      .trim()
      .optional()
      .refine((v) => !v || (ISO_DATE.test(v) && !Number.isNaN(Date.parse(v))), {
        message: "Please enter a valid date",
      })
      .transform((v) => v || null),
    /**
     * Optional start of sale (decision 0084), wall-clock text in the event's zone like the
     * event's own times; `feesFormSchema(timeZone)` turns it into the instant.
     */
    saleStartsAt: optionalDateTime,
    /** A ticket's own online join link (e.g. a workshop room), over the event's. */
    joinUrl: joinUrlField,
    description: optionalText(1000),
  })
  // The amount becomes integer minor units with the row's currency (decision 0081): UGX and RWF
  // have no decimals, so '1500.50' is refused for them here.
  .transform(({ amount, ...row }, ctx) => {
    // 'Available until' is a whole day (its last second in the event's zone): a sale start on
    // that day or earlier leaves the ticket on sale for a while; a later one never would.
    if (
      row.saleStartsAt &&
      row.availableUntil &&
      row.saleStartsAt.slice(0, 10) > row.availableUntil
    ) {
      ctx.addIssue({ code: "custom", path: ["saleStartsAt"], message: SALE_START_AFTER_UNTIL });
    }
    const amountMinor = parseMinorUnits(amount.replace(/^-/, ""), row.currency);
    if (amountMinor === null) {
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message: `Amount can have no decimal places in ${row.currency}`,
      });
      return z.NEVER;
    }
    return { ...row, amountMinor };
  });

/** The fees card as typed: sale starts stay wall-clock text (the browser's validation). */
export const FeesFormSchema = z.object({
  fees: z
    .array(FeeRowSchema)
    .max(50)
    .optional()
    .transform((rows) => rows ?? []),
});

/**
 * The fees card read in the event's saved time zone: each sale start becomes its instant, and a
 * time the zone skips (daylight saving) is refused at its field.
 */
export function feesFormSchema(timeZone: string) {
  return FeesFormSchema.transform(({ fees }, ctx) => ({
    fees: fees.map((fee, i) => {
      if (!fee.saleStartsAt) return { ...fee, saleStartsAt: null };
      const instant = zonedLocalToDate(fee.saleStartsAt, timeZone);
      if (!instant) {
        ctx.addIssue({
          code: "custom",
          message: skippedTimeMessage,
          path: ["fees", i, "saleStartsAt"],
        });
      }
      return { ...fee, saleStartsAt: instant };
    }),
  }));
}

export type FeeRowValues = z.output<typeof FeeRowSchema>;
