/** The job kinds the registrations model enqueues (their handlers: ./registration-jobs.server.ts). */
export const REGISTRATION_JOBS = {
  confirmationMail: "registration.confirmation-mail",
  changeMail: "registration.change-mail",
  offerExpiry: "waitlist.offer-expiry",
  reminders: "registration.reminders",
} as const;
