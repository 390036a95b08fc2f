// Every job handler and every reaction between domains, registered in one place (style.md rule
// 12). The server, the worker and any script that runs jobs call wireProcess() by name; a process
// that did not runs nothing: its workers claim no kind, and a paid order's unlock fails.
import { registerCfpJobs } from "./cfp/cfp-jobs.server";
import { registerBuiltInJobs } from "./jobs.server";
import { activateTerm } from "./membership/membership.server";
import { registerMembershipJobs } from "./membership/membership-jobs.server";
import { membershipOrderPayer } from "./membership/queries.server";
import { registerMpesaJobs } from "./orders/mpesa-jobs.server";
import { registerOrderJobs } from "./orders/order-jobs.server";
import { registerProviderJobs } from "./orders/provider-jobs.server";
import { defineOrderLineKind } from "./orders/reactions.server";
import { registerRegistrationJobs } from "./registrations/registration-jobs.server";
import {
  closeRegistrationsOfOrder,
  confirmPaidRegistration,
} from "./registrations/registrations.server";
import { holdSeatsAgain } from "./registrations/reinstate.server";

let wired = false;

/** Registers every job and reaction of the app (once per process; later calls do nothing). */
export function wireProcess() {
  if (wired) return;
  wired = true;
  registerBuiltInJobs();
  registerOrderJobs();
  registerMpesaJobs();
  registerProviderJobs();
  registerRegistrationJobs();
  registerMembershipJobs();
  registerCfpJobs();

  // An event ticket: paid → the registration is confirmed (tickets, mail); its order closed →
  // the held seats are freed for the waitlist; reinstated → the seats are taken back if free.
  defineOrderLineKind("event_ticket", {
    paid: async (order) => {
      await confirmPaidRegistration(order.id);
    },
    closed: closeRegistrationsOfOrder,
    reinstate: holdSeatsAgain,
  });
  // A membership term: paid → the term is dated and the membership activated.
  defineOrderLineKind("membership_term", {
    paid: async (_order, line) => {
      await activateTerm(line.referenceId);
    },
    // Its mails greet the billing contact by name and link where they can go without an account.
    payer: membershipOrderPayer,
  });
}
