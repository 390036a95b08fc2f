/**
 * Every form action of app/routes.ts fuzzed with fast-check (issue 8 §4): random submissions as an
 * admin (the role that reaches the most code) must never produce a 500 or an unexpected throw,
 * and an answer of 400 (invalid input) must leave every content table unchanged.
 *
 * FUZZ_RUNS sets the cases per action: 1,000 with `npm run test:fuzz`; fewer in `npm test`.
 */
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { user } from "~/db/schema";
import { seedIfEmpty } from "~/db/seed/seed.server";
import { CLIENT_IP_HEADER, getAuth } from "~/lib/auth.server";
import routes from "~/routes";
import { useTestDatabase } from "../helpers/db";

const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const ORIGIN = "http://localhost:3000";
const CONTENT_TABLES = [
  "events",
  "event_fees",
  "event_speakers",
  "event_sponsors",
  "agenda_items",
  "papers",
  "speakers",
  "sponsors",
  "offices",
  "event_categories",
  "event_types",
  "user",
  "account",
  "invitations",
  "contact_messages",
  "two_factor",
  "orders",
  "order_lines",
  "invoices",
  "payments",
  "receipts",
  "document_counters",
  "jobs",
  "registrations",
  "tickets",
  "waitlist_entries",
];
// better-auth's own endpoint and the binary upload endpoint are not form actions.
const SKIP = new Set(["routes/api/auth.ts", "routes/api/admin-upload.ts"]);

type Entry = { file: string; path: string };
function flatten(
  entries: readonly { path?: string; file: string; children?: unknown[] }[],
  parent = "",
): Entry[] {
  return entries.flatMap((e) => {
    const path = [parent, e.path ?? ""].filter(Boolean).join("/");
    const children = (e.children ?? []) as typeof entries;
    return children.length ? flatten(children, path) : [{ file: e.file, path: `/${path}` }];
  });
}

const FIELD_NAMES = [
  "intent",
  "id",
  "name",
  "email",
  "title",
  "description",
  "location",
  "startDate",
  "endDate",
  "start_date",
  "end_date",
  "theme",
  "eventType",
  "category",
  "industrySector",
  "tags",
  "status",
  "featured",
  "imageUrl",
  "speakerIds",
  "sponsorIds",
  "agenda",
  "fees",
  "feeType",
  "amount",
  "currency",
  "maxQuantity",
  "availableUntil",
  "authors",
  "abstract",
  "pdfUrl",
  "publishedDate",
  "organization",
  "bio",
  "tier",
  "websiteUrl",
  "logoUrl",
  "region",
  "city",
  "country",
  "address",
  "phone",
  "latitude",
  "longitude",
  "color",
  "icon",
  "subject",
  "message",
  "website",
  "password",
  "confirmPassword",
  "currentPassword",
  "newPassword",
  "fullName",
  "role",
  "userId",
  "code",
  "token",
  "redirectTo",
  "search",
  "tab",
  "fees[0].amount",
  "fees[0].feeType",
  "agenda[0].title",
  "feeId",
  "quantity",
  "organisationName",
  "taxId",
  "invoiceNumber",
  "method",
  "reference",
  "paidOn",
  "paymentId",
];
const VALUE = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "draft",
    "published",
    "archived",
    "admin",
    "editor",
    "user",
    "bronze",
    "platinum",
    "#0B5FFF",
    "#xyz",
    "not-a-date",
    "2027-01-01T10:00",
    "2020-13-45",
    "-1",
    "0",
    "1e309",
    "NaN",
    "<script>alert(1)</script>",
    "'; drop table events; --",
    "x".repeat(5000),
    "on",
    "true",
    "00000000-0000-4000-8000-000000000000",
    "conference",
    "none",
    "USD",
    "conference_only",
    "mpesa",
    "INV-2026-000001",
    "a@b.c",
    "not-an-email",
    "https://example.org",
    "javascript:alert(1)",
    "\u0000",
    "😀",
  ),
  fc.integer().map(String),
  fc.double().map(String),
);
const FORM = fc.array(fc.tuple(fc.constantFrom(...FIELD_NAMES), VALUE), { maxLength: 12 });

