// Every transactional mail template, rendered with sample facts: each has both parts from one
// source, the text part carries every link, the HTML part has the logo and exactly one button
// that goes where the text says, and nothing typed by a person turns into markup.
import { describe, expect, it } from "vitest";
import type { RenderedMail } from "~/lib/mail-layout.server";
import {
  applicationApprovedMail,
  applicationRejectedMail,
  membershipLapsedMail,
  renewalNoticeMail,
  seatInvitationMail,
  upgradeApprovedMail,
  upgradeRejectedMail,
} from "~/models/membership/membership-mails";
import { contactNotification } from "~/models/messages/contact.server";
import {
  holdReminderMail,
  invoiceMail,
  receiptMail,
  refundMail,
} from "~/models/orders/order-mails";
import {
  closedRegistrationMail,
  confirmationMail,
  eventChangeMail,
  reminderMail,
  waitlistOfferExpiredMail,
  waitlistOfferMail,
} from "~/models/registrations/registration-mails";

const ORIGIN = "http://localhost:3000";
/** Typed by people: a name, a venue, an organisation, a message. */
const TYPED = `Wanjirũ <b>"Mutua"</b> & Co`;
const event = {
  title: `Records Summit ${TYPED}`,
  location: `KICC ${TYPED}`,
  startDate: new Date("2027-03-03T06:00:00Z"),
  endDate: new Date("2027-03-05T14:00:00Z"),
  timeZone: "Africa/Nairobi",
};
const when = new Date("2027-02-01T09:00:00Z");

