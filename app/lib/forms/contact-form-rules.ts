// The contact form's rules, shared by the browser check (contact-form.tsx) and the Zod schema of
// the action (ContactFormSchema in models/messages/contact.server.ts): one set of limits and
// messages.
import { CONTACT_REGIONS } from "~/lib/constants";

/** The select's "no region" choice (a select item never has an empty-string value). */
export const NO_REGION = "none";

/** Name of the hidden honeypot field: people never see it, form-filling bots fill it in. */
export const HONEYPOT_FIELD = "website";

export const CONTACT_LIMITS = { name: 200, email: 254, subject: 200, message: 5000 } as const;

/** Zod 4's default e-mail pattern, used on both sides so they never disagree. */
export const CONTACT_EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export const CONTACT_MESSAGES = {
  nameRequired: "Name is required",
  nameTooLong: `Name must be at most ${CONTACT_LIMITS.name} characters`,
  emailRequired: "Email is required",
  emailInvalid: "Please enter a valid email address",
  subjectRequired: "Subject is required",
  subjectTooLong: `Subject must be at most ${CONTACT_LIMITS.subject} characters`,
  messageRequired: "Message is required",
  messageTooLong: `Message must be at most ${CONTACT_LIMITS.message} characters`,
  regionInvalid: "Please choose one of the listed regions",
} as const;

export const CONTACT_SUCCESS = {
  title: "Message sent!",
  description: "Thank you for contacting us. We'll get back to you within 24 hours.",
} as const;

export const REGION_CHOICES = [NO_REGION, ...CONTACT_REGIONS.map((r) => r.value)] as const;

/** Field errors for a submitted payload (the same outcome as ContactFormSchema), or null. */
export function checkContactFields(payload: Record<string, unknown>) {
  const text = (key: string) => (typeof payload[key] === "string" ? payload[key].trim() : "");
  const errors: Record<string, string[]> = {};
  const name = text("name");
  const email = text("email");
  const subject = text("subject");
  const message = text("message");
  const region = payload.region;

  if (!name) errors.name = [CONTACT_MESSAGES.nameRequired];
  else if (name.length > CONTACT_LIMITS.name) errors.name = [CONTACT_MESSAGES.nameTooLong];
  if (!email) errors.email = [CONTACT_MESSAGES.emailRequired];
  else if (email.length > CONTACT_LIMITS.email || !CONTACT_EMAIL_PATTERN.test(email)) {
    errors.email = [CONTACT_MESSAGES.emailInvalid];
  }
  if (!subject) errors.subject = [CONTACT_MESSAGES.subjectRequired];
  else if (subject.length > CONTACT_LIMITS.subject) {
    errors.subject = [CONTACT_MESSAGES.subjectTooLong];
  }
  if (!message) errors.message = [CONTACT_MESSAGES.messageRequired];
  else if (message.length > CONTACT_LIMITS.message) {
    errors.message = [CONTACT_MESSAGES.messageTooLong];
  }
  if (
    region !== undefined &&
    region !== "" &&
    !(REGION_CHOICES as readonly unknown[]).includes(region)
  ) {
    errors.region = [CONTACT_MESSAGES.regionInvalid];
  }
  return Object.keys(errors).length ? errors : null;
}
