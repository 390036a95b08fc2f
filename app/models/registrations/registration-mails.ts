// What attendees and the accounts that register are told: one template per message, plain data
// in, subject, text and HTML out (mail-layout). These mails go to addresses someone typed (an
// attendee's), so they open with a fixed greeting and carry nothing the registrant wrote.
import { formatDate, formatDateRange, formatTime } from "~/lib/format";
import { type MailBlock, renderMail } from "~/lib/mail-layout.server";

type EventFacts = {
  title: string;
  location: string;
  startDate: Date;
  endDate: Date;
  timeZone: string;
};

const GREETING = "Hello,";

const seatCount = (quantity: number) => `${quantity} ${quantity === 1 ? "seat" : "seats"}`;

function whenAndWhere(event: Omit<EventFacts, "title">): MailBlock {
  return {
    kind: "facts",
    rows: [
      [
        "When",
        `${formatDateRange(event.startDate, event.endDate, event.timeZone)}, from ${formatTime(event.startDate, event.timeZone)} (${event.timeZone} time)`,
      ],
      ["Where", event.location],
    ],
  };
}

export type ConfirmationMailFacts = {
  event: EventFacts;
  ticketLabel: string;
  quantity: number;
  ticketCount: number;
  /** People each ticket admits (a group ticket, decision 0093); 1 for everyone else. */
  admits?: number;
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
  return renderMail({
    subject: `You're registered: ${event.title}`,
    greeting: GREETING,
    blocks: [
      {
        kind: "paragraph",
        text: `You are registered for ${event.title}: ${facts.ticketLabel}, ${seats}.`,
      },
      whenAndWhere(event),
      {
        kind: "paragraph",
        text: `Your ticket: the attached QR code${facts.ticketCount > 1 ? "s (one per seat)" : ""} will be scanned at the entrance. You can also show ${facts.ticketCount > 1 ? "them" : "it"} from your ticket page.\nThe event is attached as a calendar file (.ics).`,
      },
      ...((facts.admits ?? 1) > 1
        ? [
            {
              kind: "paragraph" as const,
              text: `This is a group ticket: its one QR code admits ${facts.admits} people each day of the event.`,
            },
          ]
        : []),
      { kind: "button", label: "Show your ticket", url: facts.ticketUrl },
      {
        kind: "note",
        text: `You can cancel online until ${formatDate(deadline, event.timeZone)} ${formatTime(deadline, event.timeZone)} (${facts.selfCancelHours} hours before the start) from "My events" on your profile.`,
      },
    ],
  });
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
  const blocks: MailBlock[] =
    change === "cancelled"
      ? [
          {
            kind: "paragraph",
            text: `We are sorry: ${event.title} has been cancelled.${facts.paidAndConfirmed ? "\nOur team will contact you about a refund of what you paid." : ""}`,
          },
          {
            kind: "paragraph",
            text: "The attached calendar file (.ics) marks the event as cancelled; opening it updates your calendar.",
          },
        ]
      : [
          {
            kind: "paragraph",
            text:
              change === "time"
                ? `${event.title} has a new date or time.`
                : `${event.title} has a new venue.`,
          },
          whenAndWhere(event),
          {
            kind: "paragraph",
            text: "The updated calendar file (.ics) is attached; opening it updates the event in your calendar.",
          },
        ];
  return renderMail({
    subject: `${CHANGE_SUBJECT[change]}: ${event.title}`,
    greeting: GREETING,
    blocks: [...blocks, { kind: "button", label: "View the event", url: facts.eventUrl }],
  });
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
  const what =
    facts.to === "cancelled"
      ? `The registration for ${facts.eventTitle} (${facts.ticketLabel}, ${seatCount(facts.quantity)}) is cancelled.`
      : `The invoice for ${facts.eventTitle} was not paid in time, so the ${facts.quantity === 1 ? "seat held for you was" : "seats held for you were"} released.`;
  return renderMail({
    subject:
      facts.to === "cancelled"
        ? `Registration cancelled: ${facts.eventTitle}`
        : `Seats released: ${facts.eventTitle}`,
    greeting: GREETING,
    blocks: [
      {
        kind: "paragraph",
        text: facts.staffReason ? `${what}\nReason: ${facts.staffReason}` : what,
      },
      ...(facts.refundDue
        ? [
            {
              kind: "paragraph" as const,
              text: "Our team will contact you about a refund of what you paid.",
            },
          ]
        : []),
      { kind: "button", label: "View the event", url: facts.eventUrl },
    ],
  });
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
  return renderMail({
    subject: `A seat is free for you: ${facts.eventTitle}`,
    greeting: GREETING,
    blocks: [
      {
        kind: "paragraph",
        text: `${seats} for ${facts.eventTitle} (${facts.ticketLabel}) ${facts.quantity === 1 ? "is" : "are"} free and held for you until ${until}.`,
      },
      { kind: "button", label: "Claim your place", url: facts.claimUrl },
      {
        kind: "note",
        text: "If you do not claim it by then, it goes to the next person on the waitlist.",
      },
    ],
  });
}

export type WaitlistOfferExpiredMailFacts = {
  eventTitle: string;
  registerUrl: string;
};

/** The offer ran out unclaimed: the place is gone, and joining again is one click away. */
export function waitlistOfferExpiredMail(facts: WaitlistOfferExpiredMailFacts) {
  return renderMail({
    subject: `Your waitlist offer ran out: ${facts.eventTitle}`,
    greeting: GREETING,
    blocks: [
      {
        kind: "paragraph",
        text: `The seat held for you for ${facts.eventTitle} was not claimed in time, so it went to the next person on the waitlist.`,
      },
      { kind: "button", label: "Join the waitlist again", url: facts.registerUrl },
      {
        kind: "note",
        text: "Joining again puts you at the end of the waitlist; we write as soon as a seat is free.",
      },
    ],
  });
}

export type ReminderMailFacts = {
  title: string;
  location: string;
  startDate: Date;
  timeZone: string;
  /** "7 days" or "1 day". */
  startsIn: string;
  ticketUrl: string;
  /** An online event's join link, for confirmed registrants only (issue 30). */
  joinUrl?: string | null;
};

export function reminderMail(facts: ReminderMailFacts) {
  return renderMail({
    subject: `Reminder: ${facts.title} starts in ${facts.startsIn}`,
    greeting: GREETING,
    blocks: [
      {
        kind: "paragraph",
        text: `${facts.title} starts on ${formatDate(facts.startDate, facts.timeZone)} at ${formatTime(facts.startDate, facts.timeZone)} (${facts.timeZone}).`,
      },
      { kind: "facts", rows: [["Where", facts.location]] },
      { kind: "button", label: "Show your ticket with its QR code", url: facts.ticketUrl },
      ...(facts.joinUrl
        ? [{ kind: "link" as const, label: "Join online", url: facts.joinUrl }]
        : []),
    ],
  });
}
