import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { slugify } from "../../app/lib/format";
import type { Role } from "../../app/lib/roles";
import routes from "../../app/routes";
import {
  clippedText,
  helpOrder,
  horizontalOverflow,
  mainNavContactIndex,
  TEXT_SPACING_CSS,
  undersizedTargets,
} from "./a11y-support";
import { axeBuilder, expect, signIn, test } from "./fixtures";

// Issue 19, how it is checked: axe and pa11y's engine (HTML_CodeSniffer, WCAG2AA) on every page
// route of app/routes.ts, for each role that may open it, report nothing. Routes are read from
// routes.ts, so a new screen is swept without anyone adding it here. Path parameters are filled
// from links the sweep finds on the pages it has already visited (a list links to its edit
// screens); links that arrive by e-mail (tokens) are opened with a made-up token and checked in
// the state a visitor with a stale link sees.
//
// The one accessibility sweep (issue 28, decision 0079): each page is loaded once per role and
// every per-page check runs on that visit — axe, HTML_CodeSniffer, WCAG 2.2's target size
// (2.5.8) and consistent help (3.2.6), reflow at 320 px with and without text spacing (1.4.10,
// 1.4.12). The automatic axe check of fixtures.ts is off here: the sweep's own axe is stricter.
// Journeys (keyboard, media, statement, focus) keep their own targeted checks in their specs.

type Who = "anonymous" | Role;
type PageRoute = { path: string; file: string };

const APP_DIR = path.resolve(process.cwd(), "app");
const HTMLCS_SOURCE = readFileSync(
  path.resolve(process.cwd(), "node_modules/@pa11y/html_codesniffer/build/HTMLCS.js"),
  "utf8",
);

function flatten(
  entries: readonly { path?: string; file: string; children?: unknown[] }[],
  parent = "",
): PageRoute[] {
  return entries.flatMap((entry) => {
    const full = `/${[parent, entry.path ?? ""].filter(Boolean).join("/")}`.replace(/\/+/g, "/");
    const children = (entry.children ?? []) as typeof entries;
    if (children.length > 0) return flatten(children, full);
    return [{ path: full.length > 1 ? full.replace(/\/$/, "") : full, file: entry.file }];
  });
}

/** Routes with a screen: their module has a default export (resource routes have none). */
const PAGES = flatten(routes as Parameters<typeof flatten>[0]).filter((r) =>
  /^export default /m.test(readFileSync(path.join(APP_DIR, r.file), "utf8")),
);

const ADMIN_ONLY = /^\/admin\/(security|users|offices|jobs|members)(\/|$)/;
const ACCOUNT = /^\/(profile|orders|registrations|membership\/card|reviews|papers\/calls)(\/|$)/;

/** The pages each role is swept over: everything it may open. */
function pagesFor(who: Who) {
  return PAGES.filter(({ path: p }) => {
    if (p.startsWith("/admin")) {
      return who === "admin" || (who === "editor" && !ADMIN_ONLY.test(p));
    }
    // A member's own pages (staff accounts have the same screens; the member's have content).
    if (ACCOUNT.test(p)) return who === "user";
    // Public pages: as a visitor and as a member (the header and some screens differ).
    return who === "anonymous" || who === "user";
  });
}

/** Public pages (not the back office, not a member's own): also checked at phone width. */
const isPublic = (p: string) => !p.startsWith("/admin") && !ACCOUNT.test(p);

/**
 * Pages swept beyond the role's routes: a screen that is one route with a query, and the staff's
 * own profile (its two-factor section differs from a member's).
 */
const EXTRA_URLS: Partial<Record<Who, string[]>> = {
  anonymous: ["/auth?tab=signup"],
  editor: ["/profile"],
  admin: ["/profile"],
};

/**
 * The part of the site a page belongs to: a back-office screen's section (`/admin/events` with
 * its new and edit screens), a member's own pages together (their records come from the one
 * setUp that books them), else the first path segment (`/events` with `/events/:slug`). A list
 * and the screens it links to stay in one shard, so most links a shard needs it finds itself.
 */
