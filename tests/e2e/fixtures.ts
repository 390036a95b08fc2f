import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import {
  type APIRequestContext,
  test as base,
  type Cookie,
  expect,
  type Page,
} from "@playwright/test";
import axe from "axe-core";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../../app/models/seed/demo-accounts";
import { baseURL } from "../../playwright.config";
import type { CapturedMail } from "../helpers/smtp";

export { expect };

/** A client address of our own, so per-client rate limits never couple tests together. */
export function randomClientIp() {
  const n = () => Math.floor(Math.random() * 250) + 1;
  return `10.${n()}.${n()}.${n()}`;
}

/**
 * Headers of a form post from our own pages: browsers send Origin with every POST, and the
 * server refuses a state change without Origin or Referer (decision 0019).
 */
export const OWN_ORIGIN = { origin: baseURL };

type Role = (typeof DEMO_ACCOUNTS)[number]["role"];

/**
 * Waits until the page has hydrated: for pages the fixture's goto does not wrap (a browser
 * context of the test's own, or a page reached by a redirect), before using a control that
 * only works once the page is live (the delegation form's seat rows follow its quantities).
 */
export async function untilHydrated(page: Page) {
  await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
}

/**
 * Waits until React has taken over the form with this id. A form whose code is fetched when it
 * shows (the Sign Up tab's) is still the server's HTML after the page has hydrated: typing works,
 * but a click on its button posts it as a plain form. React marks each element it has taken
 * over with a `__reactProps$…` key (an internal, stable since React 17).
 */
export async function untilFormHydrated(page: Page, formId: string) {
  await page.waitForFunction((id) => {
    const form = document.getElementById(id);
    return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps$"));
  }, formId);
}

/** A demo role's session cookies, signed in once per worker and reused (signIn). */
const demoSessions = new Map<Role, Cookie[]>();

/**
 * Signs the page's browser context in through the real sign-in endpoint. A demo role signs in
 * once per worker: later tests get the same session's cookies, as a returning visitor's browser
 * keeps them (no test signs a demo account out or ends its sessions; accounts that do are the
 * tests' own, and sign in each time).
 */
export async function signIn(page: Page, who: Role | { email: string; password: string }) {
  const kept = typeof who === "string" ? demoSessions.get(who) : undefined;
  if (kept) {
    await page.context().addCookies(kept);
    return;
  }
  const credentials =
    typeof who === "string"
      ? { email: DEMO_ACCOUNTS.find((a) => a.role === who)!.email, password: DEMO_PASSWORD }
      : who;
  const response = await page.request.post("/api/auth/sign-in/email", {
    data: credentials,
    headers: { "x-forwarded-for": randomClientIp() },
  });
  expect(response.ok(), `sign-in as ${credentials.email}: ${response.status()}`).toBeTruthy();
  if (typeof who === "string") {
    const cookies = await page.context().cookies(baseURL);
    demoSessions.set(
      who,
      cookies.filter((c) => c.name.includes("kongamano.")),
    );
  }
}

/** The password of the accounts tests sign up for themselves (verifiedAccount). */
export const OWN_PASSWORD = "Quiet-Harbour-2026!";

/**
 * A verified account of the test's own: signed up through the public endpoint and verified by
 * the link of its mail, opened with `request`. The link signs the person in, so with
 * `page.request` the page is signed in as them; with a request context of its own the browser
 * stays signed out. Specs run side by side and a retry runs again: the demo accounts'
 * per-account limits (one registration per ticket, five registration actions a minute) belong
 * to the tests that are about them.
 */
export async function verifiedAccount(request: APIRequestContext, label: string) {
  const suffix = randomBytes(4).toString("hex");
  const name = `${label} ${suffix}`;
  const email = `${label.toLowerCase().replace(/[^a-z]+/g, ".")}.${suffix}@example.test`;
  const signUp = await request.post("/api/auth/sign-up/email", {
    data: { name, email, password: OWN_PASSWORD },
    headers: { "x-forwarded-for": randomClientIp() },
  });
  expect(signUp.ok(), `sign-up of ${email}: ${signUp.status()}`).toBe(true);
  const verify = await waitForMail(email, /Verify/);
  const opened = await request.get(verify.text.match(/https?:\/\/\S+/)![0], { maxRedirects: 0 });
  expect(opened.status(), `verification of ${email}`).toBeLessThan(400);
  return { name, email, password: OWN_PASSWORD };
}

/**
 * Closes the toasts a test leaves open (sonner's rich success colours are below 4.5:1, so the
 * automatic axe check should judge the page, not them). A toast may time out between being
 * found and being clicked: each click is bounded, never left waiting for the test's timeout.
 */
