import { z } from "zod";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Lines of a textarea as a list (blank lines dropped). */
export function lines(text: string | null | undefined) {
  return (text ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/**
 * The call-for-papers form (issue 32): deadlines are days, ending at 23:59 Nairobi time; tracks and
 * review criteria one per line; 'none' means the call feeds no event.
 */
export const CallFormSchema = z
  .object({
    title: z
      .string({ error: "Title is required" })
      .trim()
      .min(1, "Title is required")
      .max(200, "Title must be at most 200 characters"),
    description: z
      .string()
      .trim()
      .max(5000, "Description must be at most 5000 characters")
      .optional()
      .transform((v) => v ?? ""),
    tracks: z
      .string()
      .optional()
      .transform((v) => lines(v))
      .refine((v) => v.length <= 20, "At most 20 tracks"),
    criteria: z
      .string({ error: "At least one review criterion is required" })
      .transform((v) => lines(v))
      .refine((v) => v.length >= 1, "At least one review criterion is required")
      .refine((v) => v.length <= 10, "At most 10 review criteria"),
    submissionDeadline: z
      .string({ error: "Submission deadline is required" })
      .regex(DAY, "Submission deadline is required"),
    reviewDeadline: z
      .string({ error: "Review deadline is required" })
      .regex(DAY, "Review deadline is required"),
    eventId: z
      .string()
      .optional()
      .transform((v) => (v && v !== "none" ? v : null)),
    blindMode: z.enum(["double", "single"], { error: "Choose how reviews are blinded" }),
  })
  .refine((v) => v.reviewDeadline >= v.submissionDeadline, {
    path: ["reviewDeadline"],
    message: "The review deadline must be after the submission deadline",
  });

export type CallFormValues = z.output<typeof CallFormSchema>;