function section(p: string) {
  const parts = p.split(/[/?]/).filter(Boolean);
  if (parts[0] === "admin") return `/admin/${parts[1] ?? ""}`;
  if (ACCOUNT.test(p)) return "account";
  return `/${parts[0] ?? ""}`;
}

/**
 * About how many pages one test sweeps. A role's pages are split into shards of whole sections,
 * each a test of its own (issue 28, decision 0092): the two workers share out ~15 tests of
 * ~30 s instead of four of 80–100 s, so neither waits alone at the end, and a retry repeats a
 * shard, not a role.
 */
const SHARD_PAGES = 8;

type Shard = { routes: PageRoute[]; extra: string[]; sections: string[] };

function shardsFor(who: Who): Shard[] {
  const bySection = new Map<string, { routes: PageRoute[]; extra: string[] }>();
  const of = (key: string) => {
    if (!bySection.has(key)) bySection.set(key, { routes: [], extra: [] });
    return bySection.get(key)!;
  };
  for (const route of pagesFor(who))
    of(route.path === "/*" ? "/*" : section(route.path)).routes.push(route);
  for (const url of EXTRA_URLS[who] ?? []) of(section(url)).extra.push(url);
  const shards: Shard[] = [];
  for (const [key, { routes, extra }] of bySection) {
    const size = routes.length + extra.length;
    const last = shards.at(-1);
    if (last && last.routes.length + last.extra.length + size <= SHARD_PAGES) {
      last.routes.push(...routes);
      last.extra.push(...extra);
      last.sections.push(key);
    } else {
      shards.push({ routes: [...routes], extra: [...extra], sections: [key] });
    }
  }
  return shards;
}

/** Parameters no page links to: links that arrive by e-mail, and the not-found page. */
const MADE_UP: Record<string, string> = {
  "/membership/verify/:code": "/membership/verify/KM-0000-0000",
  "/membership/renew/:token": "/membership/renew/stale-renewal-link",
  "/membership/seat/:token": "/membership/seat/stale-seat-link",
  "/membership/billing/:token": "/membership/billing/stale-billing-link",
  "/invite/:token": "/invite/stale-invitation-link",
  // Back from PayPal (issue 31): only PayPal's redirect links to it, with the attempt's token.
  "/orders/:id/paypal/:step": "/orders/00000000-0000-4000-8000-000000000000/paypal/return",
  // Peer review (issue 32): assignments and submissions are made in the CfP journey
  // (tests/e2e/cfp.spec.ts, axe on every page it visits); here the stale-link states.
  "/reviews/:assignmentId": "/reviews/00000000-0000-4000-8000-000000000000",
  "/reviews/invitation/:token": "/reviews/invitation/stale-review-invitation",
  "/admin/submissions/:id": "/admin/submissions/00000000-0000-4000-8000-000000000000",
  "/admin/calls/:id/submissions": "/admin/calls/00000000-0000-4000-8000-000000000000/submissions",
  // Calls and the author's submissions (issue 32): the demo has no call, so their stale-link
  // states here; the CfP journey visits them with content.
  "/admin/calls/:id/edit": "/admin/calls/00000000-0000-4000-8000-000000000000/edit",
  "/papers/calls/:callId/submit": "/papers/calls/00000000-0000-4000-8000-000000000000/submit",
  "/profile/submissions/:id": "/profile/submissions/00000000-0000-4000-8000-000000000000",
  "/profile/submissions/:id/edit": "/profile/submissions/00000000-0000-4000-8000-000000000000/edit",
  "/*": "/no-such-page",
};