export async function closeToasts(page: Page) {
  for (const close of await page.getByRole("button", { name: "Close toast" }).all()) {
    await close.click({ timeout: 2_000 }).catch(() => {});
  }
}

/**
 * Messages already read, by file: a file never changes once it is there (the global setup writes
 * it aside and renames it), and a test waiting for mail polls the folder ten times a second.
 */
const mailFiles = new Map<string, CapturedMail>();

/** Mail captured by the test SMTP server, newest last. */
export function capturedMail(): CapturedMail[] {
  const dir = path.join(process.env.E2E_DATA_DIR!, "captured-mail");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => {
      let mail = mailFiles.get(f);
      if (!mail) {
        mail = JSON.parse(readFileSync(path.join(dir, f), "utf8")) as CapturedMail;
        mailFiles.set(f, mail);
      }
      return mail;
    });
}

export async function waitForMail(to: string, subject?: RegExp, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = capturedMail()
      .reverse()
      .find((m) => m.to.includes(to.toLowerCase()) && (!subject || subject.test(m.subject)));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
}

/**
 * An axe run over the page that reports violations, which is all the tests read. On a page
 * without frames (ours have none) it calls `axe.run` in the page (AxeBuilder's legacy mode)
 * instead of a partial run per frame finished in a new blank tab, and it builds selectors for
 * the failing nodes only (`resultTypes`): the same violations in about a third of the time
 * (decision 0092). A page with frames gets the per-frame run, so nothing inside one is missed.
 */
export function axeBuilder(page: Page) {
  const builder = new AxeBuilder({ page }).options({ resultTypes: ["violations"] });
  return page.frames().length > 1 ? builder : builder.setLegacyMode();
}

/**
 * The rules that can report nothing serious or critical: every check of theirs, and the rule
 * itself where it overrides its checks, is of minor or moderate impact (28 of axe 4.13's 105,
 * such as `region` and `heading-order`). The automatic check fails only on serious and critical
 * findings, so it skips them; the route sweep runs every rule. Read from axe's rule table (an
 * internal one), so a rule that becomes serious in a later axe runs again; without the table,
 * none is skipped.
 */
const NEVER_SERIOUS_RULES: string[] = (() => {
  type Check = string | { id: string };
  type Rule = {
    id: string;
    enabled?: boolean;
    impact?: string;
    any: Check[];
    all: Check[];
    none: Check[];
  };
  const audit = (
    axe as unknown as {
      _audit?: { rules: Rule[]; checks: Record<string, { metadata?: { impact?: string } }> };
    }
  )._audit;
  if (!audit) return [];
  const rank = (impact: string | undefined) =>
    ["minor", "moderate", "serious", "critical"].indexOf(impact ?? "");
  return audit.rules
    .filter((rule) => {
      const checks = [...rule.any, ...rule.all, ...rule.none].map((c) =>
        typeof c === "string" ? c : c.id,
      );
      const impacts = [rule.impact, ...checks.map((id) => audit.checks[id]?.metadata?.impact)];
      return rule.enabled !== false && Math.max(...impacts.map(rank)) < rank("serious");
    })
    .map((rule) => rule.id);
})();

/**
 * Runs axe with CSS transitions and animations switched off: axe measures colour contrast as
 * painted, and a toast half-way through fading in or out is not what a reader sees. The style is
 * removed afterwards, so the test goes on with the page as it was. Returns the serious and
 * critical findings, the only ones its callers fail on: the rules that can report neither are
 * left out.
 */
async function seriousFindings(page: Page) {
  const freeze = await page.addStyleTag({
    content: "*, *::before, *::after { transition: none !important; animation: none !important; }",
  });
  try {
    const results = await axeBuilder(page).disableRules(NEVER_SERIOUS_RULES).analyze();
    return results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  } finally {
    await freeze.evaluate((node) => (node as Element).remove()).catch(() => {});
  }
}

/** Runs axe on the page; fails on serious or critical violations. */
export async function expectNoSeriousA11yViolations(page: Page) {
  expect(await seriousFindings(page), `axe on ${page.url()}`).toEqual([]);
}

/**
 * The automatic axe check's serious findings by rendered state, for this worker: many tests open
 * the same screen in the same state (the home page to a visitor, a list before a search), and
 * axe, the largest part of the end-to-end run's processor time, would only say the same again.
 */
const axeFindingsByState = new Map<string, string[]>();

/**
 * A digest of everything axe's answer depends on: the document as serialised (its stylesheets
 * are content-hashed files named in it; CSP nonces aside, which change with every response), what
 * serialisation leaves out (form values, loaded images, focus, hover, scroll), the viewport and
 * the emulated media. Two equal digests are the same screen, painted the same.
 */
