// The jobs registrations enqueue (in the transaction of the change that caused them): the
// confirmation with the event's .ics and one QR ticket per seat, the e-mail when the event
// changes, the end of a waitlist offer, and the reminders schedule. Registered by the wiring
// module (wiring.server.ts); the wording is in ./registration-mails.ts.
import QRCode from "qrcode";
import { env } from "~/lib/env.server";
import { buildCalendar } from "~/lib/ics.server";
import type { MailAttachment } from "~/lib/mail.server";
import { sendMailOnce } from "~/lib/mail.server";
import { getCalendarEventBySlug } from "~/models/events/queries.server";
import { defineJob, defineSchedule } from "~/models/jobs.server";
import { REGISTRATION_JOBS } from "./job-kinds";
import { getRegistrationForMail } from "./queries.server";
import { confirmationMail, type EventChange, eventChangeMail } from "./registration-mails";
import {
  enqueueDueReminders,
  eventUrl,
  expireWaitlistOffer,
  SELF_CANCEL_HOURS_BEFORE,
  selfCancelDeadline,
  ticketUrl,
} from "./registrations.server";

/** The QR image of a ticket: it carries the ticket code only (check-in looks it up). */
export function ticketQrPng(code: string) {
  return QRCode.toBuffer(code, { type: "png", width: 320, margin: 2, errorCorrectionLevel: "M" });
}

export function ticketQrSvg(code: string) {
  return QRCode.toString(code, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
}

async function calendarAttachment(slug: string): Promise<MailAttachment[]> {
  const event = await getCalendarEventBySlug(slug);
  if (!event) return [];
  return [
    {
      filename: `${event.slug}.ics`,
      content: Buffer.from(buildCalendar([event], { origin: env().BASE_URL, name: event.title })),
      contentType: "text/calendar; charset=utf-8; method=PUBLISH",
    },
  ];
}

async function sendConfirmationMail({ registrationId }: { registrationId: string }) {
  const detail = await getRegistrationForMail(registrationId);
  if (detail?.registration.state !== "confirmed") return;
  const { registration, event } = detail;
  const qrs = await Promise.all(
    detail.tickets.map(async (t) => ({
      filename: `${event.slug}-ticket-${t.seat}.png`,
      content: await ticketQrPng(t.code),
      contentType: "image/png",
    })),
  );
  // One fixed text to the attendee named, with their own QR codes; nothing the registrant typed.
  await sendMailOnce(`registration:${registrationId}:confirmation`, {
    to: registration.attendeeEmail,
    ...confirmationMail({
      event,
      ticketLabel: registration.ticketLabel,
      quantity: registration.quantity,
      ticketCount: detail.tickets.length,
      admits: Math.max(1, ...detail.tickets.map((t) => t.admits)),
      ticketUrl: ticketUrl(registrationId),
      selfCancelDeadline: selfCancelDeadline(event.startDate),
      selfCancelHours: SELF_CANCEL_HOURS_BEFORE,
    }),
    attachments: [...(await calendarAttachment(event.slug)), ...qrs],
  });
}

async function sendEventChangeMail(payload: {
  registrationId: string;
  change: EventChange;
  key: string;
}) {
  const detail = await getRegistrationForMail(payload.registrationId);
  if (!detail) return;
  const { registration, event } = detail;
  // Held, unpaid seats: the account that holds them is told, not the attendee it named.
  const to = registration.state === "confirmed" ? registration.attendeeEmail : detail.accountEmail;
  if (!to) return;
  await sendMailOnce(payload.key, {
    to,
    ...eventChangeMail({
      event,
      change: payload.change,
      paidAndConfirmed: registration.unitAmountMinor > 0 && registration.state === "confirmed",
      eventUrl: eventUrl(event.slug),
    }),
    // Every change carries the event's calendar file; a cancellation's reads STATUS:CANCELLED
    // with the higher SEQUENCE, so opening it removes (strikes) the event in the calendar.
    attachments: await calendarAttachment(event.slug),
  });
}

/** How often the reminders schedule looks for reminders that came due. */
export const REMINDERS_EVERY_MS = 15 * 60_000;

export function registerRegistrationJobs() {
  defineJob(REGISTRATION_JOBS.confirmationMail, sendConfirmationMail);
  defineJob(REGISTRATION_JOBS.changeMail, sendEventChangeMail);
  defineJob<{ entryId: string }>(REGISTRATION_JOBS.offerExpiry, async ({ entryId }) => {
    await expireWaitlistOffer(entryId);
  });
  defineSchedule(REGISTRATION_JOBS.reminders, REMINDERS_EVERY_MS, async () => {
    await enqueueDueReminders();
  });
}