function pattern(routePath: string) {
  const source = routePath
    .split("/")
    .map((part) => (part.startsWith(":") ? "[^/?#]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}$`);
}

/**
 * URLs for a route with parameters, from the links seen so far: links to the route itself, or
 * else to its parent (`/events/:slug` for `/events/:slug/register`, which a visitor reaches
 * through a sign-in link rather than directly) with the rest of the path appended. Several, in
 * the order found: a record another test deletes meanwhile (404) gives way to the next.
 */
function urlsFor(routePath: string, links: Set<string>) {
  const paths = [...new Set([...links].map((href) => href.split("?")[0]))];
  const direct = paths.filter((href) => pattern(routePath).test(href));
  if (direct.length > 0) return direct;
  const parts = routePath.split("/");
  const lastParam = parts.findLastIndex((part) => part.startsWith(":"));
  const parent = parts.slice(0, lastParam + 1).join("/");
  return paths
    .filter((href) => pattern(parent).test(href))
    .map((found) => [found, ...parts.slice(lastParam + 1)].join("/"));
}

type Finding = { url: string; tool: string; message: string };

async function htmlCodeSniffer(page: Page) {
  await page.evaluate(`${HTMLCS_SOURCE};0`);
  return page.evaluate(
    () =>
      new Promise<{ code: string; msg: string; where: string }[]>((resolve) => {
        const htmlcs = (window as unknown as { HTMLCS: HtmlCs }).HTMLCS;
        htmlcs.process("WCAG2AA", document, () => {
          resolve(
            htmlcs
              .getMessages()
              // Errors: pa11y's default threshold. HTML_CodeSniffer's H98 still applies the
              // pre-2020 rule that `username` may not autocomplete an e-mail input; the HTML
              // standard allows it since whatwg/html#5881 (axe agrees), and it is what password
              // managers pair with the password on our sign-in form.
              .filter(
                (m) =>
                  m.type === 1 &&
                  !(
                    m.code.endsWith("1_3_5.H98") &&
                    m.element instanceof HTMLInputElement &&
                    m.element.type === "email" &&
                    m.element.autocomplete === "username"
                  ),
              )
              .map((m) => ({
                code: m.code,
                msg: m.msg,
                where:
                  m.element instanceof Element
                    ? m.element.outerHTML.slice(0, 160)
                    : String(m.element?.nodeName ?? ""),
              })),
          );
        });
      }),
  );
  type HtmlCs = {
    process(standard: string, root: Document, done: () => void): void;
    getMessages(): { type: number; code: string; msg: string; element: Node | null }[];
  };
}

async function axeFindings(page: Page) {
  const results = await axeBuilder(page)
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  return results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
}

/**
 * Links to our own pages in the server-rendered HTML of `paths`, fetched with the page's cookies
 * (as the role): where a shard finds the records its other screens need when no page of its own
 * links to them. No browser, no checks: those pages are another shard's to sweep.
 */
async function linksIn(page: Page, paths: string[]) {
  const found: string[] = [];
  for (const p of paths) {
    const response = await page.request.get(p);
    if (!response.headers()["content-type"]?.startsWith("text/html")) continue;
    for (const [, href] of (await response.text()).matchAll(/<a\b[^>]*?\shref="(\/[^"]*)"/g)) {
      found.push(href.replaceAll("&amp;", "&").split("#")[0]);
    }
  }
  return found;
}

/**
 * Visits the pages of one shard of a role; returns what the checks found and which routes were
 * reached.
 */
async function sweep(page: Page, who: Who, shard: Shard, setUp: (page: Page) => Promise<string[]>) {
  const todo = shard.routes;
  const links = new Set<string>(await setUp(page));
  const checked = new Set<string>();
  const findings: Finding[] = [];
  const unreached: string[] = [];
  const found = (url: string, tool: string, message: string) =>
    findings.push({ url, tool, message });

  /** Loads `url` and runs every per-page check on it; returns the HTTP status. */
  const visit = async (url: string) => {
    const response = await page.goto(url);
    const status = response?.status() ?? 0;
    expect(status, `${who} ${url}`).toBeLessThan(500);
    const landed = new URL(page.url()).pathname + new URL(page.url()).search;
    for (const href of await page
      .locator("a[href^='/']")
      .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""))) {
      links.add(href.split("#")[0]);
    }
    if (checked.has(landed)) return status;
    checked.add(landed);
    const publicPage = isPublic(new URL(page.url()).pathname);
    // Transitions off: contrast is measured on what a reader sees, not a half-faded toast.
    await page.addStyleTag({
      content: "*,*::before,*::after{transition:none!important;animation:none!important}",
    });
    for (const message of await axeFindings(page)) found(landed, "axe", message);
    for (const m of await htmlCodeSniffer(page)) {
      found(landed, "HTML_CodeSniffer", `${m.code}: ${m.msg} ${m.where}`);
    }
    // 3.2.6 Consistent Help: the contact link in header and footer, then the chat, everywhere;
    // on public pages Contact is also in the main navigation, after the first entry.
    const help = await helpOrder(page);
    if (help.join() !== "header,footer,chat") found(landed, "3.2.6", `help in order ${help}`);
    if (publicPage && (await mainNavContactIndex(page)) < 1) {
      found(landed, "3.2.6", "no Contact link in the main navigation after its first entry");
    }
    // 2.5.8 Target Size at desktop width, and public pages at phone width too.
    const size = page.viewportSize();
    for (const t of await undersizedTargets(page)) found(landed, "2.5.8", JSON.stringify(t));
    if (publicPage) {
      await page.setViewportSize({ width: 375, height: 900 });
      for (const t of await undersizedTargets(page)) {
        found(landed, "2.5.8 at 375 px", JSON.stringify(t));
      }
    }
    // 1.4.10 Reflow and 1.4.12 Text Spacing: the same screen 320 CSS px wide scrolls only
    // vertically, also with the text-spacing overrides, which clip no text of a public page.
    await page.setViewportSize({ width: 320, height: 640 });
    const narrow = await horizontalOverflow(page);
    const spacing = await page.addStyleTag({ content: TEXT_SPACING_CSS });
    const spaced = await horizontalOverflow(page);
    const clipped = publicPage ? await clippedText(page) : [];
    await spacing.evaluate((node) => (node as Element).remove());
    if (size) await page.setViewportSize(size);
    if (narrow) found(landed, "reflow", `320 px: ${JSON.stringify(narrow)}`);
    if (spaced) found(landed, "reflow", `320 px, text spacing: ${JSON.stringify(spaced)}`);
    if (clipped.length > 0) found(landed, "text spacing", `clipped: ${JSON.stringify(clipped)}`);
    return status;
  };

  // Pages without parameters first: they hold the links that fill in the others.
  let pending = [...todo];
  for (const route of todo.filter((r) => !r.path.includes(":") && r.path !== "/*")) {
    await visit(route.path);
    pending = pending.filter((r) => r !== route);
  }
  for (const url of shard.extra) await visit(url);
  // Then the rest, as links to them turn up; a pass that reaches nothing new ends the sweep,
  // once the role's other pages (other shards') have lent their links too.
  const tried = new Set<string>();
  let borrowed = false;
  while (pending.length > 0) {
    const before = pending.length;
    for (const route of [...pending]) {
      const made = MADE_UP[route.path];
      const candidates = (made ? [made] : urlsFor(route.path, links)).filter(
        (url) => !tried.has(url),
      );
      for (const url of candidates) {
        tried.add(url);
        // A record deleted by a test running alongside: try the next link to the same screen.
        if ((await visit(url)) === 404 && !made && url !== candidates.at(-1)) continue;
        pending = pending.filter((r) => r !== route);
        break;
      }
    }
    if (pending.length === before) {
      if (borrowed) break;
      borrowed = true;
      const elsewhere = pagesFor(who)
        .filter((r) => !r.path.includes(":") && r.path !== "/*" && !todo.includes(r))
        .map((r) => r.path);
      for (const href of await linksIn(page, elsewhere)) links.add(href);
    }
  }
  unreached.push(...pending.map((r) => r.path));
  return { findings, unreached, pages: checked.size };
}