function renderedState(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const path = (el: Element | null) => {
      const steps: string[] = [];
      for (let e = el; e?.parentElement; e = e.parentElement) {
        steps.push(`${e.tagName}${Array.prototype.indexOf.call(e.parentElement.children, e)}`);
      }
      return steps.join("<");
    };
    const hovered = document.querySelectorAll(":hover");
    const parts = [
      `${innerWidth}x${innerHeight} ${scrollX},${scrollY} ${devicePixelRatio}`,
      ...[
        "(prefers-color-scheme: dark)",
        "(prefers-reduced-motion: reduce)",
        "(forced-colors: active)",
        "(prefers-contrast: more)",
      ].map((query) => String(matchMedia(query).matches)),
      `focus ${path(document.activeElement)}`,
      `hover ${path(hovered[hovered.length - 1] ?? null)}`,
      ...Array.from(document.querySelectorAll("input, select, textarea"), (el) => {
        const field = el as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
        if (field instanceof HTMLInputElement && /^(checkbox|radio)$/.test(field.type)) {
          return String(field.checked);
        }
        if (field instanceof HTMLSelectElement) {
          return Array.from(field.selectedOptions, (o) => o.index).join(",");
        }
        return field.value;
      }),
      Array.from(document.images, (img) => (img.complete ? img.naturalWidth : -1)).join(","),
      document.documentElement.outerHTML.replace(/ nonce="[^"]*"/g, ""),
    ];
    const digest = await crypto.subtle.digest(
      "SHA-256",
      new TextEncoder().encode(parts.join("\n")),
    );
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  });
}

/**
 * `test` with an automatic axe check of every page a test visits: after each navigation
 * settles, axe runs; the test fails on any serious or critical violation. A spec that checks
 * pages with axe itself (the route sweep) or only targets other checks (the accessibility
 * journeys, whose pages the sweep covers) turns it off with `test.use({ axeOnLoad: false })`.
 */
export const test = base.extend<{ axeEveryPage: undefined; axeOnLoad: boolean }>({
  axeOnLoad: [true, { option: true }],
  // Pages load their scripts after the first paint (decision 0012), which can be after `load`:
  // goto and reload return once the page has hydrated, as a visitor's first click would find it.
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled !== false) {
      const hydrated = async (response: Awaited<ReturnType<Page["goto"]>>) => {
        if (response?.headers()["content-type"]?.startsWith("text/html")) {
          await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
        }
        return response;
      };
      const goto = page.goto.bind(page);
      const reload = page.reload.bind(page);
      page.goto = async (...args) => hydrated(await goto(...args));
      page.reload = async (...args) => hydrated(await reload(...args));
    }
    await use(page);
  },
  axeEveryPage: [
    async ({ page, axeOnLoad, javaScriptEnabled }, use) => {
      // axe is a script in the page: with JavaScript off it never answers (before, the check
      // hung unseen; now a test waits for its checks). The same screens with JavaScript are
      // checked by the route sweep and the journeys.
      if (!axeOnLoad || javaScriptEnabled === false) {
        await use(undefined);
        return;
      }
      const checked = new Set<string>();
      const failures: string[] = [];
      const check = async () => {
        const url = page.url();
        if (checked.has(url) || !url.startsWith("http")) return;
        checked.add(url);
        try {
          // A screen in exactly the state an earlier test of this worker had checked gets that
          // check's findings (decision 0125): axe's answer depends on nothing else.
          const state = await renderedState(page);
          const known = axeFindingsByState.get(state);
          if (known) {
            failures.push(...known.map((finding) => `${url} — ${finding}`));
            return;
          }
          const found = await seriousFindings(page);
          failures.push(...found.map((finding) => `${url} — ${finding}`));
          // Kept only if the page did not change while axe ran (the test goes on meanwhile).
          if ((await renderedState(page)) === state) axeFindingsByState.set(state, found);
        } catch {
          // the page navigated away while axe ran; the next load is checked instead
        }
      };
      // Checks started by a load and still running when the test ends are waited for: the last
      // page a test opens is often still being checked then, and its findings count too.
      const running = new Set<Promise<void>>();
      page.on("load", () => {
        const started = check();
        running.add(started);
        void started.finally(() => running.delete(started));
      });
      await use(undefined);
      if (!page.isClosed()) {
        await page.waitForLoadState("load").catch(() => {});
        await check();
      }
      await Promise.all(running);
      expect(failures, "axe: serious or critical accessibility violations").toEqual([]);
    },
    { auto: true },
  ],
});
