/**
 * The HTTP layer of the production build against hostile requests (issue 13 §3, §4, §6, §7),
 * across every route of app/routes.ts with real slugs from the demo content: a forged Host,
 * NUL bytes in paths and queries, odd content types, state changes without an Origin, and
 * bodies over the cap. None may answer 500 (tests/helpers/setup.ts also reads the server log).
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "~/models/seed/demo-accounts";
import routes from "~/routes";
import { MAX_FORM_BODY_BYTES } from "../../server/http-guards";
import { type RunningServer, startServer } from "../helpers/server-process";

const PAYMENT_HOOKS = "/api/payments/hooks/";
/** The providers' signed webhooks under the hooks' prefix (issue 31). */
const WEBHOOKS = /^\/api\/payments\/hooks\/(paystack|paypal)\/webhook$/;

type RouteEntry = { path?: string; index?: boolean; file: string; children?: RouteEntry[] };

/** Every URL pattern of the route config (layouts contribute their children). */
function patterns(entries: readonly RouteEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = [parent, entry.path ?? ""].filter(Boolean).join("/");
    return entry.children?.length ? patterns(entry.children, path) : [`/${path}`];
  });
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string };

/** One request exactly as written (Host, target and headers untouched by a fetch client). */
function send(
  server: RunningServer,
  target: string,
  {
    method = "GET",
    headers = {},
    body,
  }: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: "127.0.0.1",
      port: server.port,
      path: target,
      method,
      agent: false,
      headers: { Host: `127.0.0.1:${server.port}`, ...headers },
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString(),
        }),
      );
    });
    request.on("error", reject);
    request.end(body);
  });
}

/**
 * The status of a POST answered before its body is all sent: `write` sends what the client sends
 * (or nothing), and the answer is read as soon as it comes. Bytes written after the server has
 * answered and closed meet a reset, which can reach the client before the answer does: `write`
 * sends nothing the server has not read when it answers.
 */
function statusWhileSending(
  server: RunningServer,
  target: string,
  headers: Record<string, string>,
  write: (request: http.ClientRequest) => void,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: "127.0.0.1",
      port: server.port,
      path: target,
      method: "POST",
      agent: false,
      headers,
    });
    request.on("response", (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
      request.destroy();
    });
    request.on("error", reject);
    write(request);
  });
}

const canonicalOf = (html: string) => html.match(/<link rel="canonical" href="([^"]+)"/)?.[1];
const ogUrlOf = (html: string) => html.match(/<meta property="og:url" content="([^"]+)"/)?.[1];