/**
 * A free registration and a paid one (an order), so /registrations/:id and /orders/:id exist:
 * for events no other spec books with this account (specs run side by side). A retry finds its
 * first try's bookings, which the account's own lists link to.
 */
async function memberBookings(page: Page) {
  const booked: string[] = [];
  for (const [event, button] of [
    ["Cloud Migration for Archives Webinar", "Register"],
    ["Knowledge Retention Seminar", "Register and Get Invoice"],
  ] as const) {
    await page.goto(`/events/${slugify(event)}/register`);
    if ((await page.getByRole("link", { name: / × \d+$/ }).count()) > 0) continue;
    if (button !== "Register") {
      // One seat of the first paid ticket and none of the others (the delegation form, 0093).
      for (const quantity of await page.locator('input[name^="qty."]:enabled').all()) {
        await quantity.fill("0");
      }
      await page
        .locator("[data-ticket-row]")
        .filter({ hasText: /(USD|EUR|GBP|KES) [1-9]/ })
        .first()
        .locator('input[name^="qty."]')
        .fill("1");
    }
    await page.getByRole("button", { name: button, exact: true }).click();
    await page.waitForURL(/\/(registrations|orders)\/[0-9a-f-]{36}$/);
    booked.push(new URL(page.url()).pathname);
  }
  return booked;
}

