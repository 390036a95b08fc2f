/**
 * No secret in any log line (issue 26 §6): the production build, logging every request, is
 * driven through every flow that mails a link (sign-up verification, password reset, staff
 * invitation) and every other link type is visited with a well-formed token (renewal, corporate
 * seat, waitlist offer, card verification): as a page, as a single-fetch `.data` request, with the
 * token in the Referer, as a POST to a URL without an action (405) and under an unknown sub-path
 * (404). The captured log is then searched for each token: none may appear.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "~/lib/env.server";
import { renewalToken } from "~/models/membership/renewal-link.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "~/models/seed/demo-accounts";
import { wireProcess } from "~/models/wiring.server";
import { type RunningServer, startServer } from "../helpers/server-process";
import { startTestSmtp } from "../helpers/smtp";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

type Smtp = Awaited<ReturnType<typeof startTestSmtp>>;

describe("secrets in the server log", () => {
  let server: RunningServer;
  let smtp: Smtp;
  /** Every token this test saw issued or used, by link type. */
  const tokens: Array<{ type: string; token: string }> = [];

  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startServer(
      {
        LOG_LEVEL: "info",
        SMTP_URL: smtp.url,
        SESSION_SECRET: env().SESSION_SECRET,
        REQUIRE_ADMIN_MFA: "false",
      },
      { timeoutMs: 90_000 },
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  const post = (
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: server.url, ...headers },
      body: new URLSearchParams(fields),
    });
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { redirect: "manual", headers });
  const cookieOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  /** The site's links in a mail, as paths with their query. */
  const linksIn = (text: string) =>
    [...text.matchAll(/https?:\/\/127\.0\.0\.1:\d+(\/[^\s>"]*)/g)].map((m) => m[1]);

  /** A link's URL as pages and browsers request it: itself, its data twin, with it as Referer. */
  async function visit(path: string, cookie = "") {
    const headers: Record<string, string> = cookie ? { cookie } : {};
    const page = await get(path, headers);
    await page.arrayBuffer();
    const [pathname, query] = path.split("?");
    const data = await get(`${pathname}.data${query ? `?${query}` : ""}`, headers);
    await data.arrayBuffer();
    const after = await get("/about", { ...headers, Referer: `${server.url}${path}` });
    await after.arrayBuffer();
    return page;
  }

  it("sign-up verification: the mailed link visited", async () => {
    const email = `log.secrets.${Date.now()}@example.org`;
    const signUp = await post("/auth", {
      intent: "sign-up",
      fullName: "Log Secrets",
      email,
      password: "Log-Secrets-Pass-1",
      confirmPassword: "Log-Secrets-Pass-1",
    });
    expect(signUp.status).toBeLessThan(400);
    const mail = await smtp.waitFor(email, /verif/i);
    const link = linksIn(mail.text).find((l) => l.includes("verify-email"));
    expect(link).toBeDefined();
    tokens.push({
      type: "verification",
      token: new URL(link!, server.url).searchParams.get("token")!,
    });
    const verified = await visit(link!);
    expect(verified.status).toBe(302);
  });

  it("password reset: the request, the mailed link, the page with the token, the new password", async () => {
    const member = DEMO_ACCOUNTS.find((a) => a.role === "user")!;
    const requested = await post("/auth", { intent: "forgot-password", email: member.email });
    expect(requested.status).toBeLessThan(500);
    const mail = await smtp.waitFor(member.email, /reset/i);
    const link = linksIn(mail.text).find((l) => l.includes("reset-password"));
    expect(link).toBeDefined();
    const token = link!.match(/reset-password\/([^/?]+)/)![1];
    tokens.push({ type: "reset", token });
    const redirected = await visit(link!);
    expect(redirected.status).toBe(302);
    const location = redirected.headers.get("location")!;
    expect(location).toContain(token);
    await visit(new URL(location, server.url).pathname + new URL(location, server.url).search);
    const reset = await post(
      `/auth/reset-password?token=${token}`,
      { token, password: "Log-Secrets-New-Pass-2", confirmPassword: "Log-Secrets-New-Pass-2" },
      { Referer: `${server.url}/auth/reset-password?token=${token}` },
    );
    expect(reset.status).toBeLessThan(500);
  });

  it("staff invitation: sent by an admin, the mailed link opened and accepted", async () => {
    const admin = DEMO_ACCOUNTS.find((a) => a.role === "admin")!;
    const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify({ email: admin.email, password: DEMO_PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const cookie = cookieOf(signIn);
    const invitee = `log.invitee.${Date.now()}@example.org`;
    const invited = await post(
      "/admin/security",
      { intent: "invite", email: invitee, role: "editor" },
      { cookie },
    );
    expect(invited.status).toBeLessThan(400);
    const mail = await smtp.waitFor(invitee);
    const link = linksIn(mail.text).find((l) => l.startsWith("/invite/"));
    expect(link).toBeDefined();
    tokens.push({ type: "invitation", token: link!.slice("/invite/".length) });
    expect((await visit(link!)).status).toBe(200);
    const accepted = await post(
      link!,
      {
        fullName: "Log Invitee",
        password: "Log-Invitee-Pass-3",
        confirmPassword: "Log-Invitee-Pass-3",
      },
      { Referer: `${server.url}${link}` },
    );
    expect(accepted.status).toBeLessThan(500);
  });

  it("renewal link, seat invitation, waitlist offer and card code: every way a URL is requested", async () => {
    const member = DEMO_ACCOUNTS.find((a) => a.role === "user")!;
    const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify({ email: member.email, password: DEMO_PASSWORD }),
    });
    const cookie = signIn.status === 200 ? cookieOf(signIn) : "";
    const eventsHtml = await (await get("/events")).text();
    const slug = eventsHtml.match(/href="\/events\/([a-z0-9-]+)"/)?.[1];
    expect(slug).toBeTruthy();

    const renewal = renewalToken(randomUUID(), new Date(Date.now() + 30 * 86_400_000));
    const seat = randomBytes(24).toString("base64url");
    const offer = randomUUID();
    const code = randomBytes(6).toString("hex").toUpperCase();
    tokens.push(
      { type: "renewal", token: renewal },
      { type: "seat", token: seat },
      { type: "offer", token: offer },
      { type: "card code", token: code },
    );
    // The renewal page's own action is left out: with a well-formed token for a membership that
    // does not exist it fails (500) in the membership model, which is not what this test probes.
    for (const [path, postToo] of [
      [`/membership/renew/${renewal}`, false],
      [`/membership/renew/${renewal}/invoice.pdf`, true],
      [`/membership/seat/${seat}`, true],
      [`/events/${slug}/register?offer=${offer}`, true],
      [`/membership/verify/${code}`, true],
    ] as const) {
      for (const who of ["", cookie]) {
        const page = await visit(path, who);
        expect(page.status, path).toBeLessThan(500);
        if (!postToo) continue;
        // A POST where no action is (405) or a form posted with the token in its URL.
        const posted = await post(path, { intent: "accept" }, who ? { cookie: who } : {});
        expect(posted.status, `POST ${path}`).toBeLessThan(500);
      }
    }
    // Unknown sub-paths under a token (the not-found page logs the path it was asked for).
    for (const path of [`/membership/seat/${seat}/x`, `/membership/renew/${renewal}/x`]) {
      expect((await get(path)).status).toBe(404);
    }
  });

  it("the log holds none of the tokens", () => {
    const log = server.output();
    const lines = log.split("\n").filter(Boolean);
    const types = new Set(tokens.map((t) => t.type));
    expect(types).toEqual(
      new Set(["verification", "reset", "invitation", "renewal", "seat", "offer", "card code"]),
    );
    const hits = tokens.flatMap(({ type, token }) =>
      lines.filter((line) => line.includes(token)).map((line) => `${type}: ${line.slice(0, 300)}`),
    );
    console.info(
      `log-secrets: ${lines.length} log lines, ${tokens.length} tokens, ${hits.length} hits`,
    );
    // The requests were logged (with their tokens redacted), not merely left out.
    expect(lines.length).toBeGreaterThan(50);
    expect(log).toContain("/membership/seat/[redacted]");
    expect(log).toContain("/api/auth/reset-password/[redacted]");
    expect(log).toContain("/invite/[redacted]");
    expect(hits).toEqual([]);
  });
});