const mails: [string, RenderedMail][] = [
  [
    "invoice",
    invoiceMail({
      greetName: TYPED,
      invoiceNumber: "INV-2027-000042",
      currency: "KES",
      totalMinor: 10_000_00,
      dueMinor: 10_000_00,
      mpesa: "Paybill number 522533, Account number INV-2027-000042",
      expiresAt: when,
      orderUrl: `${ORIGIN}/orders/o-1`,
    }),
  ],
  [
    "receipt",
    receiptMail({
      greetName: null,
      invoiceNumber: "INV-2027-000042",
      receiptNumber: "RCT-2027-000007",
      currency: "KES",
      amountMinor: 10_000_00,
      method: "M-Pesa",
      reference: "QK12AB34CD",
      stateBefore: "awaiting_payment",
      dueMinor: 0,
      creditMinor: 0,
      orderUrl: `${ORIGIN}/orders/o-1`,
    }),
  ],
  [
    "credit note",
    refundMail({
      greetName: null,
      invoiceNumber: "INV-2027-000042",
      creditNoteNumber: "CN-2027-000001",
      currency: "USD",
      amountMinor: 50_00,
      method: "Bank transfer",
      reference: "TT-991",
      orderUrl: `${ORIGIN}/orders/o-1`,
    }),
  ],
  [
    "application approved",
    applicationApprovedMail({
      greetName: TYPED,
      plan: "professional",
      student: true,
      invoiceNumber: "INV-2027-000043",
      profileUrl: `${ORIGIN}/profile`,
    }),
  ],
  [
    "application rejected",
    applicationRejectedMail({
      greetName: null,
      plan: "corporate",
      reason: TYPED,
      applyUrl: `${ORIGIN}/membership/apply`,
    }),
  ],
  [
    "upgrade approved",
    upgradeApprovedMail({
      greetName: null,
      from: "individual",
      to: "professional",
      invoiceNumber: "INV-2027-000044",
      profileUrl: `${ORIGIN}/profile`,
    }),
  ],
  [
    "upgrade rejected",
    upgradeRejectedMail({
      greetName: null,
      plan: "individual",
      to: "corporate",
      reason: TYPED,
      profileUrl: `${ORIGIN}/profile`,
    }),
  ],
  [
    "seat invitation",
    seatInvitationMail({
      memberName: TYPED,
      organisationName: TYPED,
      acceptUrl: `${ORIGIN}/membership/seat/tok_123`,
      expiresAt: when,
    }),
  ],
  ...(["renewal_30d", "renewal_7d", "ends_today", "grace"] as const).map(
    (kind): [string, RenderedMail] => [
      `renewal notice ${kind}`,
      renewalNoticeMail({
        greetName: TYPED,
        kind,
        plan: "professional",
        endsAt: when,
        graceEnd: when,
        renewUrl: `${ORIGIN}/membership/renew/tok_456`,
      }),
    ],
  ),
  [
    "registration confirmed",
    confirmationMail({
      event,
      ticketLabel: TYPED,
      quantity: 2,
      ticketCount: 2,
      ticketUrl: `${ORIGIN}/registrations/r-1/ticket`,
      selfCancelDeadline: when,
      selfCancelHours: 48,
    }),
  ],
  ...(["time", "place", "cancelled"] as const).map((change): [string, RenderedMail] => [
    `event change ${change}`,
    eventChangeMail({ event, change, paidAndConfirmed: true, eventUrl: `${ORIGIN}/events/e` }),
  ]),
  [
    "registration cancelled",
    closedRegistrationMail({
      eventTitle: event.title,
      to: "cancelled",
      ticketLabel: TYPED,
      quantity: 1,
      staffReason: TYPED,
      refundDue: true,
      eventUrl: `${ORIGIN}/events/e`,
    }),
  ],
  [
    "waitlist offer ran out",
    waitlistOfferExpiredMail({
      eventTitle: event.title,
      registerUrl: `${ORIGIN}/events/e/register`,
    }),
  ],
  [
    "unpaid hold reminder",
    holdReminderMail({
      greetName: TYPED,
      invoiceNumber: "INV-2027-000042",
      currency: "KES",
      dueMinor: 5_000_00,
      expiresAt: when,
      orderUrl: `${ORIGIN}/orders/o`,
    }),
  ],
  [
    "application approved, to the billing contact",
    applicationApprovedMail({
      greetName: TYPED,
      plan: "corporate",
      student: false,
      invoiceNumber: "INV-2027-000045",
      profileUrl: `${ORIGIN}/profile`,
      forBilling: {
        applicant: TYPED,
        organisationName: TYPED,
        invoiceUrl: `${ORIGIN}/membership/billing/tok_1`,
      },
    }),
  ],
  [
    "upgrade approved, to the billing contact",
    upgradeApprovedMail({
      greetName: null,
      from: "professional",
      to: "corporate",
      invoiceNumber: "INV-2027-000046",
      profileUrl: `${ORIGIN}/profile`,
      forBilling: {
        applicant: TYPED,
        organisationName: null,
        invoiceUrl: `${ORIGIN}/membership/billing/tok_2`,
      },
    }),
  ],
  [
    "renewal notice, to the billing contact",
    renewalNoticeMail({
      greetName: TYPED,
      kind: "renewal_7d",
      plan: "corporate",
      endsAt: when,
      graceEnd: when,
      renewUrl: `${ORIGIN}/membership/renew/tok_3`,
      forBilling: { applicant: TYPED, organisationName: TYPED },
    }),
  ],
  [
    "membership lapsed",
    membershipLapsedMail({
      greetName: TYPED,
      plan: "professional",
      endedAt: when,
      rejoinUrl: `${ORIGIN}/membership/apply/professional`,
    }),
  ],
  [
    "waitlist offer",
    waitlistOfferMail({
      eventTitle: event.title,
      timeZone: event.timeZone,
      ticketLabel: TYPED,
      quantity: 1,
      offerExpiresAt: when,
      claimUrl: `${ORIGIN}/events/e/register?offer=x`,
    }),
  ],
  [
    "reminder",
    reminderMail({
      title: event.title,
      location: event.location,
      startDate: event.startDate,
      timeZone: event.timeZone,
      startsIn: "1 day",
      ticketUrl: `${ORIGIN}/registrations/r-1/ticket`,
    }),
  ],
  [
    "contact notification",
    (() => {
      const { subject, text, html } = contactNotification(
        {
          name: TYPED,
          email: "w@example.test",
          subject: "Workshop",
          message: `${TYPED}\n<script>alert(1)</script>`,
          region: "africa",
        },
        when,
      );
      return { subject, text, html };
    })(),
  ],
];

describe.each(mails)("the %s mail", (_name, mail) => {
  it("has a text part that reads alone and an HTML part in the site's layout", () => {
    expect(mail.text.trim().length).toBeGreaterThan(0);
    expect(mail.text).not.toMatch(/<(p|a|table|br)\b/);
    expect(mail.text).toContain(`\n-- \nKongamano\n${ORIGIN}\n`);
    expect(mail.html).toContain('<html lang="en" dir="ltr">');
    expect(mail.html).toContain(`<img src="${ORIGIN}/mail-logo.png"`);
    expect(mail.html).toContain('alt="Kongamano"');
  });

  it("has one button, to a link the text part also gives", () => {
    const buttons = [...mail.html.matchAll(/bgcolor="#0B5FFF"[^>]*><a href="([^"]+)"/g)];
    expect(buttons).toHaveLength(1);
    const href = buttons[0][1].replace(/&#38;/g, "&");
    expect(mail.text).toContain(`:\n${href}\n`);
  });

  it("keeps what people typed as text, never markup", () => {
    expect(mail.html).not.toMatch(/<b>|<script>/);
    if (mail.text.includes(TYPED)) {
      expect(mail.html).toContain("Wanjirũ &#60;b&#62;&#34;Mutua&#34;&#60;/b&#62; &#38; Co");
    }
  });
});
