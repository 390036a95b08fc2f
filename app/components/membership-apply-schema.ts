import { z } from "zod";

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters` })
    .optional();

/** The membership application (/membership/apply/:plan). */
export const MembershipApplySchema = z
  .object({
    plan: z.enum(["individual", "professional", "corporate"], { error: "Choose a plan" }),
    memberName: z
      .string({ error: "Enter your full name" })
      .trim()
      .min(1, { error: "Enter your full name" })
      .max(200, { error: "Name must be at most 200 characters" }),
    organisationName: optionalText(200, "Organisation name"),
    taxId: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{3,24}$/, {
        error: "Enter a KRA PIN (e.g. P051234567X) or VAT number",
      })
      .optional(),
    billingContactName: optionalText(200, "Billing contact name"),
    billingContactEmail: z.email({ error: "Enter a valid e-mail address" }).optional(),
    student: z.boolean().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.plan === "corporate") {
      if (!value.organisationName) {
        ctx.addIssue({
          code: "custom",
          path: ["organisationName"],
          message: "Enter the organisation's name",
        });
      }
      if (!value.taxId) {
        ctx.addIssue({
          code: "custom",
          path: ["taxId"],
          message: "Enter the KRA PIN or VAT number",
        });
      }
      if (!value.billingContactEmail) {
        ctx.addIssue({
          code: "custom",
          path: ["billingContactEmail"],
          message: "Enter the billing contact's e-mail address",
        });
      }
      if (value.student) {
        ctx.addIssue({
          code: "custom",
          path: ["student"],
          message: "The student discount is for Individual and Professional plans",
        });
      }
    }
  });

export type MembershipApplyValues = z.infer<typeof MembershipApplySchema>;
