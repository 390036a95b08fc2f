import { randomUUID } from "node:crypto";
import { and, count, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  eventFees,
  events,
  jobs,
  type MembershipState,
  membershipNotices,
  membershipSeats,
  memberships,
  membershipTerms,
  orders,
  user,
} from "~/db/schema";
import { env, setEnv } from "~/lib/env.server";
import { runDueJobs, runSchedulesAsOf } from "~/models/jobs.server";
import { type Actor, recordPayment } from "~/models/orders/orders.server";
import { loadTicketOptions, registerForEvent } from "~/models/registrations/registrations.server";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { testEnv } from "../../../tests/helpers/env";
import { startTestSmtp } from "../../../tests/helpers/smtp";
import { MEMBERSHIP_JOBS } from "./job-kinds";
import {
  acceptSeat,
  applyForMembership,
  approveApplication,
  cancelMembership,
  canTransition,
  inviteSeat,
  MEMBERSHIP_TRANSITIONS,
  MembershipError,
  rejectApplication,
  requestCorporateUpgrade,
  revokeSeat,
  SEAT_EXPIRED,
  SEAT_NOT_FOR_YOU,
  startUpgrade,
} from "./membership.server";
import { CORPORATE_SEATS } from "./plans";
import {
  getRenewalView,
  hasMemberBenefits,
  listMissedNotices,
  listUpgradeRequestsForAdmin,
  verifyCard,
} from "./queries.server";
import { verifyRenewalToken } from "./renewal-link.server";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

const DAY = 86_400_000;
const at = (base: Date, days: number) => new Date(base.getTime() + days * DAY);

