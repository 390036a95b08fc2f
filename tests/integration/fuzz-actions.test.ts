/**
 * Every form action of app/routes.ts fuzzed with fast-check (issue 8 §4): random submissions as an
 * admin (the role that reaches the most code) and as an anonymous visitor must never produce a
 * 5xx or an unexpected throw, and an answer of 400 (invalid input) must leave every content table
 * unchanged. Values include NUL and the other control characters (issue 26 §7); each body goes
 * through the server's own body cleaning (server/http-guards.ts), as every real request does.
 *
 * FUZZ_UNCLEANED=1 skips that cleaning, to see what the actions themselves would do (decision 0074).
 * FUZZ_RUNS sets the cases per action: 1,000 with `npm run test:fuzz`; fewer in `npm test`.
 */
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { user } from "~/db/schema";
import { CLIENT_IP_HEADER, getAuth } from "~/lib/auth.server";
import { seedIfEmpty } from "~/models/seed/seed.server";
import routes from "~/routes";
import { withoutControlCharacters } from "../../server/http-guards";
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
/** C0 controls (tab, LF, CR among them) and DEL, which browsers let a visitor paste. */
const CONTROL = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
  fc.constant("\u007f"),
);
const VALUE = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({
    unit: fc.oneof(CONTROL, fc.constantFrom("a", "Z", "1", "@", ".", " ")),
    maxLength: 20,
  }),
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
    "a\u0000b",
    "\u0001\u0008\u000b\u001f\u007f",
    "Halima\u0000@example.org",
    "2027-01-01T10:00\u0000",
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
    cookie = await signIn();
    for (const entry of flatten(routes as Parameters<typeof flatten>[0])) {
      if (SKIP.has(entry.file)) continue;
      const mod = (await import(/* @vite-ignore */ `../../app/${entry.file}`)) as {
        action?: (args: unknown) => unknown;
      };
      if (mod.action) entries.push({ ...entry, action: mod.action });
    }
    entries = entries.filter((e, i, all) => all.findIndex((x) => x.file === e.file) === i);
  }, 120_000);

  /** The fuzz admin's session cookie (a fuzzed action may have ended the previous session). */
  const signIn = async () => {
    const signedIn = await getAuth().api.signInEmail({
      body: { email: "fuzz.admin@example.test", password: "Fuzz-Admin-Pass-1" },
      headers: new Headers({ [CLIENT_IP_HEADER]: "203.0.113.91" }),
      returnHeaders: true,
    });
    return signedIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  };

  const changes = async () =>
    (await queryRows<{ n: string }>(sql`select n from fuzz_changes`, database.db))[0].n;

  it("finds the form actions", () => {
    expect(entries.map((e) => e.path)).toEqual(
      expect.arrayContaining(["/contact", "/admin/events/new"]),
    );
  });

  it(`never answers 5xx and never changes data on a 400 (${RUNS} cases per action and caller)`, async () => {
    const failures: string[] = [];
    let cases = 0;
    let ip = 0;
    for (const entry of entries) {
      for (const caller of ["admin", "anonymous"] as const) {
        await fc.assert(
          fc.asyncProperty(FORM, async (fields) => {
            cases++;
            const form = new FormData();
            for (const [k, v] of fields) form.append(k, v);
            const path = entry.path
              .replace(/:[A-Za-z]+\??/g, "00000000-0000-4000-8000-000000000000")
              .replace("*", "x");
            const request = await cleanedRequest(ORIGIN + path, form, {
              ...(caller === "admin" ? { cookie } : {}),
              [CLIENT_IP_HEADER]: `198.18.${(ip >> 8) & 255}.${ip++ & 255}`,
            });
            const before = await changes();
            const label = `${entry.path} as ${caller}`;
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
                  `${label}: threw ${(thrown as Error)?.message} for ${JSON.stringify(fields).slice(0, 300)}`,
                );
                return;
              }
            }
            // Every failing case is counted (the property never stops early) so a run reports
            // how many server errors it saw, not only the first per action.
            if (status >= 500) {
              failures.push(`${label}: ${status} for ${JSON.stringify(fields).slice(0, 300)}`);
            } else if (status === 400 && (await changes()) !== before) {
              failures.push(
                `${label}: 400 but data changed for ${JSON.stringify(fields).slice(0, 300)}`,
              );
            }
          }),
          { numRuns: RUNS },
        );
      }
    }
    expect(cases).toBe(entries.length * 2 * RUNS);
    expect(failures, `${failures.length} server errors in ${cases} cases`).toEqual([]);
  }, 1_800_000);

  it(`never answers 5xx for a valid form with control characters in a field (${RUNS} cases per form)`, async () => {
    const failures: string[] = [];
    let ip = 0;
    cookie = await signIn();
    for (const valid of VALID_FORMS) {
      const entry = entries.find((e) => e.path === valid.path);
      expect(entry, valid.path).toBeDefined();
      const names = Object.keys(valid.fields);
      const statuses = new Set<number>();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...names),
          fc.nat(),
          fc.string({ unit: CONTROL, minLength: 1, maxLength: 4 }),
          async (name, at, control) => {
            const form = new FormData();
            for (const [k, v] of Object.entries(valid.fields)) {
              const position = at % (v.length + 1);
              form.append(k, k === name ? v.slice(0, position) + control + v.slice(position) : v);
            }
            const request = await cleanedRequest(ORIGIN + valid.path, form, {
              ...(valid.caller === "admin" ? { cookie } : {}),
              [CLIENT_IP_HEADER]: `198.19.${(ip >> 8) & 255}.${ip++ & 255}`,
            });
            let status: number;
            try {
              const result = await entry!.action({
                request,
                params: {},
                context: { cspNonce: "", requestId: "" },
              });
              status = statusOf(result);
            } catch (thrown) {
              status =
                thrown instanceof Response || isDataWithInit(thrown) ? statusOf(thrown) : 599;
            }
            statuses.add(status);
            if (status >= 500)
              failures.push(`${valid.path}: ${status} for ${name}=${JSON.stringify(control)}`);
          },
        ),
        { numRuns: RUNS },
      );
      // The forms are valid: most cases are accepted, so the stored text went through.
      expect(
        [...statuses].some((status) => status < 400),
        `${valid.path}: ${[...statuses]}`,
      ).toBe(true);
    }
    expect(failures, `${failures.length} server errors`).toEqual([]);
  }, 600_000);
});

