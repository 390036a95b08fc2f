// What attendees and the accounts that register are told: one template per message, plain data
// in, subject and text out. These mails go to addresses someone typed (an attendee's), so they
// open with a fixed greeting and carry nothing the registrant wrote.
import { formatDate, formatDateRange, formatTime } from "~/lib/format";

type EventFacts = {
  title: string;
  location: string;
  startDate: Date;
  endDate: Date;
  timeZone: string;
};

const GREETING = "Hello,";

const seatCount = (quantity: number) => `${quantity} ${quantity === 1 ? "seat" : "seats"}`;

function whenLine(event: Omit<EventFacts, "title" | "location">) {
  return `When: ${formatDateRange(event.startDate, event.endDate, event.timeZone)}, from ${formatTime(event.startDate, event.timeZone)} (${event.timeZone} time)`;
}

export type ConfirmationMailFacts = {
  event: EventFacts;
  ticketLabel: string;
  quantity: number;
  ticketCount: number;
  ticketUrl: string;
  /** Until when the attendee may cancel online, and how long before the start that is. */
  selfCancelDeadline: Date;
  selfCancelHours: number;
};

/** To the attendee named, with their QR codes and the event's calendar file attached. */
export function confirmationMail(facts: ConfirmationMailFacts) {
  const { event } = facts;
  const seats = facts.quantity === 1 ? "1 seat" : `${facts.quantity} seats`;
  const deadline = facts.selfCancelDeadline;
  return {
    subject: `You're registered: ${event.title}`,
    text: [
      GREETING,
      "",
      `You are registered for ${event.title}: ${facts.ticketLabel}, ${seats}.`,
      whenLine(event),
      `Where: ${event.location}`,
      "",
      `Your ticket: the attached QR code${facts.ticketCount > 1 ? "s (one per seat)" : ""} will be scanned at the entrance. You can also show it from ${facts.ticketUrl}`,
      "The event is attached as a calendar file (.ics).",
      "",
      `You can cancel online until ${formatDate(deadline, event.timeZone)} ${formatTime(deadline, event.timeZone)} (${facts.selfCancelHours} hours before the start) from "My events" on your profile.`,
    ].join("\n"),
  };
}

export type EventChange = "time" | "place" | "cancelled";

const CHANGE_SUBJECT: Record<EventChange, string> = {
  time: "New date or time",
  place: "New venue",
  cancelled: "Event cancelled",
};

export type EventChangeMailFacts = {
  event: EventFacts;
  change: EventChange;
  /** A confirmed, paid registration: a refund is due if the event is cancelled. */
  paidAndConfirmed: boolean;
  eventUrl: string;
};

export function eventChangeMail(facts: EventChangeMailFacts) {
  const { event, change } = facts;
  const lines =
    change === "cancelled"
      ? [
          `We are sorry: ${event.title} has been cancelled.`,
          ...(facts.paidAndConfirmed
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
  return {
    subject: `${CHANGE_SUBJECT[change]}: ${event.title}`,
    text: [GREETING, "", ...lines, "", `The event: ${facts.eventUrl}`].join("\n"),
  };
}

export type ClosedRegistrationMailFacts = {
  eventTitle: string;
  to: "cancelled" | "expired";
  ticketLabel: string;
  quantity: number;
  /** Staff's reason only: a registrant's own words are never mailed on. */
  staffReason?: string;
  /** A confirmed, paid registration was cancelled: a refund is due. */
  refundDue: boolean;
  eventUrl: string;
};

/** A registration cancelled, or an unpaid hold released at the end of its order's hold. */
export function closedRegistrationMail(facts: ClosedRegistrationMailFacts) {
  return {
    subject:
      facts.to === "cancelled"
        ? `Registration cancelled: ${facts.eventTitle}`
        : `Seats released: ${facts.eventTitle}`,
    text: [
      GREETING,
      "",
      facts.to === "cancelled"
        ? `The registration for ${facts.eventTitle} (${facts.ticketLabel}, ${seatCount(facts.quantity)}) is cancelled.`
        : `The invoice for ${facts.eventTitle} was not paid in time, so the ${facts.quantity === 1 ? "seat held for you was" : "seats held for you were"} released.`,
      ...(facts.staffReason ? [`Reason: ${facts.staffReason}`] : []),
      ...(facts.refundDue
        ? ["", "Our team will contact you about a refund of what you paid."]
        : []),
      "",
      `The event: ${facts.eventUrl}`,
    ].join("\n"),
  };
}

export type WaitlistOfferMailFacts = {
  eventTitle: string;
  timeZone: string;
  ticketLabel: string;
  quantity: number;
  offerExpiresAt: Date;
  claimUrl: string;
};

/** To the account that waits (only it can claim). */
export function waitlistOfferMail(facts: WaitlistOfferMailFacts) {
  const seats = facts.quantity === 1 ? "A seat" : `${facts.quantity} seats`;
  const until = `${formatDate(facts.offerExpiresAt, facts.timeZone)} ${formatTime(facts.offerExpiresAt, facts.timeZone)}`;
  return {
    subject: `A seat is free for you: ${facts.eventTitle}`,
    text: [
      GREETING,
      "",
      `${seats} for ${facts.eventTitle} (${facts.ticketLabel}) ${facts.quantity === 1 ? "is" : "are"} free and held for you until ${until}.`,
      "Claim your place here:",
      facts.claimUrl,
      "",
      "If you do not claim it by then, it goes to the next person on the waitlist.",
    ].join("\n"),
  };
}

export type ReminderMailFacts = {
  title: string;
  location: string;
  startDate: Date;
  timeZone: string;
  /** "7 days" or "1 day". */
  startsIn: string;
  ticketUrl: string;
};

export function reminderMail(facts: ReminderMailFacts) {
  return {
    subject: `Reminder: ${facts.title} starts in ${facts.startsIn}`,
    text: [
      GREETING,
      "",
      `${facts.title} starts on ${formatDate(facts.startDate, facts.timeZone)} at ${formatTime(facts.startDate, facts.timeZone)} (${facts.timeZone}).`,
      `Where: ${facts.location}`,
      "",
      `Your ticket with its QR code: ${facts.ticketUrl}`,
    ].join("\n"),
  };
}
