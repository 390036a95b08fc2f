import { eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { contactMessages } from "~/db/schema";
import { CONTACT_REGIONS } from "~/lib/constants";
import { env } from "~/lib/env.server";
import {
  CONTACT_EMAIL_PATTERN,
  CONTACT_LIMITS,
  HONEYPOT_FIELD,
  CONTACT_MESSAGES as M,
  REGION_CHOICES,
} from "~/lib/forms/contact-form-rules";
import { logger } from "~/lib/logger.server";
import { sendMail } from "~/lib/mail.server";
import { renderMail } from "~/lib/mail-layout.server";
import { hitRateLimit } from "~/lib/rate-limit.server";

const requiredText = (required: string, max: number, tooLong: string) =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong);

/** The contact form (spec §5): name, email, subject and message required; region optional. */
export const ContactFormSchema = z.object({
  name: requiredText(M.nameRequired, CONTACT_LIMITS.name, M.nameTooLong),
  email: z
    .string({ error: M.emailRequired })
    .trim()
    .min(1, M.emailRequired)
    .max(CONTACT_LIMITS.email, M.emailInvalid)
    .pipe(z.email({ pattern: CONTACT_EMAIL_PATTERN, error: M.emailInvalid })),
  subject: requiredText(M.subjectRequired, CONTACT_LIMITS.subject, M.subjectTooLong),
  message: requiredText(M.messageRequired, CONTACT_LIMITS.message, M.messageTooLong),
  region: z.enum(REGION_CHOICES, { error: M.regionInvalid }).optional(),
  [HONEYPOT_FIELD]: z.string().optional(),
});

export type ContactRegion = (typeof CONTACT_REGIONS)[number]["value"];

export type ContactMessageInput = {
  name: string;
  email: string;
  subject: string;
  message: string;
  region: ContactRegion | null;
};

export type ContactSender = {
  ip: string;
  userAgent: string | null;
  /** The hidden honeypot field: people leave it empty, form-filling bots do not. */
  honeypot?: string | null;
};

export type ContactOutcome =
  | { status: "sent"; id: string }
  | { status: "dropped" }
  | { status: "rate-limited"; retryAfterSeconds: number };

/** Per client: at most 5 messages in 10 minutes. */
export const CONTACT_RATE_LIMIT = { max: 5, windowMs: 10 * 60 * 1000 };

/**
 * Receives a contact-form message: rate-limited per client, dropped silently when the honeypot
 * is filled, otherwise stored in contact_messages and mailed to the staff address (CONTACT_TO).
 * Throws when it cannot be stored or the notification cannot be sent; a message whose
 * notification fails is removed again, so the sender can simply retry (docs/decisions/0601).
 */
export async function receiveContactMessage(
  input: ContactMessageInput,
  sender: ContactSender,
): Promise<ContactOutcome> {
  const limit = await hitRateLimit(`contact:${sender.ip}`, CONTACT_RATE_LIMIT);
  if (!limit.allowed) return { status: "rate-limited", retryAfterSeconds: limit.retryAfterSeconds };

  if (sender.honeypot?.trim()) {
    logger.info({ ip: sender.ip }, "contact message dropped: honeypot filled");
    return { status: "dropped" };
  }

  const [stored] = await getDb()
    .insert(contactMessages)
    .values({ ...input, ip: sender.ip, userAgent: sender.userAgent })
    .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });

  try {
    await sendMail(contactNotification(input, stored.createdAt));
  } catch (error) {
    await getDb()
      .delete(contactMessages)
      .where(eq(contactMessages.id, stored.id))
      .catch((cleanupError) =>
        logger.error({ err: cleanupError, id: stored.id }, "could not remove undelivered message"),
      );
    throw error;
  }
  return { status: "sent", id: stored.id };
}

export function regionLabel(region: ContactRegion | null) {
  return CONTACT_REGIONS.find((r) => r.value === region)?.label ?? "Not specified";
}

/** The mail the staff address receives; replying answers the sender directly. */
export function contactNotification(input: ContactMessageInput, receivedAt: Date) {
  const config = env();
  const subjectLine = input.subject.replace(/\s+/g, " ").trim();
  return {
    to: config.CONTACT_TO,
    replyTo: input.email,
    ...renderMail({
      subject: `[Contact] ${subjectLine}`,
      blocks: [
        {
          kind: "paragraph",
          text: `New message from the contact form (${receivedAt.toISOString()}).`,
        },
        {
          kind: "facts",
          rows: [
            ["Name", input.name],
            ["Email", input.email],
            ["Region", regionLabel(input.region)],
            ["Subject", subjectLine],
          ],
        },
        { kind: "quote", text: input.message },
        { kind: "note", text: `Reply to this e-mail to answer ${input.name} directly.` },
        { kind: "button", label: "All messages", url: `${config.BASE_URL}/admin/messages` },
      ],
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Event proposals ('Propose an Event' for people who may not open the back office)
// ---------------------------------------------------------------------------------------------

export const EventProposalSchema = z.object({
  title: requiredText("Event title is required", 200, "Event title must be at most 200 characters"),
  eventType: z.string().trim().max(100).optional(),
  location: requiredText("Location is required", 200, "Location must be at most 200 characters"),
  dates: requiredText(
    "Proposed dates are required",
    200,
    "Proposed dates must be at most 200 characters",
  ),
  description: requiredText(
    "Please describe the event",
    CONTACT_LIMITS.message - 500,
    `Description must be at most ${CONTACT_LIMITS.message - 500} characters`,
  ),
  name: ContactFormSchema.shape.name,
  email: ContactFormSchema.shape.email,
  [HONEYPOT_FIELD]: z.string().optional(),
});

export type EventProposal = Omit<z.output<typeof EventProposalSchema>, typeof HONEYPOT_FIELD>;

/** A proposal as the inbox message editors read: the subject names it, the body lists it. */
export function eventProposalMessage(proposal: EventProposal): ContactMessageInput {
  return {
    name: proposal.name,
    email: proposal.email,
    subject: `Event Proposal: ${proposal.title}`.slice(0, CONTACT_LIMITS.subject),
    message: [
      `Event: ${proposal.title}`,
      `Type: ${proposal.eventType || "Not specified"}`,
      `Location: ${proposal.location}`,
      `Proposed dates: ${proposal.dates}`,
      "",
      proposal.description,
    ].join("\n"),
    region: null,
  };
}

/** Puts a proposal in the editors' inbox (and mails staff), with the contact form's limits. */
export function receiveEventProposal(proposal: EventProposal, sender: ContactSender) {
  return receiveContactMessage(eventProposalMessage(proposal), sender);
}