describe("membership lifecycle", () => {
  const database = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let admin: Actor;

  async function person(role: "user" | "admin" = "user") {
    const id = randomUUID();
    const email = `member.${id.slice(0, 8)}@example.test`;
    await database.db.insert(user).values({ id, name: `Member ${id.slice(0, 4)}`, email, role });
    return { id, name: `Member ${id.slice(0, 4)}`, email };
  }

  async function drainJobs() {
    while ((await runDueJobs({ limit: 50 })) > 0) {}
  }

  /** Time moves forward: the schedules run "as of" `date`, then the jobs they made (decision 0050). */
  async function asOf(date: Date) {
    await runSchedulesAsOf(date, [MEMBERSHIP_JOBS.sweep]);
    await drainJobs();
  }

  async function stateOf(membershipId: string): Promise<MembershipState> {
    const [row] = await database.db
      .select({ state: memberships.state })
      .from(memberships)
      .where(eq(memberships.id, membershipId));
    return row.state;
  }

  async function invoiceTotal(invoiceNumber: string) {
    const [row] = await database.db
      .select({ total: orders.totalMinor })
      .from(orders)
      .innerJoin(membershipTerms, eq(membershipTerms.orderId, orders.id))
      .where(eq(orders.id, (await orderIdOf(invoiceNumber)) as string));
    return row.total;
  }

  async function orderIdOf(invoiceNumber: string) {
    const { invoices } = await import("~/db/schema");
    const [row] = await database.db
      .select({ orderId: invoices.orderId })
      .from(invoices)
      .where(eq(invoices.number, invoiceNumber));
    return row?.orderId;
  }

  async function pay(invoiceNumber: string, amountMinor: number, reference = randomUUID()) {
    const result = await recordPayment(
      {
        method: "bank_transfer",
        reference: reference.slice(0, 20),
        amountMinor,
        currency: "USD",
        paidAt: new Date(),
        invoiceNumber,
      },
      admin,
    );
    await drainJobs();
    return result;
  }

  /** A new member of `plan`, paid and active now. */
  async function activeMember(plan: "individual" | "professional" = "individual") {
    const p = await person();
    const applied = await applyForMembership(p, { plan, memberName: p.name });
    await pay(applied.invoiceNumber as string, plan === "individual" ? 99_00 : 299_00);
    const [term] = await database.db
      .select()
      .from(membershipTerms)
      .where(eq(membershipTerms.membershipId, applied.membership.id));
    return { person: p, membershipId: applied.membership.id, term };
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    setEnv(testEnv({ SMTP_URL: smtp.url }));
    const a = await person("admin");
    admin = { id: a.id, role: "admin" };
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("allows exactly the lifecycle's transitions and refuses every other", () => {
    const expected: Record<MembershipState, MembershipState[]> = {
      applied: ["awaiting_payment", "rejected", "cancelled"],
      awaiting_payment: ["active", "cancelled"],
      active: ["renewal_open", "cancelled"],
      renewal_open: ["active", "grace", "cancelled"],
      grace: ["active", "lapsed", "cancelled"],
      lapsed: ["awaiting_payment", "active"],
      rejected: [],
      cancelled: [],
    };
    const states = Object.keys(expected) as MembershipState[];
    for (const from of states) {
      for (const to of states) {
        expect(canTransition(from, to), `${from} → ${to}`).toBe(expected[from].includes(to));
      }
    }
    expect(MEMBERSHIP_TRANSITIONS).toEqual(expected);
  });

  it("applies, invoices, and becomes active for one year when staff record the payment", async () => {
    const p = await person();
    const applied = await applyForMembership(p, { plan: "professional", memberName: p.name });
    expect(applied.membership.state).toBe("awaiting_payment");
    expect(await invoiceTotal(applied.invoiceNumber as string)).toBe(299_00);
    expect(await hasMemberBenefits(p.id)).toBe(false);
    await expect(applyForMembership(p, { plan: "individual", memberName: p.name })).rejects.toThrow(
      MembershipError,
    );

    await pay(applied.invoiceNumber as string, 299_00);
    expect(await stateOf(applied.membership.id)).toBe("active");
    const [term] = await database.db
      .select()
      .from(membershipTerms)
      .where(eq(membershipTerms.membershipId, applied.membership.id));
    const startsAt = term.startsAt as Date;
    const endsAt = term.endsAt as Date;
    expect(endsAt.getUTCFullYear()).toBe(startsAt.getUTCFullYear() + 1);
    expect(await hasMemberBenefits(p.id)).toBe(true);
    const audits = await database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.entityId, applied.membership.id));
    expect(audits.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        "membership.applied",
        "membership.awaiting_payment",
        "membership.active",
      ]),
    );
    const card = await verifyCard(applied.membership.cardCode);
    expect(card).toMatchObject({ memberName: p.name, plan: "professional", current: true });
  });

  it("activates once when two different payments are recorded at the same moment", async () => {
    const p = await person();
    const applied = await applyForMembership(p, { plan: "individual", memberName: p.name });
    const invoice = applied.invoiceNumber as string;
    await Promise.all([
      recordPayment(
        {
          method: "bank_transfer",
          reference: `A${randomUUID().slice(0, 8)}`,
          amountMinor: 99_00,
          currency: "USD",
          paidAt: new Date(),
          invoiceNumber: invoice,
        },
        admin,
      ),
      recordPayment(
        {
          method: "mpesa",
          reference: `B${randomUUID().slice(0, 8)}`,
          amountMinor: 99_00,
          currency: "USD",
          paidAt: new Date(),
          invoiceNumber: invoice,
        },
        admin,
      ),
    ]);
    await Promise.all([runDueJobs({ limit: 50 }), runDueJobs({ limit: 50 })]);
    await drainJobs();
    const terms = await database.db
      .select()
      .from(membershipTerms)
      .where(eq(membershipTerms.membershipId, applied.membership.id));
    expect(terms.filter((t) => t.activatedAt)).toHaveLength(1);
    const [{ n }] = await database.db
      .select({ n: count() })
      .from(auditLog)
      .where(
        and(eq(auditLog.entityId, applied.membership.id), eq(auditLog.action, "membership.active")),
      );
    expect(n).toBe(1);
  });

  it("holds student and corporate applications for review; a rejection e-mails the reason", async () => {
    const student = await person();
    const applied = await applyForMembership(student, {
      plan: "individual",
      memberName: student.name,
      studentProofKey: "membership-proofs/test.pdf",
    });
    expect(applied.membership.state).toBe("applied");
    expect(applied.invoiceNumber).toBeNull();
    const approved = await approveApplication(applied.membership.id, admin);
    expect(approved.membership.state).toBe("awaiting_payment");
    expect(await invoiceTotal(approved.invoiceNumber as string)).toBe(49_50);
    await expect(approveApplication(applied.membership.id, admin)).rejects.toThrow(
      "Only applications waiting for review",
    );

    const company = await person();
    const corporate = await applyForMembership(company, {
      plan: "corporate",
      memberName: company.name,
      organisationName: "Records Kenya Ltd",
      taxId: "P051234567X",
      billingContactEmail: company.email,
    });
    expect(corporate.membership.state).toBe("applied");
    await expect(
      rejectApplication(corporate.membership.id, "Reason", { id: company.id, role: "user" }),
    ).rejects.toThrow("Only admins");
    await expect(rejectApplication(corporate.membership.id, "  ", admin)).rejects.toThrow(
      "Give the reason",
    );
    await rejectApplication(corporate.membership.id, "We could not verify the KRA PIN.", admin);
    expect(await stateOf(corporate.membership.id)).toBe("rejected");
    await drainJobs();
    const mail = await smtp.waitFor(company.email, /membership application/);
    expect(mail.text).toContain("Reason: We could not verify the KRA PIN.");
    // A rejected application cannot be approved afterwards; the person may apply again.
    await expect(approveApplication(corporate.membership.id, admin)).rejects.toThrow();
    const again = await applyForMembership(company, {
      plan: "individual",
      memberName: company.name,
    });
    expect(again.membership.id).not.toBe(corporate.membership.id);
  });

  it("moves through renewal, reminders with one-click links, grace and lapse as time passes", async () => {
    const { person: p, membershipId, term } = await activeMember();
    const endsAt = term.endsAt as Date;

    await asOf(at(endsAt, -31));
    expect(await stateOf(membershipId)).toBe("active");

    await asOf(at(endsAt, -30));
    expect(await stateOf(membershipId)).toBe("renewal_open");
    const first = await smtp.waitFor(p.email, /ends in 30 days/);
    const link = first.text.match(/\/membership\/renew\/(\S+)/)?.[1] as string;
    const check = verifyRenewalToken(link, at(endsAt, -30));
    expect(check).toMatchObject({ ok: true, membershipId });
    expect(verifyRenewalToken(`${link.slice(0, -2)}xx`).ok).toBe(false);
    expect(verifyRenewalToken(link, at(endsAt, 31)).ok).toBe(false);
    const view = await getRenewalView(membershipId);
    expect(view?.open?.invoiceNumber).toMatch(/^INV-/);

    // Running the same day again sends nothing twice.
    await asOf(at(endsAt, -29));
    await asOf(at(endsAt, -7));
    await asOf(at(endsAt, -7));
    await smtp.waitFor(p.email, /ends in 7 days/);
    await asOf(endsAt);
    expect(await stateOf(membershipId)).toBe("grace");
    await smtp.waitFor(p.email, /ends today/);
    expect(await hasMemberBenefits(p.id, at(endsAt, 1))).toBe(true);
    await asOf(at(endsAt, 14));
    await smtp.waitFor(p.email, /has ended/);
    await asOf(at(endsAt, 15));

    const toMember = smtp.messages.filter((m) => m.to.includes(p.email.toLowerCase()));
    for (const subject of [/ends in 30 days/, /ends in 7 days/, /ends today/, /has ended/]) {
      expect(toMember.filter((m) => subject.test(m.subject))).toHaveLength(1);
    }
    const log = await database.db
      .select()
      .from(membershipNotices)
      .where(eq(membershipNotices.membershipId, membershipId));
    expect(log.map((n) => `${n.kind}:${n.status}`).sort()).toEqual([
      "ends_today:sent",
      "grace:sent",
      "renewal_30d:sent",
      "renewal_7d:sent",
    ]);
    expect(
      (await listMissedNotices(at(endsAt, 20))).filter((m) => m.membership_id === membershipId),
    ).toHaveLength(0);

    // Benefits stop at the end of grace even before the sweep has run (no staff action needed).
    expect(await stateOf(membershipId)).toBe("grace");
    expect(await hasMemberBenefits(p.id, at(endsAt, 29))).toBe(true);
    expect(await hasMemberBenefits(p.id, at(endsAt, 30))).toBe(false);
    await asOf(at(endsAt, 30));
    expect(await stateOf(membershipId)).toBe("lapsed");
    expect(await hasMemberBenefits(p.id, at(endsAt, 30))).toBe(false);
    // The lapse is told once (issue 30), with the way to join again.
    const lapsed = await smtp.waitFor(p.email, /has lapsed/);
    expect(lapsed.text).toContain("/membership/apply/");
    await asOf(at(endsAt, 31));
    expect(
      smtp.messages.filter((m) => m.to.includes(p.email) && /has lapsed/.test(m.subject)),
    ).toHaveLength(1);
    expect(await hasMemberBenefits(p.id, at(term.startsAt as Date, -1))).toBe(false);
  });

  it("offers the member event fee exactly while the membership gives benefits", async () => {
    const { person: p, term } = await activeMember();
    const outsider = await person();
    const start = at(new Date(), 420); // still upcoming after this term and its grace
    const title = `Members' day ${randomUUID().slice(0, 8)}`;
    const [event] = await database.db
      .insert(events)
      .values({
        title,
        slug: title.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
        location: "Nairobi, Kenya",
        startDate: start,
        endDate: at(start, 1),
        status: "published",
      })
      .returning();
    const [fee] = await database.db
      .insert(eventFees)
      .values({ eventId: event.id, feeType: "member", amountMinor: 5000, currency: "USD" })
      .returning();
    const memberFee = async (userId: string, now?: Date) =>
      (await loadTicketOptions(database.db, event, userId, now)).find((o) => o.feeId === fee.id);
    const registerAs = (who: { id: string; name: string; email: string }) =>
      registerForEvent({
        eventId: event.id,
        feeId: fee.id,
        quantity: 1,
        account: who,
        attendee: { name: who.name, email: who.email },
      });

    expect(await memberFee(p.id)).toMatchObject({ onSale: true, offSaleReason: null });
    expect(await memberFee(outsider.id)).toMatchObject({ offSaleReason: "For members only" });
    await expect(registerAs(outsider)).rejects.toThrow(/For members only/);
    expect(await registerAs(p)).toMatchObject({ state: "awaiting_payment" });
    // Once grace has ended the member price is gone, without any staff action.
    expect(await memberFee(p.id, at(term.endsAt as Date, 29))).toMatchObject({ onSale: true });
    expect(await memberFee(p.id, at(term.endsAt as Date, 31))).toMatchObject({
      offSaleReason: "For members only",
    });
  });

  it("renews without a gap when the renewal invoice is paid, and skips the later reminders", async () => {
    const { person: p, membershipId, term } = await activeMember("professional");
    const endsAt = term.endsAt as Date;
    await asOf(at(endsAt, -30));
    const view = await getRenewalView(membershipId);
    await pay(view?.open?.invoiceNumber as string, 299_00);
    expect(await stateOf(membershipId)).toBe("active");
    const terms = await database.db
      .select()
      .from(membershipTerms)
      .where(eq(membershipTerms.membershipId, membershipId));
    const renewal = terms.find((t) => t.kind === "renewal");
    expect(renewal?.startsAt?.getTime()).toBe(endsAt.getTime());
    await asOf(at(endsAt, 1));
    expect(await stateOf(membershipId)).toBe("active");
    expect(await hasMemberBenefits(p.id, at(endsAt, 200))).toBe(true);
    const log = await database.db
      .select()
      .from(membershipNotices)
      .where(eq(membershipNotices.termId, term.id));
    expect(log.find((n) => n.kind === "renewal_7d")).toMatchObject({
      status: "skipped",
      reason: "already renewed",
    });
    expect(
      smtp.messages.filter((m) => m.to.includes(p.email) && /7 days/.test(m.subject)),
    ).toHaveLength(0);
  });

  it("keeps access until the period end after cancelling, then ends without reminders", async () => {
    const { person: p, membershipId, term } = await activeMember();
    const endsAt = term.endsAt as Date;
    await cancelMembership(membershipId, { id: p.id, role: "user" });
    expect(await stateOf(membershipId)).toBe("active");
    await asOf(at(endsAt, -30));
    expect(await stateOf(membershipId)).toBe("active");
    expect(await hasMemberBenefits(p.id, at(endsAt, -1))).toBe(true);
    await asOf(endsAt);
    expect(await stateOf(membershipId)).toBe("cancelled");
    expect(await hasMemberBenefits(p.id, endsAt)).toBe(false);
    expect(smtp.messages.some((m) => m.to.includes(p.email) && /ends in/.test(m.subject))).toBe(
      false,
    );
    const log = await database.db
      .select()
      .from(membershipNotices)
      .where(eq(membershipNotices.termId, term.id));
    expect(log.every((n) => n.status === "skipped")).toBe(true);
  });

  it("upgrades for the prorated difference and changes the plan when paid", async () => {
    const { person: p, membershipId, term } = await activeMember();
    const halfway = new Date(
      ((term.startsAt as Date).getTime() + (term.endsAt as Date).getTime()) / 2,
    );
    const upgrade = await startUpgrade(
      membershipId,
      "professional",
      { id: p.id, role: "user" },
      halfway,
    );
    expect(upgrade.amountMinor).toBe(100_00);
    await expect(
      startUpgrade(membershipId, "individual", { id: p.id, role: "user" }),
    ).rejects.toThrow();
    await pay(upgrade.invoiceNumber, 100_00);
    const [row] = await database.db
      .select()
      .from(memberships)
      .where(eq(memberships.id, membershipId));
    expect(row.plan).toBe("professional");
  });

  it("gives a corporate seat member benefits while the corporate term is active", async () => {
    const contact = await person();
    const applied = await applyForMembership(contact, {
      plan: "corporate",
      memberName: contact.name,
      organisationName: "Archives Ltd",
      taxId: "P051234567X",
      billingContactEmail: "accounts@archives.example.test",
    });
    const approved = await approveApplication(applied.membership.id, admin);
    await pay(approved.invoiceNumber as string, 999_00);
    const colleague = await person();
    await inviteSeat(applied.membership.id, colleague.email, { id: contact.id, role: "user" });
    await drainJobs();
    const mail = await smtp.waitFor(colleague.email, /Kongamano membership/);
    const token = mail.text.match(/\/membership\/seat\/(\S+)/)?.[1] as string;
    expect(await hasMemberBenefits(colleague.id)).toBe(false);
    const stranger = await person();
    await expect(acceptSeat(token, stranger)).rejects.toThrow(SEAT_NOT_FOR_YOU);
    await acceptSeat(token, colleague);
    expect(await hasMemberBenefits(colleague.id)).toBe(true);
  });
  it("logs a notice that failed, retries it, and the missed-notice check reads 0 once it is sent", async () => {
    const { person: p, membershipId, term } = await activeMember();
    const endsAt = term.endsAt as Date;
    const working = env();
    setEnv({ ...working, SMTP_URL: "smtp://127.0.0.1:9" }); // nothing listens there
    try {
      await asOf(at(endsAt, -30));
    } finally {
      setEnv(working);
    }
    const [failed] = await database.db
      .select()
      .from(membershipNotices)
      .where(and(eq(membershipNotices.termId, term.id), eq(membershipNotices.kind, "renewal_30d")));
    expect(failed.status).toBe("failed");
    const later = new Date(at(endsAt, -30).getTime() + 7 * 3_600_000);
    expect((await listMissedNotices(later)).map((m) => m.membership_id)).toContain(membershipId);

    // The job's backoff has passed: it runs again and the notice is sent, once.
    await database.db
      .update(jobs)
      .set({ runAt: new Date() })
      .where(eq(jobs.uniqueKey, `membership-notice:${term.id}:renewal_30d`));
    await drainJobs();
    await smtp.waitFor(p.email, /ends in 30 days/);
    const [sent] = await database.db
      .select()
      .from(membershipNotices)
      .where(and(eq(membershipNotices.termId, term.id), eq(membershipNotices.kind, "renewal_30d")));
    expect(sent).toMatchObject({ status: "sent", attempts: 2 });
    expect((await listMissedNotices(later)).map((m) => m.membership_id)).not.toContain(
      membershipId,
    );
  });

  /** A Corporate member (approved and paid, active now) with the term that dates it. */
  async function activeCorporateMember(organisationName: string) {
    const contact = await person();
    const applied = await applyForMembership(contact, {
      plan: "corporate",
      memberName: contact.name,
      organisationName,
      taxId: "P051234567X",
      billingContactEmail: contact.email,
    });
    const approved = await approveApplication(applied.membership.id, admin);
    await pay(approved.invoiceNumber as string, 999_00);
    const [term] = await database.db
      .select()
      .from(membershipTerms)
      .where(eq(membershipTerms.membershipId, applied.membership.id));
    return {
      contact,
      contactActor: { id: contact.id, role: "user" } as Actor,
      membershipId: applied.membership.id,
      term,
    };
  }

  /** The invitation link's token from the seat e-mail a colleague received. */
  async function seatToken(email: string) {
    await drainJobs();
    const mail = await smtp.waitFor(email, /added you to its Kongamano membership/);
    return mail.text.match(/\/membership\/seat\/(\S+)/)?.[1] as string;
  }

  async function liveSeats(membershipId: string) {
    return database.db
      .select()
      .from(membershipSeats)
      .where(
        and(eq(membershipSeats.membershipId, membershipId), isNull(membershipSeats.revokedAt)),
      );
  }

  async function seatInvitesAudited(membershipId: string) {
    const [{ n }] = await database.db
      .select({ n: count() })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, "membership_seat.invited"),
          sql`${auditLog.details}->>'membershipId' = ${membershipId}`,
        ),
      );
    return n;
  }

  it("fills exactly 10 corporate seats and refuses the 11th invitation without writing anything", async () => {
    expect(CORPORATE_SEATS).toBe(10);
    const { contactActor, membershipId } = await activeCorporateMember("Seats Full Ltd");
    const colleagues = await Promise.all(Array.from({ length: CORPORATE_SEATS }, () => person()));
    // Seven one after the other, the last three at the same moment (the seat count is locked).
    for (const c of colleagues.slice(0, 7)) await inviteSeat(membershipId, c.email, contactActor);
    const together = await Promise.allSettled(
      colleagues.slice(7).map((c) => inviteSeat(membershipId, c.email, contactActor)),
    );
    expect(together.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    for (const c of colleagues) await acceptSeat(await seatToken(c.email), c);
    for (const c of colleagues) expect(await hasMemberBenefits(c.id), c.email).toBe(true);
    expect(await liveSeats(membershipId)).toHaveLength(CORPORATE_SEATS);

    const eleventh = await person();
    const refused = await inviteSeat(membershipId, eleventh.email, contactActor).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(MembershipError);
    expect(refused).toMatchObject({ message: "All 10 team seats are taken.", status: 400 });
    // An admin is refused too: the limit is the plan's, not the contact's.
    await expect(inviteSeat(membershipId, eleventh.email, admin)).rejects.toThrow(
      "All 10 team seats are taken.",
    );
    // Nothing was written for the refused invitations: no seat, no audit row, no e-mail.
    await drainJobs();
    expect(await liveSeats(membershipId)).toHaveLength(CORPORATE_SEATS);
    const [{ n: rowsForEleventh }] = await database.db
      .select({ n: count() })
      .from(membershipSeats)
      .where(eq(membershipSeats.email, eleventh.email));
    expect(rowsForEleventh).toBe(0);
    expect(await seatInvitesAudited(membershipId)).toBe(CORPORATE_SEATS);
    expect(smtp.messages.some((m) => m.to.includes(eleventh.email))).toBe(false);
    expect(await hasMemberBenefits(eleventh.id)).toBe(false);

    // Freeing a seat takes its benefits away, its link stops working, and the seat can be given again.
    const [freed] = (await liveSeats(membershipId)).filter((s) => s.userId === colleagues[0].id);
    await revokeSeat(freed.id, contactActor);
    expect(await hasMemberBenefits(colleagues[0].id)).toBe(false);
    await inviteSeat(membershipId, eleventh.email, contactActor);
    await acceptSeat(await seatToken(eleventh.email), eleventh);
    expect(await hasMemberBenefits(eleventh.id)).toBe(true);
    expect(await liveSeats(membershipId)).toHaveLength(CORPORATE_SEATS);
    const another = await person();
    await expect(inviteSeat(membershipId, another.email, contactActor)).rejects.toThrow(
      "All 10 team seats are taken.",
    );
  });

  it("ends a seat member's benefits with the corporate term: through grace, not after the lapse", async () => {
    const { contact, membershipId, term, contactActor } =
      await activeCorporateMember("Term Ends Ltd");
    const endsAt = term.endsAt as Date;
    const colleague = await person();
    await inviteSeat(membershipId, colleague.email, contactActor);
    await acceptSeat(await seatToken(colleague.email), colleague);

    expect(await hasMemberBenefits(colleague.id, at(endsAt, -1))).toBe(true);
    await asOf(endsAt);
    expect(await stateOf(membershipId)).toBe("grace");
    expect(await hasMemberBenefits(colleague.id, at(endsAt, 29))).toBe(true);
    // Grace is over: no benefits, even before the sweep has moved the membership on.
    expect(await hasMemberBenefits(colleague.id, at(endsAt, 30))).toBe(false);
    await asOf(at(endsAt, 30));
    expect(await stateOf(membershipId)).toBe("lapsed");
    expect(await hasMemberBenefits(colleague.id, at(endsAt, 30))).toBe(false);
    expect(await hasMemberBenefits(contact.id, at(endsAt, 30))).toBe(false);
    // A lapsed organisation gives no benefits on any date, and cannot hand out seats.
    expect(await hasMemberBenefits(colleague.id, at(endsAt, -1))).toBe(false);
    await expect(inviteSeat(membershipId, (await person()).email, contactActor)).rejects.toThrow(
      "Seats can be given while the membership is active.",
    );
  });

  it("ends a seat member's benefits on the end day when the corporate member cancelled", async () => {
    const { membershipId, term, contactActor } = await activeCorporateMember("Cancels Ltd");
    const endsAt = term.endsAt as Date;
    const colleague = await person();
    await inviteSeat(membershipId, colleague.email, contactActor);
    await acceptSeat(await seatToken(colleague.email), colleague);
    await cancelMembership(membershipId, contactActor);
    expect(await hasMemberBenefits(colleague.id, at(endsAt, -1))).toBe(true);
    expect(await hasMemberBenefits(colleague.id, endsAt)).toBe(false);
    await asOf(endsAt);
    expect(await stateOf(membershipId)).toBe("cancelled");
    expect(await hasMemberBenefits(colleague.id, at(endsAt, -1))).toBe(false);
  });

  /** The link token of the latest seat e-mail to `email` (an invitation sent again replaces it). */
  async function latestSeatToken(email: string) {
    await drainJobs();
    await smtp.waitFor(email, /added you to its Kongamano membership/);
    const mails = smtp.messages.filter(
      (m) => m.to.includes(email) && /added you to its Kongamano membership/.test(m.subject),
    );
    return (mails.at(-1)?.text.match(/\/membership\/seat\/(\S+)/)?.[1] ?? "") as string;
  }

  async function upgradeTerms(membershipId: string) {
    return database.db
      .select()
      .from(membershipTerms)
      .where(
        and(eq(membershipTerms.membershipId, membershipId), eq(membershipTerms.kind, "upgrade")),
      );
  }

  const corporateDetails = {
    organisationName: "Upgrade Works Ltd",
    taxId: "P051234567X",
    billingContactName: "Accounts Desk",
    billingContactEmail: "accounts@upgrade-works.example.test",
  };

  it("reviews an upgrade to Corporate like a Corporate application before any invoice", async () => {
    const { person: p, membershipId, term } = await activeMember("individual");
    const owner: Actor = { id: p.id, role: "user" };
    // The one-click upgrade (the page hides it for Corporate) is refused for Corporate.
    await expect(startUpgrade(membershipId, "corporate", owner)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("reviewed like an application"),
    });
    // The same required details as applying, with the apply form's messages.
    await expect(
      requestCorporateUpgrade(membershipId, { ...corporateDetails, taxId: " " }, owner),
    ).rejects.toMatchObject({
      status: 400,
      field: "taxId",
      message: "Enter the KRA PIN or VAT number",
    });
    await expect(
      requestCorporateUpgrade(
        membershipId,
        { ...corporateDetails, billingContactEmail: "" },
        owner,
      ),
    ).rejects.toMatchObject({
      status: 400,
      field: "billingContactEmail",
      message: "Enter the billing contact's e-mail address",
    });
    await expect(
      requestCorporateUpgrade(membershipId, corporateDetails, {
        id: (await person()).id,
        role: "user",
      }),
    ).rejects.toMatchObject({ status: 404 });

    await requestCorporateUpgrade(membershipId, corporateDetails, owner);
    // Waiting for review: no invoice, no term, the plan and the benefits unchanged.
    expect(await upgradeTerms(membershipId)).toHaveLength(0);
    const [waiting] = await database.db
      .select()
      .from(memberships)
      .where(eq(memberships.id, membershipId));
    expect(waiting).toMatchObject({ plan: "individual", state: "active", taxId: null });
    expect(await hasMemberBenefits(p.id)).toBe(true);
    await expect(requestCorporateUpgrade(membershipId, corporateDetails, owner)).rejects.toThrow(
      "already waiting for review",
    );
    await expect(startUpgrade(membershipId, "professional", owner)).rejects.toThrow(
      "waiting for review",
    );
    await expect(approveApplication(membershipId, owner)).rejects.toThrow("Only admins");
    // Staff see it among the applications to review, with the details given.
    const listed = (await listUpgradeRequestsForAdmin()).find((r) => r.id === membershipId);
    expect(listed).toMatchObject({
      upgradeTo: "corporate",
      taxId: "P051234567X",
      plan: "individual",
    });

    // Staff approve it with the applications' Approve: the prorated upgrade invoice is issued.
    const halfway = new Date(
      ((term.startsAt as Date).getTime() + (term.endsAt as Date).getTime()) / 2,
    );
    const approved = await approveApplication(membershipId, admin, halfway);
    expect(await invoiceTotal(approved.invoiceNumber as string)).toBe(450_00);
    const [pending] = await upgradeTerms(membershipId);
    expect(pending).toMatchObject({ plan: "corporate", activatedAt: null });
    const [invoiced] = await database.db
      .select()
      .from(orders)
      .where(eq(orders.id, pending.orderId));
    expect(invoiced).toMatchObject({
      organisationName: "Upgrade Works Ltd",
      taxId: "P051234567X",
      billingEmail: "accounts@upgrade-works.example.test",
    });
    await expect(approveApplication(membershipId, admin)).rejects.toThrow(
      "Only applications waiting for review",
    );
    expect((await listUpgradeRequestsForAdmin()).map((r) => r.id)).not.toContain(membershipId);
    await drainJobs();
    // The member and the billing contact each get their own mail (decision 0094).
    await smtp.waitFor(p.email, /upgrade is approved/);
    const billing = await smtp.waitFor(
      "accounts@upgrade-works.example.test",
      /upgrade approved for Upgrade Works Ltd/,
    );
    expect(billing.text).toMatch(/\/membership\/billing\/\S+/);
    await pay(approved.invoiceNumber as string, 450_00);
    const [upgraded] = await database.db
      .select()
      .from(memberships)
      .where(eq(memberships.id, membershipId));
    expect(upgraded.plan).toBe("corporate");
  });

  it("rejects an upgrade to Corporate with the reason e-mailed; the membership goes on unchanged", async () => {
    const { person: p, membershipId } = await activeMember("professional");
    const owner: Actor = { id: p.id, role: "user" };
    await requestCorporateUpgrade(membershipId, corporateDetails, owner);
    await expect(rejectApplication(membershipId, "  ", admin)).rejects.toThrow("Give the reason");
    await rejectApplication(membershipId, "We could not verify the KRA PIN.", admin);
    const [row] = await database.db
      .select()
      .from(memberships)
      .where(eq(memberships.id, membershipId));
    expect(row).toMatchObject({ plan: "professional", state: "active", taxId: null });
    expect(await upgradeTerms(membershipId)).toHaveLength(0);
    await drainJobs();
    const mail = await smtp.waitFor(p.email, /membership upgrade$/);
    expect(mail.text).toContain("Reason: We could not verify the KRA PIN.");
    await expect(approveApplication(membershipId, admin)).rejects.toThrow(
      "Only applications waiting for review",
    );
    // The member may ask again, and the new request is the one staff see.
    await requestCorporateUpgrade(
      membershipId,
      { ...corporateDetails, taxId: "P059999999Z" },
      owner,
    );
    await approveApplication(membershipId, admin);
    const [again] = await database.db
      .select()
      .from(memberships)
      .where(eq(memberships.id, membershipId));
    expect(again.taxId).toBe("P059999999Z");
  });

  it("refuses a seat invitation after it expires, and the contact can invite the colleague again", async () => {
    const { contactActor, membershipId } = await activeCorporateMember("Expiring Invites Ltd");
    const colleague = await person();
    const invitedAt = new Date();
    const seat = await inviteSeat(membershipId, colleague.email, contactActor, invitedAt);
    expect(seat.expiresAt.getTime()).toBe(at(invitedAt, 30).getTime());
    const first = await latestSeatToken(colleague.email);
    const refused = await acceptSeat(first, colleague, at(invitedAt, 30)).catch((e) => e);
    expect(refused).toMatchObject({ status: 410, message: SEAT_EXPIRED });
    expect(await hasMemberBenefits(colleague.id)).toBe(false);

    // Invited again: a new 30 days, a new link, and the old link no longer works.
    const reinvitedAt = at(invitedAt, 31);
    const renewed = await inviteSeat(membershipId, colleague.email, contactActor, reinvitedAt);
    expect(renewed.id).toBe(seat.id);
    expect(renewed.expiresAt.getTime()).toBe(at(reinvitedAt, 30).getTime());
    const second = await latestSeatToken(colleague.email);
    expect(second).not.toBe(first);
    await expect(acceptSeat(first, colleague, at(invitedAt, 32))).rejects.toMatchObject({
      status: 404,
    });
    await acceptSeat(second, colleague, at(invitedAt, 32));
    const [accepted] = await database.db
      .select()
      .from(membershipSeats)
      .where(eq(membershipSeats.id, seat.id));
    expect(accepted.userId).toBe(colleague.id);
  });

  it("keeps seat tokens out of the jobs table and tells another account only that it is not theirs", async () => {
    const { contactActor, membershipId } = await activeCorporateMember("Quiet Tokens Ltd");
    const colleagues = await Promise.all([person(), person(), person()]);
    for (const c of colleagues) await inviteSeat(membershipId, c.email, contactActor);
    await inviteSeat(membershipId, colleagues[0].email, contactActor); // sent again
    const tokens = await Promise.all(colleagues.map((c) => latestSeatToken(c.email)));
    expect(tokens.every((t) => t.length >= 32)).toBe(true);
    const rows = await database.db.select({ payload: jobs.payload }).from(jobs);
    const payloads = rows.map((r) => JSON.stringify(r.payload)).join("\n");
    expect(payloads).toContain("seatId"); // the invitation jobs are there, naming the seat only
    const hits = tokens.filter((t) => payloads.includes(t));
    expect(hits).toHaveLength(0);
    const audits = await database.db.select({ details: auditLog.details }).from(auditLog);
    const auditText = audits.map((a) => JSON.stringify(a.details)).join("\n");
    expect(tokens.filter((t) => auditText.includes(t))).toHaveLength(0);
    // The seat row holds the hash only.
    const stored = await liveSeats(membershipId);
    expect(stored.some((s) => tokens.includes(s.tokenHash))).toBe(false);

    const stranger = await person();
    const refused = await acceptSeat(tokens[1], stranger).catch((e) => e);
    expect(refused).toMatchObject({ status: 403, message: SEAT_NOT_FOR_YOU });
    expect(refused.message).not.toContain(colleagues[1].email);
    expect(refused.message).not.toContain("@");
    await acceptSeat(tokens[1], colleagues[1]);
  });
});
