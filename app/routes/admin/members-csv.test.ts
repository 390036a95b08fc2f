import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, membershipTerms, user } from "~/db/schema";
import { CLIENT_IP_HEADER } from "~/lib/auth.server";
import { runDueJobs } from "~/models/jobs.server";
import { applyForMembership } from "~/models/membership/membership.server";
import { recordPayment } from "~/models/orders/orders.server";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { thrownResponse as thrown } from "../../../tests/helpers/route";
import { type RouteRole, signInEachRole } from "../../../tests/helpers/session";
import { loader as membersLoader } from "./members";
import { loader as csvLoader } from "./members-csv";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

// The Members export as the server runs it: real sessions, role checks, queries and audit rows.
describe("/admin/members.csv", () => {
  const database = useTestDatabase();
  const cookies: Record<RouteRole, string> = { admin: "", editor: "", user: "", anonymous: "" };
  let adminId = "";
  const members = {
    active: { name: "Wanjiru Kamau", email: "wanjiru.kamau@example.test", validUntil: "" },
    awaiting: { name: "=1+2 Otieno Ochieng", email: "otieno@example.test" },
    applied: { name: "Amina Hassan", email: "amina.hassan@example.test" },
  };

  function request(path: string, who: keyof typeof cookies) {
    return new Request(`http://localhost:3000${path}`, {
      headers: { cookie: cookies[who], [CLIENT_IP_HEADER]: "198.51.100.200" },
    });
  }

  // biome-ignore lint/suspicious/noExplicitAny: the route args beyond `request` are unused here
  const args = (req: Request) => ({ request: req, params: {}, context: {} }) as any;

  async function exportAudits() {
    return database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "membership.export"))
      .orderBy(asc(auditLog.createdAt));
  }

  /** The export for `query` as an admin: its data rows (without the header), parsed. */
  async function exported(query: string) {
    const response = await csvLoader(args(request(`/admin/members.csv${query}`, "admin")));
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    // UTF-8 with its byte-order mark, as every export (Excel shows "Wanjirũ", not "WanjirÅ©").
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const [header, ...rows] = bytes.subarray(3).toString("utf8").trimEnd().split("\r\n");
    expect(header).toBe(
      '"Name","Email","Plan","Status","Organisation","KRA PIN / VAT","Student","Valid until","Since","Seat of"',
    );
    return rows;
  }

  async function member(name: string, email: string) {
    const id = randomUUID();
    await database.db.insert(user).values({ id, name, email, role: "user" });
    return { id, name, email };
  }

  beforeAll(async () => {
    Object.assign(cookies, await signInEachRole());
    const [root] = await database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, "root@example.com"));
    adminId = root.id;

    // Active (paid), awaiting payment, and a Corporate application waiting for review.
    const a = await member(members.active.name, members.active.email);
    const active = await applyForMembership(a, { plan: "professional", memberName: a.name });
    await recordPayment(
      {
        method: "bank_transfer",
        reference: "CSV-TEST-1",
        amountMinor: 299_00,
        currency: "USD",
        paidAt: new Date(),
        invoiceNumber: active.invoiceNumber as string,
      },
      { id: adminId, role: "admin" },
    );
    while ((await runDueJobs({ limit: 50 })) > 0) {}
    const [term] = await database.db
      .select({ endsAt: membershipTerms.endsAt })
      .from(membershipTerms)
      .where(eq(membershipTerms.membershipId, active.membership.id));
    members.active.validUntil = (term.endsAt as Date).toISOString().slice(0, 10);

    const o = await member(members.awaiting.name, members.awaiting.email);
    await applyForMembership(o, { plan: "individual", memberName: o.name });
    const h = await member(members.applied.name, members.applied.email);
    await applyForMembership(h, {
      plan: "corporate",
      memberName: h.name,
      organisationName: "Records Kenya Ltd",
      taxId: "P051234567X",
      billingContactEmail: "accounts@records.example.test",
    });
  });

  it("gives an admin every member with the full e-mail address, and audits the export", async () => {
    const before = (await exportAudits()).length;
    const response = await csvLoader(args(request("/admin/members.csv", "admin")));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="kongamano-members-${today}.csv"`,
    );
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const lines = (await response.text()).split("\r\n");
    expect(lines.at(-1)).toBe("");
    const rows = lines.slice(1, -1);
    expect(rows).toHaveLength(3);
    expect(rows).toEqual(
      expect.arrayContaining([
        `"Wanjiru Kamau","wanjiru.kamau@example.test","Professional","Active","","","no","${members.active.validUntil}","${today}",""`,
        // A name a spreadsheet would run as a formula is defused.
        `"'=1+2 Otieno Ochieng","otieno@example.test","Individual","Awaiting payment","","","no","","${today}",""`,
        `"Amina Hassan","amina.hassan@example.test","Corporate","Applied","Records Kenya Ltd","P051234567X","no","","${today}",""`,
      ]),
    );

    const audits = await exportAudits();
    expect(audits).toHaveLength(before + 1);
    expect(audits.at(-1)).toMatchObject({
      actorId: adminId,
      entity: "membership",
      ip: "198.51.100.200",
      details: { rows: 3, state: null, q: null },
    });
  });

  it("applies the page's filters, the same way the Members screen does", async () => {
    const before = (await exportAudits()).length;
    const cases: [string, string[]][] = [
      ["?state=active", [members.active.email]],
      ["?state=awaiting_payment", [members.awaiting.email]],
      ["?q=records%20kenya", [members.applied.email]], // organisation
      ["?q=OTIENO", [members.awaiting.email]], // name, any case
      ["?q=amina.hassan@", [members.applied.email]], // e-mail
      ["?state=applied&q=wanjiru", []],
      ["?q=%25", []], // a literal %, not a wildcard
      ["?state=lapsed", []],
      // An unknown state is no filter at all.
      ["?state=nonsense", [members.active.email, members.awaiting.email, members.applied.email]],
      ["?state=toString", [members.active.email, members.awaiting.email, members.applied.email]],
    ];
    for (const [query, emails] of cases) {
      const rows = await exported(query);
      const found = rows.map((r) => r.split('","')[1]);
      expect(found.sort(), query).toEqual([...emails].sort());
      // The screen with the same query string lists the same members (with masked e-mails).
      const page = await membersLoader(args(request(`/admin/members${query}`, "admin")));
      expect(page.members.map((m) => m.memberName).sort(), query).toEqual(
        rows.map((r) => r.split('","')[0].slice(1).replace(/^'/, "")).sort(),
      );
      for (const email of emails) expect(JSON.stringify(page.members)).not.toContain(email);
    }
    const audits = await exportAudits();
    expect(audits).toHaveLength(before + cases.length);
    const filtered = audits.find((a) => a.details?.q === "wanjiru");
    expect(filtered?.details).toEqual({ rows: 0, state: "applied", q: "wanjiru" });
    expect(filtered).toMatchObject({ actorId: adminId, entity: "membership" });
  });

  it("refuses editors, plain users and anonymous visitors, and audits nothing for them", async () => {
    const before = (await exportAudits()).length;
    for (const who of ["editor", "user"] as const) {
      const response = await thrown(csvLoader(args(request("/admin/members.csv", who))));
      expect(response.status, who).toBe(302);
      expect(response.headers.get("location")).toBe("/");
      expect(response.headers.get("set-cookie")).toContain("kongamano_toast");
      expect(await response.text()).not.toContain("@example.test");
    }
    const anonymous = await thrown(csvLoader(args(request("/admin/members.csv", "anonymous"))));
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toBe("/");
    expect(await exportAudits()).toHaveLength(before);
  });
});