async function signedIn(page: Page, role: Role) {
  await signIn(page, role);
  return [];
}

const ROLES: { who: Who; setUp: (page: Page) => Promise<string[]> }[] = [
  { who: "anonymous", setUp: async () => [] },
  {
    who: "user",
    setUp: async (page) => {
      await signIn(page, "user");
      return memberBookings(page);
    },
  },
  { who: "editor", setUp: (page) => signedIn(page, "editor") },
  { who: "admin", setUp: (page) => signedIn(page, "admin") },
];

test("the sweep's tools report a page with known faults", async ({ page }) => {
  await page.setContent(
    `<!doctype html><html lang="en"><head><title>Faults</title></head><body><main>
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
      <form><input type="text" name="q"><button type="submit"></button></form>
    </main></body></html>`,
  );
  const axe = await axeFindings(page);
  expect(axe.some((f) => f.startsWith("image-alt"))).toBe(true);
  expect(axe.some((f) => f.startsWith("label"))).toBe(true);
  const codes = (await htmlCodeSniffer(page)).map((m) => m.code);
  expect(codes.some((c) => c.includes("1_1_1.H37"))).toBe(true); // img without alt
  expect(codes.some((c) => c.includes("4_1_2"))).toBe(true); // unnamed control
});

test.describe("every screen, for each role that may open it", () => {
  // The sweep runs axe itself (all impacts, WCAG 2.2 tags): the automatic check would repeat it.
  test.use({ axeOnLoad: false });
  // The shards share nothing but the demo content they read (the member's bookings are made by
  // the one shard with the member's own pages): they run side by side.
  test.describe.configure({ mode: "parallel" });
  for (const { who, setUp } of ROLES) {
    for (const shard of shardsFor(who)) {
      // Only the shard with the member's own pages books what they show.
      const ownPages = shard.sections.includes("account");
      test(`${who}, ${shard.sections.join(" ")}: axe, HTML_CodeSniffer, target size, consistent help and reflow find nothing`, async ({
        page,
      }) => {
        test.setTimeout(200_000);
        const { findings, unreached, pages } = await sweep(page, who, shard, (p) =>
          who === "user" && !ownPages ? signedIn(p, "user") : setUp(p),
        );
        console.log(`${who}, ${shard.sections.join(" ")}: ${pages} pages swept`);
        expect.soft(unreached, `${who}: routes no link led to`).toEqual([]);
        expect(
          findings.map((f) => `${f.url} — ${f.tool} — ${f.message}`),
          `${who}: findings`,
        ).toEqual([]);
      });
    }
  }
});

test("the shards cover every page of every role once", () => {
  for (const { who } of ROLES) {
    const shards = shardsFor(who);
    const swept = shards.flatMap((s) => [...s.routes.map((r) => r.path), ...s.extra]);
    const expected = [...pagesFor(who).map((r) => r.path), ...(EXTRA_URLS[who] ?? [])];
    expect(swept.toSorted(), who).toEqual(expected.toSorted());
    expect(new Set(swept).size, `${who}: no page in two shards`).toBe(swept.length);
    expect(shards.filter((s) => s.sections.includes("account")).length).toBeLessThanOrEqual(1);
  }
});
