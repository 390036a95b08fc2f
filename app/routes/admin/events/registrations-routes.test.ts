import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, registrations, ticketCheckIns } from "~/db/schema";
import { CLIENT_IP_HEADER } from "~/lib/auth.server";
import { insertEvent, insertRegistration } from "~/models/registrations/test-fixtures";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../../tests/helpers/db";
import { thrownResponse as thrown } from "../../../../tests/helpers/route";
import { type RouteRole, signInEachRole } from "../../../../tests/helpers/session";
import { action as checkInAction, loader as checkInLoader } from "./check-in";
import { action as registrationsAction, loader as registrationsLoader } from "./registrations";
import { loader as csvLoader } from "./registrations-csv";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

// The organiser's screens as the server runs them: real sessions, role checks and queries.
describe("registrations, CSV and check-in routes", () => {
  const database = useTestDatabase();
  const cookies: Record<RouteRole, string> = { admin: "", editor: "", user: "", anonymous: "" };

  function request(path: string, who: keyof typeof cookies, body?: Record<string, string>) {
    return new Request(`http://localhost:3000${path}`, {
      method: body ? "POST" : "GET",
      headers: {
        cookie: cookies[who],
        origin: "http://localhost:3000",
        [CLIENT_IP_HEADER]: "198.51.100.200",
      },
      body: body ? new URLSearchParams(body) : undefined,
    });
  }

  // biome-ignore lint/suspicious/noExplicitAny: the route args beyond request and params are unused
  const args = (req: Request, id: string) => ({ request: req, params: { id }, context: {} }) as any;

  type Answer = { data: { outcome: string; message: string }; init: ResponseInit | null };

  beforeAll(async () => {
    Object.assign(cookies, await signInEachRole());
  });

  it("keeps people without the editor role out of every screen and action", async () => {
    // The door is open, so nothing but the role check stands between them and a check-in.
    const event = await insertEvent(database.db, {
      checkInOpensAt: new Date("2026-01-01T00:00:00Z"),
    });
    const reg = await insertRegistration(database.db, { eventId: event.id, name: "Kept Out" });
    const base = `/admin/events/${event.id}`;
    for (const who of ["user", "anonymous"] as const) {
      for (const load of [registrationsLoader, checkInLoader]) {
        const response = await thrown(load(args(request(`${base}/check-in`, who), event.id)));
        expect(response.status).toBe(302);
        expect(response.headers.get("location")).toBe("/");
      }
      const csv = await thrown(
        csvLoader(args(request(`${base}/registrations.csv`, who), event.id)),
      );
      expect(csv.status).toBe(302);
      const post = await thrown(
        checkInAction(
          args(
            request(`${base}/check-in`, who, { intent: "code", code: reg.tickets[0].code }),
            event.id,
          ),
        ),
      );
      expect(post.status).toBe(who === "user" ? 403 : 401);
      const open = await thrown(
        checkInAction(args(request(`${base}/check-in`, who, { intent: "open" }), event.id)),
      );
      expect(open.status).toBe(who === "user" ? 403 : 401);
      const cancel = await thrown(
        registrationsAction(
          args(
            request(`${base}/registrations`, who, { intent: "cancel", registrationId: reg.id }),
            event.id,
          ),
        ),
      );
      expect(cancel.status).toBe(who === "user" ? 403 : 401);
    }
    const admitted = await database.db
      .select()
      .from(ticketCheckIns)
      .where(eq(ticketCheckIns.ticketId, reg.tickets[0].id));
    expect(admitted).toEqual([]);
    const [row] = await database.db
      .select()
      .from(registrations)
      .where(eq(registrations.id, reg.id));
    expect(row.state).toBe("confirmed");
  });

  it("checks a ticket in for an editor by code and by name search, once", async () => {
    // A one-day event whose door the organiser opened early (the route reads the real clock).
    const event = await insertEvent(database.db, {
      endDate: new Date("2027-03-01T14:00:00Z"),
      checkInOpensAt: new Date("2026-01-01T00:00:00Z"),
    });
    const reg = await insertRegistration(database.db, {
      eventId: event.id,
      name: "Njoki Wambui",
      quantity: 2,
    });
    const path = `/admin/events/${event.id}/check-in`;
    const first = (await checkInAction(
      args(
        request(path, "editor", { intent: "code", code: ` ${reg.tickets[0].code}\n` }),
        event.id,
      ),
    )) as Answer;
    expect(first.data).toMatchObject({
      outcome: "checked_in",
      message: "Checked in: Njoki Wambui · Conference Only · seat 1 of 2",
    });
    const again = (await checkInAction(
      args(request(path, "admin", { intent: "code", code: reg.tickets[0].code }), event.id),
    )) as Answer;
    expect(again.data.outcome).toBe("already");
    expect(again.data.message).toMatch(/^Already checked in at .+ by Test editor$/);

    const page = await checkInLoader(args(request(`${path}?q=njoki`, "editor"), event.id));
    expect(page.tally).toMatchObject({ valid: 2, checkedIn: 1, day: "2027-03-01" });
    expect(page.found[0].tickets.map((t) => Boolean(t.checkedIn))).toEqual([true, false]);
    const bySearch = (await checkInAction(
      args(
        request(path, "editor", { intent: "ticket", ticketId: page.found[0].tickets[1].id }),
        event.id,
      ),
    )) as Answer;
    expect(bySearch.data.outcome).toBe("checked_in");

    const empty = (await checkInAction(
      args(request(path, "editor", { intent: "code", code: "  " }), event.id),
    )) as Answer;
    expect(empty.init?.status).toBe(400);
    expect(empty.data.message).toBe("Scan a ticket or type its code.");
    // An id that names no event is "not found", never a database error.
    const missing = await checkInLoader(
      args(request("/admin/events/x/check-in", "editor"), "not-an-event"),
    ).catch((error: { init?: ResponseInit }) => error);
    expect((missing as { init: ResponseInit }).init.status).toBe(404);
  });

  it("lists, exports and cancels registrations of this event only", async () => {
    const event = await insertEvent(database.db, { capacity: 10 });
    const other = await insertEvent(database.db);
    const keep = await insertRegistration(database.db, {
      eventId: event.id,
      name: "=cmd|' /C calc'!A0",
      email: "formula@example.test",
    });
    const foreign = await insertRegistration(database.db, { eventId: other.id, name: "Elsewhere" });
    const base = `/admin/events/${event.id}`;

    const page = await registrationsLoader(
      args(request(`${base}/registrations?status=confirmed`, "editor"), event.id),
    );
    expect(page.total).toBe(1);
    expect(page.counts).toMatchObject({ capacity: 10, capacityLeft: 9 });

    const csv = await csvLoader(args(request(`${base}/registrations.csv`, "editor"), event.id));
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(
      /^attachment; filename="records-day-.*-registrations-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = await csv.text();
    expect(text).toContain(`"'=cmd|' /C calc'!A0","formula@example.test"`);
    expect(text).not.toContain("Elsewhere");
    // Attendee data leaving the system is audited: who, which event, how many rows.
    const exports = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "registration.export"), eq(auditLog.entityId, event.id)));
    expect(exports).toHaveLength(1);
    expect(exports[0].actorId).toBeTruthy();
    expect(exports[0].details).toMatchObject({ rows: 1, status: "all" });

    const wrongEvent = (await registrationsAction(
      args(
        request(`${base}/registrations`, "editor", {
          intent: "cancel",
          registrationId: foreign.id,
        }),
        event.id,
      ),
    )) as { init: ResponseInit };
    expect(wrongEvent.init.status).toBe(404);
    const tooLong = (await registrationsAction(
      args(
        request(`${base}/registrations`, "editor", {
          intent: "cancel",
          registrationId: keep.id,
          reason: "x".repeat(501),
        }),
        event.id,
      ),
    )) as { init: ResponseInit };
    expect(tooLong.init.status).toBe(400);

    const done = (await registrationsAction(
      args(
        request(`${base}/registrations?status=confirmed`, "editor", {
          intent: "cancel",
          registrationId: keep.id,
          reason: "Duplicate booking",
        }),
        event.id,
      ),
    )) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`${base}/registrations?status=confirmed`);
    const [row] = await database.db
      .select()
      .from(registrations)
      .where(eq(registrations.id, keep.id));
    expect(row).toMatchObject({ state: "cancelled", cancelReason: "Duplicate booking" });
    const [untouched] = await database.db
      .select()
      .from(registrations)
      .where(eq(registrations.id, foreign.id));
    expect(untouched.state).toBe("confirmed");

    const twice = (await registrationsAction(
      args(
        request(`${base}/registrations`, "editor", { intent: "cancel", registrationId: keep.id }),
        event.id,
      ),
    )) as { init: ResponseInit; data: { cancel: { error: string } } };
    expect(twice.init.status).toBe(409);
    expect(twice.data.cancel.error).toBe("This registration is already cancelled.");
  });
});
