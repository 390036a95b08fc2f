/** The job kinds the membership model enqueues (their handlers: ./membership-jobs.server.ts). */
export const MEMBERSHIP_JOBS = {
  sweep: "membership.sweep",
  notice: "membership.notice",
  seatInvite: "membership.seat_invite",
} as const;