describe("form actions under fuzzing", () => {
  const database = useTestDatabase();
  let cookie = "";
  let entries: Array<Entry & { action: (args: unknown) => unknown }> = [];

  beforeAll(async () => {
    await seedIfEmpty({ demoAccounts: false });
    // Count every row change of the content tables (statement triggers are exact and cheap).
    const statements = [
      "create table fuzz_changes (n bigint not null)",
      "insert into fuzz_changes values (0)",
      "create function fuzz_count() returns trigger language plpgsql as $$ begin update fuzz_changes set n = n + 1; return null; end $$",
      ...CONTENT_TABLES.map(
        (t) =>
          `create trigger fuzz_${t} after insert or update or delete on "${t}" for each row execute function fuzz_count()`,
      ),
    ];
    for (const statement of statements) await database.db.execute(sql.raw(statement));
    const email = "fuzz.admin@example.test";
    const headers = new Headers({ [CLIENT_IP_HEADER]: "203.0.113.90" });
    await getAuth().api.signUpEmail({
      body: { email, password: "Fuzz-Admin-Pass-1", name: "Fuzz Admin" },
      headers,
    });
    await database.db
      .update(user)
      .set({ role: "admin", emailVerified: true })
      .where(sql`${user.email} = ${email}`);
    const signedIn = await getAuth().api.signInEmail({
      body: { email, password: "Fuzz-Admin-Pass-1" },
      headers,
      returnHeaders: true,
    });
    cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    for (const entry of flatten(routes as Parameters<typeof flatten>[0])) {
      if (SKIP.has(entry.file)) continue;
      const mod = (await import(/* @vite-ignore */ `../../app/${entry.file}`)) as {
        action?: (args: unknown) => unknown;
      };
      if (mod.action) entries.push({ ...entry, action: mod.action });
    }
    entries = entries.filter((e, i, all) => all.findIndex((x) => x.file === e.file) === i);
  }, 120_000);

  const changes = async () =>
    (await queryRows<{ n: string }>(sql`select n from fuzz_changes`, database.db))[0].n;

  it("finds the form actions", () => {
    expect(entries.map((e) => e.path)).toEqual(
      expect.arrayContaining(["/contact", "/admin/events/new"]),
    );
  });

  it(`never answers 500 and never changes data on a 400 (${RUNS} cases per action)`, async () => {
    const failures: string[] = [];
    let ip = 0;
    for (const entry of entries) {
      await fc
        .assert(
          fc.asyncProperty(FORM, async (fields) => {
            const form = new FormData();
            for (const [k, v] of fields) form.append(k, v);
            const path = entry.path
              .replace(/:[A-Za-z]+\??/g, "00000000-0000-4000-8000-000000000000")
              .replace("*", "x");
            const request = new Request(ORIGIN + path, {
              method: "POST",
              headers: { cookie, [CLIENT_IP_HEADER]: `198.18.${(ip >> 8) & 255}.${ip++ & 255}` },
              body: form,
            });
            const before = await changes();
            let status: number;
            try {
              const result = await entry.action({
                request,
                params: paramsOf(entry.path),
                context: { cspNonce: "", requestId: "" },
              });
              status = statusOf(result);
            } catch (thrown) {
              if (thrown instanceof Response || isDataWithInit(thrown)) status = statusOf(thrown);
              else {
                failures.push(
                  `${entry.path}: threw ${(thrown as Error)?.message} for ${JSON.stringify(fields).slice(0, 300)}`,
                );
                return false;
              }
            }
            if (status >= 500) {
              failures.push(`${entry.path}: ${status} for ${JSON.stringify(fields).slice(0, 300)}`);
              return false;
            }
            if (status === 400 && (await changes()) !== before) {
              failures.push(
                `${entry.path}: 400 but data changed for ${JSON.stringify(fields).slice(0, 300)}`,
              );
              return false;
            }
            return true;
          }),
          { numRuns: RUNS, endOnFailure: true },
        )
        .catch(() => {});
    }
    expect(failures).toEqual([]);
  }, 1_800_000);
});

function paramsOf(path: string) {
  const params: Record<string, string> = {};
  for (const m of path.matchAll(/:([A-Za-z]+)/g))
    params[m[1]] = "00000000-0000-4000-8000-000000000000";
  if (path.includes("*")) params["*"] = "x";
  return params;
}

function isDataWithInit(value: unknown): value is { type: string; init?: ResponseInit | null } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { type?: string }).type === "DataWithResponseInit"
  );
}

function statusOf(value: unknown) {
  if (value instanceof Response) return value.status;
  if (isDataWithInit(value)) return value.init?.status ?? 200;
  return 200;
}
