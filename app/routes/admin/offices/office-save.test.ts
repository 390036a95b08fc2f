import { eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { offices, user } from "~/db/schema";
import { CLIENT_IP_HEADER, getAuth } from "~/lib/auth.server";
import { OPENING_HOURS_TOO_LONG, SERVICES_INVALID } from "~/lib/forms/office-schema";
import { getOffice } from "~/models/offices/offices.server";
import { listPublicOfficeLocations } from "~/models/offices/queries.server";
// Aliased: biome reads a `use…` call as a React hook; this is a vitest set-up helper.
import { useTestDatabase as withTestDatabase } from "../../../../tests/helpers/db";
import { action as editAction } from "./edit";
import { action as newAction } from "./new";

// Issue 18: an admin saves an office's opening hours and services through the office form's
// action (the same request a browser sends), and visitors then see them.

const database = withTestDatabase();
const ORIGIN = "http://localhost:3000";
let adminCookie = "";

beforeAll(async () => {
  const email = "office.admin@example.test";
  const headers = new Headers({ [CLIENT_IP_HEADER]: "203.0.113.60" });
  await getAuth().api.signUpEmail({
    body: { email, password: "Office-Admin-Pass-1", name: "Office Admin" },
    headers,
  });
  await database.db
    .update(user)
    .set({ role: "admin", emailVerified: true })
    .where(sql`${user.email} = ${email}`);
  const signedIn = await getAuth().api.signInEmail({
    body: { email, password: "Office-Admin-Pass-1" },
    headers,
    returnHeaders: true,
  });
  adminCookie = signedIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
});

function post(path: string, fields: [string, string][]) {
  const body = new FormData();
  for (const [name, value] of fields) body.append(name, value);
  return new Request(ORIGIN + path, {
    method: "POST",
    headers: { cookie: adminCookie, origin: ORIGIN, [CLIENT_IP_HEADER]: "203.0.113.60" },
    body,
  });
}

const context = { cspNonce: "", requestId: "" };

async function settle(run: () => Promise<unknown>) {
  try {
    return await run();
  } catch (thrown) {
    return thrown;
  }
}

function statusOf(result: unknown) {
  if (result instanceof Response) return result.status;
  const init = (result as { init?: ResponseInit } | null)?.init;
  return init?.status ?? 200;
}

const base: [string, string][] = [
  ["region", "Africa"],
  ["city", "Kigali"],
  ["country", "Rwanda"],
  ["status", "active"],
];

it("creates an office with its opening hours and services, then edits them", async () => {
  const created = await settle(() =>
    newAction({
      request: post("/admin/offices/new", [
        ...base,
        ["openingHours", "  Mon–Fri 08:00–17:00 CAT  \r\n\r\nSat 09:00–12:00 CAT\r\n"],
        ["services", "Training"],
        ["services", "Consulting"],
        // The tag box's own (empty) text is submitted under the same name.
        ["services", ""],
      ]),
      params: {},
      context,
    } as never),
  );
  expect(statusOf(created)).toBe(302);
  const [row] = await database.db
    .select({ id: offices.id })
    .from(offices)
    .where(eq(offices.city, "Kigali"));
  expect(await getOffice(row.id)).toMatchObject({
    openingHours: "Mon–Fri 08:00–17:00 CAT\nSat 09:00–12:00 CAT",
    services: ["Training", "Consulting"],
  });

  // Without JavaScript the services arrive as one comma-separated text.
  const edited = await settle(() =>
    editAction({
      request: post(`/admin/offices/${row.id}/edit`, [
        ...base,
        ["openingHours", "Mon–Thu 08:30–17:30 CAT"],
        ["services", "Conferences, Membership desk, Conferences"],
      ]),
      params: { id: row.id },
      context,
    } as never),
  );
  expect(statusOf(edited)).toBe(302);
  expect(await getOffice(row.id)).toMatchObject({
    openingHours: "Mon–Thu 08:30–17:30 CAT",
    services: ["Conferences", "Membership desk"],
  });
  const visible = (await listPublicOfficeLocations()).find((o) => o.id === row.id);
  expect(visible).toMatchObject({
    openingHours: "Mon–Thu 08:30–17:30 CAT",
    services: ["Conferences", "Membership desk"],
  });

  // Clearing both stores "no hours given" and an empty list.
  await settle(() =>
    editAction({
      request: post(`/admin/offices/${row.id}/edit`, [...base, ["openingHours", " \n "]]),
      params: { id: row.id },
      context,
    } as never),
  );
  expect(await getOffice(row.id)).toMatchObject({ openingHours: null, services: [] });
});

it("refuses too many hour lines or over-long services with 400 and saves nothing", async () => {
  const tooMany = Array.from({ length: 11 }, (_, i) => `Line ${i + 1} 09:00–17:00 CAT`).join("\n");
  const result = await settle(() =>
    newAction({
      request: post("/admin/offices/new", [
        ...base,
        ["city", "Kampala"],
        ["openingHours", tooMany],
        ["services", "x".repeat(41)],
      ]),
      params: {},
      context,
    } as never),
  );
  expect(statusOf(result)).toBe(400);
  const reply = (result as { data: { result: { error: Record<string, string[]> } } }).data.result;
  expect(reply.error.openingHours).toEqual([OPENING_HOURS_TOO_LONG]);
  expect(reply.error["services[0]"] ?? reply.error.services).toEqual([SERVICES_INVALID]);
  const rows = await database.db.select().from(offices).where(eq(offices.city, "Kampala"));
  expect(rows).toHaveLength(0);
});