/**
 * Submissions each action accepts, so that a control character reaches the code that stores the
 * field (random forms rarely get past validation): the anonymous forms and a few staff ones.
 */
const VALID_FORMS: Array<{
  path: string;
  caller: "admin" | "anonymous";
  fields: Record<string, string>;
}> = [
  {
    path: "/contact",
    caller: "anonymous",
    fields: {
      name: "Halima Njeri",
      email: "halima@example.org",
      subject: "Venue question",
      message: "Is the hall step-free?",
    },
  },
  {
    path: "/events/propose",
    caller: "anonymous",
    fields: {
      title: "Open Data Day",
      location: "Nairobi",
      dates: "March 2027",
      description: "A day of open data talks.",
      name: "Halima Njeri",
      email: "halima@example.org",
    },
  },
  {
    path: "/admin/speakers/new",
    caller: "admin",
    fields: {
      name: "Amina Odhiambo",
      title: "Researcher",
      organization: "KNBS",
      bio: "Works on census data.",
    },
  },
  {
    path: "/admin/offices/new",
    caller: "admin",
    fields: {
      region: "East Africa",
      city: "Kisumu",
      country: "Kenya",
      address: "Oginga Odinga St",
      phone: "+254 700 000000",
    },
  },
];

/** The request an action receives for this form once the server has read and cleaned the body. */
async function cleanedRequest(url: string, form: FormData, headers: Record<string, string>) {
  const encoded = new Request(url, { method: "POST", body: form });
  const contentType = encoded.headers.get("content-type") ?? "";
  const body = Buffer.from(await encoded.arrayBuffer());
  const parsed = await new Response(new Uint8Array(body), {
    headers: { "content-type": contentType },
  }).formData();
  const cleaned = process.env.FUZZ_UNCLEANED
    ? undefined
    : await withoutControlCharacters(body, "multipart/form-data", parsed);
  return new Request(url, {
    method: "POST",
    headers: { ...headers, "content-type": cleaned?.contentType ?? contentType },
    body: new Uint8Array(cleaned?.body ?? body),
  });
}

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
