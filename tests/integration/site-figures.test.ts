import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { runDueJobs } from "~/models/jobs.server";
import {
  acceptSeat,
  applyForMembership,
  approveApplication,
  hashSeatToken,
  inviteSeat,
} from "~/models/membership/membership.server";
import { recordPayment } from "~/models/orders/orders.server";
import { seedIfEmpty } from "~/models/seed/seed.server";
import { wireProcess } from "~/models/wiring.server";
import { loader as dashboardLoader } from "~/routes/admin/dashboard";
import { loader as membersLoader } from "~/routes/admin/members";
import { loader as aboutLoader } from "~/routes/public/about";
import { loader as eventsLoader } from "~/routes/public/events/index";
import { loader as homeLoader } from "~/routes/public/home";
import { loader as membershipLoader } from "~/routes/public/membership";
import { useTestDatabase } from "../helpers/db";
import { signInEachRole } from "../helpers/session";

// Issue 30 item 8 (decision 0095): the member and event counts agree on every page that shows
// them — home, /about, /membership, /events, the dashboard and /admin/members — on the demo data
// plus a Corporate membership with a seat and a draft event, each count checked against its
// definition in SQL.
wireProcess();

// biome-ignore lint/suspicious/noExplicitAny: loaders take more than the request; unused here
const args = (url: string, cookie = ""): any => ({
  request: new Request(`http://localhost:3000${url}`, { headers: { cookie } }),
  params: {},
  context: {},
});
/** A loader's data, whether returned plain or wrapped by `data()`. */
// biome-ignore lint/suspicious/noExplicitAny: the shapes differ per loader
const dataOf = (result: any) => (result && "data" in result ? result.data : result);

describe("member and event counts across pages", () => {
  useTestDatabase();
  let admin = "";

  beforeAll(async () => {
    await seedIfEmpty({ demoAccounts: true });
    admin = (await signInEachRole()).admin;
    // A Corporate member with one colleague on a seat: two members.
    const contact = { id: randomUUID(), name: "Figures Contact", email: "figures@example.test" };
    const colleague = { id: randomUUID(), name: "Figures Seat", email: "seat.f@example.test" };
    await queryRows(sql`INSERT INTO "user" (id, full_name, email) VALUES
      (${contact.id}, ${contact.name}, ${contact.email}),
      (${colleague.id}, ${colleague.name}, ${colleague.email})`);
    const applied = await applyForMembership(contact, {
      plan: "corporate",
      memberName: "Figures Ltd",
      organisationName: "Figures Ltd",
      taxId: "P051234567X",
      billingContactEmail: contact.email,
    });
    const approved = await approveApplication(applied.membership.id, { system: "test" });
    await recordPayment(
      {
        method: "bank_transfer",
        reference: "FT-FIGURES-1",
        amountMinor: 999_00,
        currency: "USD",
        paidAt: new Date(),
        invoiceNumber: approved.invoiceNumber,
      },
      { system: "test" },
    );
    while ((await runDueJobs({ limit: 50 })) > 0) {}
    const seat = await inviteSeat(applied.membership.id, colleague.email, {
      id: contact.id,
      role: "user",
    });
    // The token the mail would carry: set its hash directly (the mail job makes its own).
    const token = randomUUID();
    await queryRows(
      sql`UPDATE membership_seats SET token_hash = ${hashSeatToken(token)} WHERE id = ${seat.id}`,
    );
    await acceptSeat(token, colleague);
    // A draft event: staff count it, the public does not.
    await queryRows(sql`UPDATE events SET status = 'draft'
      WHERE id = (SELECT id FROM events WHERE status = 'published' ORDER BY id LIMIT 1)`);
  });

  it("shows one member count and one event count everywhere", async () => {
    const [expected] = await queryRows<{ members: number; published: number; all: number }>(sql`
      SELECT
        (SELECT count(*)::int FROM memberships WHERE state IN ('active', 'renewal_open', 'grace'))
        + (SELECT count(*)::int FROM membership_seats s JOIN memberships m ON m.id = s.membership_id
           WHERE s.accepted_at IS NOT NULL AND s.revoked_at IS NULL
             AND m.state IN ('active', 'renewal_open', 'grace')) AS members,
        (SELECT count(*)::int FROM events WHERE status = 'published') AS published,
        (SELECT count(*)::int FROM events) AS all`);
    // The demo member, the Corporate member and its seat.
    expect(expected.members).toBe(3);
    expect(expected.all).toBeGreaterThan(expected.published);

    const home = dataOf(await homeLoader(args("/")));
    const about = dataOf(await aboutLoader(args("/about")));
    const membership = dataOf(await membershipLoader(args("/membership")));
    const events = dataOf(await eventsLoader(args("/events")));
    const dashboard = dataOf(await dashboardLoader(args("/admin", admin)));
    const members = dataOf(await membersLoader(args("/admin/members", admin)));

    for (const [page, figures] of [
      ["home", home.figures],
      ["about", about.figures],
      ["membership", membership.figures],
      ["dashboard", dashboard.figures],
    ] as const) {
      expect(figures, page).toEqual({ events: expected.published, members: expected.members });
    }
    expect(events.stats.totalEvents).toBe(expected.published);
    expect(members.currentMembers).toBe(expected.members);
    // The dashboard card counts every event row (its list shows drafts too) beside the published.
    expect(dashboard.counts.events).toBe(expected.all);
    // /admin/members lists the same people: memberships with benefits and the seat, marked.
    const current = members.members.filter((m: { state: string }) =>
      ["active", "renewal_open", "grace"].includes(m.state),
    );
    expect(current).toHaveLength(expected.members);
    expect(current.filter((m: { seatOf: string | null }) => m.seatOf)).toHaveLength(1);
  });
});