describe("HTTP hardening across every route", () => {
  let server: RunningServer;
  let origin: string;
  /** Concrete URLs for every route pattern, with `%00` where a parameter or slug goes. */
  let urls: Array<{ pattern: string; url: string; withNul: string }> = [];

  beforeAll(async () => {
    // The demo editor posts a paper form here without an authenticator; the two-factor gate
    // itself (on by default) is tested in auth-endpoints.test.ts.
    server = await startServer({ REQUIRE_EDITOR_MFA: "false" });
    origin = server.url;
    const eventsHtml = await (await fetch(`${origin}/events`)).text();
    const papersHtml = await (await fetch(`${origin}/papers`)).text();
    const eventSlug = eventsHtml.match(/href="\/events\/([a-z0-9-]+)"/)?.[1];
    const paperSlug = papersHtml.match(/href="\/papers\/([a-z0-9-]{12,})"/)?.[1];
    expect(eventSlug && paperSlug).toBeTruthy();
    const value = (pattern: string, name: string) => {
      if (name === "slug") return pattern.startsWith("/events") ? eventSlug! : paperSlug!;
      if (name === "token") return "no-such-invitation";
      return "00000000-0000-4000-8000-000000000000";
    };
    const splat = (pattern: string) =>
      pattern.startsWith("/api/auth")
        ? "get-session"
        : pattern === "/*"
          ? "no-such-page"
          : "x.webp";
    urls = patterns(routes as readonly RouteEntry[]).map((pattern) => {
      const fill = (nul: boolean) =>
        pattern
          .replace(/:([A-Za-z]+)\??/g, (_m, name: string) => (nul ? "x%00y" : value(pattern, name)))
          .replace("*", nul ? "x%00y" : splat(pattern));
      const url = fill(false);
      // A route without parameters gets the NUL byte in its last segment.
      const withNul = /[:*]/.test(pattern) ? fill(true) : `${url.replace(/\/$/, "")}/%00`;
      return { pattern, url, withNul };
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("enumerates app/routes.ts with real demo slugs", async () => {
    expect(urls.length).toBeGreaterThan(50);
    const event = urls.find((u) => u.pattern === "/events/:slug")!;
    expect((await send(server, event.url)).status).toBe(200);
    const paper = urls.find((u) => u.pattern === "/papers/:slug")!;
    expect((await send(server, paper.url)).status).toBe(200);
  });

  it("refuses a forged Host with 421 on every route; canonical and og:url stay BASE_URL's", async () => {
    const failures: string[] = [];
    for (const { url } of urls) {
      const forged = await send(server, url, { headers: { Host: "attacker.example" } });
      if (forged.status !== 421) failures.push(`${url}: ${forged.status}`);
    }
    expect(failures).toEqual([]);

    // The cache-poisoning sequence: a forged request first, then an ordinary visitor.
    for (const path of ["/about", "/", urls.find((u) => u.pattern === "/events/:slug")!.url]) {
      expect((await send(server, path, { headers: { Host: "attacker.example" } })).status).toBe(
        421,
      );
      // X-Forwarded-Host is not believed either (no proxy is trusted here, and none needs it).
      const forwarded = await send(server, path, {
        headers: { "X-Forwarded-Host": "attacker.example" },
      });
      expect(forwarded.status).toBe(200);
      for (const visit of [forwarded, await send(server, path)]) {
        expect(canonicalOf(visit.text)?.startsWith(`${origin}/`)).toBe(true);
        expect(ogUrlOf(visit.text)?.startsWith(`${origin}/`)).toBe(true);
        expect(visit.text).not.toContain("attacker.example");
      }
    }
  });

  it("answers health probes by address and accepts the loopback aliases of a loopback BASE_URL", async () => {
    for (const path of ["/healthz", "/readyz"]) {
      expect((await send(server, path, { headers: { Host: "10.0.0.7:8080" } })).status).toBe(200);
    }
    const alias = await send(server, "/about", { headers: { Host: `localhost:${server.port}` } });
    expect(alias.status).toBe(200);
    expect(canonicalOf(alias.text)).toBe(`${origin}/about`);
    // An absolute-form request target names another host too.
    const absolute = await send(server, "http://attacker.example/about");
    expect(absolute.status).toBe(400);
  });

  it("answers a NUL byte in any path parameter, slug or query with 400, never 500", async () => {
    const failures: string[] = [];
    for (const { url, withNul } of urls) {
      for (const target of [withNul, `${url}?q=%00`, `${url}?search=a%00b&page=%00`]) {
        const { status } = await send(server, target);
        if (status !== 400) failures.push(`${target}: ${status}`);
      }
    }
    const broken = await send(server, "/events/%E0%A4%A");
    expect(broken.status).toBe(400);
    expect(failures).toEqual([]);
  });

  it("answers odd content types with 415 (or 400 for a broken form), never 500", async () => {
    const bodies: Array<[string | undefined, string]> = [
      ["application/json", '{"name":"x"}'],
      ["application/xml", "<name>x</name>"],
      ["text/plain", "name=x"],
      ["application/octet-stream", "\u0000\u0001"],
      [undefined, ""],
      ["multipart/form-data", "name=x"],
      ["multipart/form-data; boundary=zz", "--zz\r\nnot a part"],
    ];
    const failures: string[] = [];
    for (const { pattern, url } of urls) {
      for (const [type, body] of bodies) {
        const headers: Record<string, string> = { Origin: origin };
        if (type) headers["Content-Type"] = type;
        const { status } = await send(server, url, { method: "POST", headers, body });
        const form = type?.startsWith("multipart/");
        // better-auth answers its own endpoints; the upload endpoint takes any declared type
        // (it decides by the bytes) and asks for a role first; M-Pesa's hooks take JSON only
        // (an unknown hook segment is a 404) and refuse every other type (decision 0096); the
        // card and PayPal webhooks refuse unsigned JSON with a 4xx of their own (issue 31).
        const expected = pattern.startsWith("/api/auth")
          ? status < 500
          : pattern.startsWith(PAYMENT_HOOKS)
            ? type === "application/json"
              ? WEBHOOKS.test(pattern)
                ? status >= 400 && status < 500
                : status === 404
              : status === 415
            : pattern === "/admin/uploads"
              ? status === 401
              : /^\/admin\/papers\/(new|:id\/edit)$/.test(pattern) && form
                ? status >= 300 && status < 500 // streamed to its action, which wants a role first
                : status === (form ? 400 : 415);
        if (!expected) failures.push(`POST ${url} as ${type}: ${status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("reads a broken multipart paper form as bad input (400) for a signed-in editor", async () => {
    const editor = DEMO_ACCOUNTS.find((a) => a.role === "editor")!;
    const signIn = await fetch(`${origin}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: origin },
      body: JSON.stringify({ email: editor.email, password: DEMO_PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    for (const [type, expected] of [
      ["multipart/form-data; boundary=zz", 400],
      ["multipart/form-data", 400],
      ["application/json", 415],
    ] as const) {
      const { status } = await send(server, "/admin/papers/new", {
        method: "POST",
        headers: { cookie, Origin: origin, "Content-Type": type },
        body: "--zz\r\nbroken",
      });
      expect(status, type).toBe(expected);
    }
  });

  it("takes NUL and other control characters in form fields without a 5xx (stripped before any action)", async () => {
    const nul = "\u0000\u0001\u001b\u007f";
    const forms: Array<[string, Record<string, string>]> = [
      [
        "/contact",
        {
          name: `Halima${nul}`,
          email: "halima@example.org",
          subject: `Hi${nul}`,
          message: `Habari${nul}`,
        },
      ],
      [
        "/events/propose",
        {
          title: `Open Data Day${nul}`,
          location: "Nairobi",
          dates: "March 2027",
          description: `Talks${nul}`,
          name: "Halima",
          email: "halima@example.org",
        },
      ],
    ];
    for (const [path, fields] of forms) {
      for (const multipart of [false, true]) {
        const form = new FormData();
        for (const [name, value] of Object.entries(fields)) form.append(name, value);
        const response = await fetch(`${origin}${path}`, {
          method: "POST",
          headers: { Origin: origin, "X-Forwarded-For": "198.51.100.7" },
          body: multipart ? form : new URLSearchParams(fields),
        });
        // Accepted as if the characters had not been typed.
        expect(response.status, `${path} ${multipart ? "multipart" : "urlencoded"}`).toBe(200);
      }
    }
    const signUp = await fetch(`${origin}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: origin },
      body: JSON.stringify({
        name: `N${nul}`,
        email: "nul.byte@example.org",
        password: "Nul-Byte-Pass-1",
      }),
    });
    expect(signUp.status).toBeLessThan(500);
  });

  it("refuses a state change with neither Origin nor Referer, or from another site", async () => {
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    const failures: string[] = [];
    for (const { pattern, url } of urls) {
      const bare = await send(server, url, { method: "POST", headers: form, body: "name=x" });
      const foreign = await send(server, url, {
        method: "POST",
        headers: { ...form, Referer: "https://attacker.example/page" },
        body: "name=x",
      });
      // better-auth keeps its own rule for requests without either header; M-Pesa posts its
      // Origin-less JSON to the hooks, which refuse a form body as the wrong type (415).
      if (pattern.startsWith(PAYMENT_HOOKS)) {
        if (bare.status !== 415) failures.push(`${url} without Origin: ${bare.status}`);
      } else if (!pattern.startsWith("/api/auth") && bare.status !== 403) {
        failures.push(`${url} without Origin: ${bare.status}`);
      }
      if (bare.status >= 500) failures.push(`${url} without Origin: ${bare.status}`);
      if (foreign.status !== 403) failures.push(`${url} from another site: ${foreign.status}`);
    }
    expect(failures).toEqual([]);
    // A Referer from our own pages stands in for a missing Origin (the form's 400, not 403).
    const ownReferer = await send(server, "/contact", {
      method: "POST",
      headers: { ...form, Referer: `${origin}/contact` },
      body: "name=x",
    });
    expect(ownReferer.status).toBe(400);
  });

  it("refuses a declared 60 MB body with 413 at once on every route", async () => {
    const failures: string[] = [];
    for (const { url } of urls) {
      const started = performance.now();
      const answer = await new Promise<number>((resolve, reject) => {
        const request = http.request({
          host: "127.0.0.1",
          port: server.port,
          path: url,
          method: "POST",
          agent: false,
          headers: {
            Origin: origin,
            "Content-Type": "application/x-www-form-urlencoded",
            "Content-Length": String(60 * 1024 * 1024),
          },
        });
        request.on("response", (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
          request.destroy();
        });
        request.on("error", reject);
        request.write("name="); // the headers and a few bytes: the answer must not wait for more
      });
      const ms = performance.now() - started;
      if (answer !== 413 || ms > 2_000)
        failures.push(`${url}: ${answer} after ${Math.round(ms)} ms`);
    }
    expect(failures).toEqual([]);
  });

  it("cuts off a chunked body at 1 MB with 413 and still reads a form under the cap", async () => {
    // 1 MB of form in chunks (no Content-Length), then one byte more, then nothing: the answer
    // comes without an end. The last byte crosses the cap, so the server has read everything
    // sent when it answers and closes.
    const status = await statusWhileSending(
      server,
      "/contact",
      { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
      (request) => {
        request.write("message=");
        for (let left = MAX_FORM_BODY_BYTES - "message=".length; left > 0; left -= 64 * 1024) {
          request.write("a".repeat(Math.min(left, 64 * 1024)));
        }
        request.write("a");
      },
    );
    expect(status).toBe(413);

    // 900 KB is under the cap: the action reads it (and says the message is too long).
    const under = await send(server, "/contact", {
      method: "POST",
      headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: `name=Halima&message=${"a".repeat(900 * 1024)}`,
    });
    expect(under.status).toBe(400);

    // A payment proof (up to 5 MB) rides on its form: 3 MB passes the guard to the action,
    // which asks for a role (401); the same length declared to a plain form is refused (413)
    // before a byte of the body is read. That answer is awaited before sending the body, as a
    // client sending `Expect: 100-continue` does.
    const proof = `--zz\r\nContent-Disposition: form-data; name="proof"; filename="p.pdf"\r\n\r\n${"a".repeat(3 * 1024 * 1024)}\r\n--zz--\r\n`;
    const multipart = { Origin: origin, "Content-Type": "multipart/form-data; boundary=zz" };
    const accepted = await send(server, "/admin/payments", {
      method: "POST",
      headers: multipart,
      body: proof,
    });
    expect(accepted.status, "/admin/payments").toBe(401);
    const refused = await statusWhileSending(
      server,
      "/contact",
      { ...multipart, "Content-Length": String(Buffer.byteLength(proof)) },
      (request) => request.flushHeaders(),
    );
    expect(refused, "/contact").toBe(413);
  });
});
