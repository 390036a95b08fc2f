import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../../app/db/seed/demo-accounts";
import type { CapturedMail } from "../helpers/smtp";

export { expect };

/** A client address of our own, so per-client rate limits never couple tests together. */
export function randomClientIp() {
  const n = () => Math.floor(Math.random() * 250) + 1;
  return `10.${n()}.${n()}.${n()}`;
}

type Role = (typeof DEMO_ACCOUNTS)[number]["role"];

/** Signs the page's browser context in through the real sign-in endpoint. */
export async function signIn(page: Page, who: Role | { email: string; password: string }) {
  const credentials =
    typeof who === "string"
      ? { email: DEMO_ACCOUNTS.find((a) => a.role === who)!.email, password: DEMO_PASSWORD }
      : who;
  const response = await page.request.post("/api/auth/sign-in/email", {
    data: credentials,
    headers: { "x-forwarded-for": randomClientIp() },
  });
  expect(response.ok(), `sign-in as ${credentials.email}: ${response.status()}`).toBeTruthy();
}

/** Mail captured by the test SMTP server, newest last. */
export function capturedMail(): CapturedMail[] {
  const dir = path.join(process.env.E2E_DATA_DIR!, "captured-mail");
  return readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as CapturedMail);
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
 * Waits (at most a second) for finite CSS animations and transitions to end: axe measures colour
 * contrast as painted, and a toast half-way through fading in is not what a reader sees.
 */
async function settleAnimations(page: Page) {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 1000)),
    ]),
  );
}

/** Runs axe on the page; fails on serious or critical violations. */
export async function expectNoSeriousA11yViolations(page: Page) {
  await settleAnimations(page);
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter(
    (v) => v.impact === "serious" || v.impact === "critical",
  );
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    `axe on ${page.url()}`,
  ).toEqual([]);
}

/**
 * `test` with an automatic axe check of every page a test visits: after each navigation
 * settles, axe runs; the test fails on any serious or critical violation.
 */
export const test = base.extend<{ axeEveryPage: undefined }>({
  axeEveryPage: [
    async ({ page }, use) => {
      const checked = new Set<string>();
      const failures: string[] = [];
      const check = async () => {
        const url = page.url();
        if (checked.has(url) || !url.startsWith("http")) return;
        checked.add(url);
        try {
          await settleAnimations(page);
          const results = await new AxeBuilder({ page }).analyze();
          for (const v of results.violations) {
            if (v.impact === "serious" || v.impact === "critical") {
              failures.push(
                `${url} — ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
              );
            }
          }
        } catch {
          // the page navigated away while axe ran; the next load is checked instead
        }
      };
      page.on("load", () => {
        void check();
      });
      await use(undefined);
      if (!page.isClosed()) {
        await page.waitForLoadState("load").catch(() => {});
        await check();
      }
      expect(failures, "axe: serious or critical accessibility violations").toEqual([]);
    },
    { auto: true },
  ],
});
