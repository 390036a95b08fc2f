// The jobs registrations enqueue (in the transaction of the change that caused them): the
// confirmation with the event's .ics and one QR ticket per seat, the e-mail when the event
// changes, the end of a waitlist offer, and the reminders schedule.
import QRCode from "qrcode";
import { env } from "~/lib/env.server";
import { formatDate, formatDateRange, formatTime } from "~/lib/format";
import { buildCalendar } from "~/lib/ics.server";
import type { MailAttachment } from "~/lib/mail.server";
import { sendMailOnce } from "~/lib/mail.server";
import { getCalendarEventBySlug } from "~/models/events/queries.server";
import { defineJob, defineSchedule } from "~/models/jobs.server";
import { REGISTRATION_JOBS } from "./job-kinds";
import { getRegistrationForMail } from "./queries.server";
import {
  enqueueDueReminders,
  expireWaitlistOffer,
  SELF_CANCEL_HOURS_BEFORE,
  selfCancelDeadline,
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

function whenLine(event: { startDate: Date; endDate: Date; timeZone: string }) {
  return `When: ${formatDateRange(event.startDate, event.endDate, event.timeZone)}, from ${formatTime(event.startDate, event.timeZone)} (${event.timeZone} time)`;
}

defineJob<{ registrationId: string }>(
  REGISTRATION_JOBS.confirmationMail,
  async ({ registrationId }) => {
    const detail = await getRegistrationForMail(registrationId);
    if (detail?.registration.state !== "confirmed") return;
    const { registration, event } = detail;
    const qrs = await Promise.all(
      detail.tickets.map(async (t) => ({
        filename: `ticket-${t.seat}.png`,
        content: await ticketQrPng(t.code),
        contentType: "image/png",
      })),
    );
    const deadline = selfCancelDeadline(event.startDate);
    const seats = registration.quantity === 1 ? "1 seat" : `${registration.quantity} seats`;
    // One fixed text to the attendee named, with their own QR codes; nothing the registrant typed.
    await sendMailOnce(`registration:${registrationId}:confirmation`, {
      to: registration.attendeeEmail,
      subject: `You're registered: ${event.title}`,
      text: [
        "Hello,",
        "",
        `You are registered for ${event.title}: ${registration.ticketLabel}, ${seats}.`,
        whenLine(event),
        `Where: ${event.location}`,
        "",
        `Your ticket: the attached QR code${detail.tickets.length > 1 ? "s (one per seat)" : ""} will be scanned at the entrance. You can also show it from ${env().BASE_URL}/registrations/${registrationId}`,
        "The event is attached as a calendar file (.ics).",
        "",
        `You can cancel online until ${formatDate(deadline, event.timeZone)} ${formatTime(deadline, event.timeZone)} (${SELF_CANCEL_HOURS_BEFORE} hours before the start) from "My events" on your profile.`,
      ].join("\n"),
      attachments: [...(await calendarAttachment(event.slug)), ...qrs],
    });
  },
);

const CHANGE_SUBJECT = {
  time: "New date or time",
  place: "New venue",
  cancelled: "Event cancelled",
} as const;

defineJob<{ registrationId: string; change: keyof typeof CHANGE_SUBJECT; key: string }>(
  REGISTRATION_JOBS.changeMail,
  async ({ registrationId, change, key }) => {
    const detail = await getRegistrationForMail(registrationId);
    if (!detail) return;
    const { registration, event } = detail;
    // Held, unpaid seats: the account that holds them is told, not the attendee it named.
    const to =
      registration.state === "confirmed" ? registration.attendeeEmail : detail.accountEmail;
    if (!to) return;
    const lines =
      change === "cancelled"
        ? [
            `We are sorry: ${event.title} has been cancelled.`,
            ...(registration.unitAmountMinor > 0 && registration.state === "confirmed"
              ? ["Our team will contact you about a refund of what you paid."]
              : []),
          ]
        : [
            change === "time"
              ? `${event.title} has a new date or time.`
              : `${event.title} has a new venue.`,
            whenLine(event),
            `Where: ${event.location}`,
            "",
            "The updated calendar file (.ics) is attached; opening it updates the event in your calendar.",
          ];
    await sendMailOnce(key, {
      to,
      subject: `${CHANGE_SUBJECT[change]}: ${event.title}`,
      text: [
        "Hello,",
        "",
        ...lines,
        "",
        `The event: ${env().BASE_URL}/events/${encodeURIComponent(event.slug)}`,
      ].join("\n"),
      attachments: change === "cancelled" ? [] : await calendarAttachment(event.slug),
    });
  },
);

defineJob<{ entryId: string }>(REGISTRATION_JOBS.offerExpiry, async ({ entryId }) => {
  await expireWaitlistOffer(entryId);
});

defineSchedule(REGISTRATION_JOBS.reminders, 15 * 60_000, async () => {
  await enqueueDueReminders();
});
