import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, redactHeaders, redactSecrets, redactUrl } from "./logger.server";

const TOKEN = "Zq8_kP3-vN2xR7wT1yU4bC6dE9fG0hJ5";

describe("redactUrl: the token of every link type the site mails stays out of the log", () => {
  it("password reset: better-auth's link and the reset page it redirects to", () => {
    expect(
      redactUrl(`/api/auth/reset-password/${TOKEN}?callbackURL=%2Fauth%2Freset-password`),
    ).toBe("/api/auth/reset-password/[redacted]");
    expect(redactUrl(`/auth/reset-password?token=${TOKEN}`)).toBe("/auth/reset-password");
  });

  it("e-mail verification", () => {
    expect(
      redactUrl(`/api/auth/verify-email?token=eyJhbGc.eyJzdWIi.${TOKEN}&callbackURL=%2F`),
    ).toBe("/api/auth/verify-email");
  });

  it("staff invitation", () => {
    expect(redactUrl(`/invite/${TOKEN}`)).toBe("/invite/[redacted]");
  });

  it("membership renewal link and its invoice", () => {
    const renewal = `0b7c6a52-6f9e-4d7e-9a51-3f0c2d1e4b5a.1893456000.${TOKEN}`;
    expect(redactUrl(`/membership/renew/${renewal}`)).toBe("/membership/renew/[redacted]");
    expect(redactUrl(`/membership/renew/${renewal}/invoice.pdf`)).toBe(
      "/membership/renew/[redacted]/invoice.pdf",
    );
  });

  it("a reviewer's invitation link", () => {
    expect(redactUrl(`/reviews/invitation/${TOKEN}`)).toBe("/reviews/invitation/[redacted]");
    expect(redactSecrets(`GET /auth?redirectTo=%2Freviews%2Finvitation%2F${TOKEN}`)).not.toContain(
      TOKEN,
    );
  });

  it("corporate billing contact's link and its PDFs", () => {
    const billing = `0b7c6a52-6f9e-4d7e-9a51-3f0c2d1e4b5a.1893456000.${TOKEN}`;
    expect(redactUrl(`/membership/billing/${billing}`)).toBe("/membership/billing/[redacted]");
    expect(redactUrl(`/membership/billing/${billing}/invoice.pdf`)).toBe(
      "/membership/billing/[redacted]/invoice.pdf",
    );
  });

  it("the M-Pesa hooks' unguessable segment", () => {
    expect(redactUrl("/api/payments/hooks/0123456789abcdef0123456789abcdef/stk")).toBe(
      "/api/payments/hooks/[redacted]/stk",
    );
  });

  it("corporate seat invitation, also as a single-fetch data request", () => {
    expect(redactUrl(`/membership/seat/${TOKEN}`)).toBe("/membership/seat/[redacted]");
    expect(redactUrl(`/membership/seat/${TOKEN}.data`)).toBe("/membership/seat/[redacted]");
  });

  it("waitlist offer", () => {
    expect(
      redactUrl("/events/data-summit/register?offer=00000000-0000-4000-8000-000000000000"),
    ).toBe("/events/data-summit/register");
  });

  it("membership card verification code", () => {
    expect(redactUrl("/membership/verify/K7M2Q9")).toBe("/membership/verify/[redacted]");
  });

  it("keeps the origin of an absolute URL (Referer, Location) and drops every query", () => {
    expect(redactUrl(`http://127.0.0.1:3000/invite/${TOKEN}#top`)).toBe(
      "http://127.0.0.1:3000/invite/[redacted]",
    );
    expect(redactUrl("/events?q=data&page=2")).toBe("/events");
    expect(redactUrl("/papers/open-data-in-kenya")).toBe("/papers/open-data-in-kenya");
    expect(redactUrl(undefined)).toBeUndefined();
  });
});

describe("redactSecrets", () => {
  it("finds links anywhere in a text, URL-encoded ones included", () => {
    const text = `You made a POST request to "/membership/seat/${TOKEN}" from /auth?redirectTo=%2Fmembership%2Fseat%2F${TOKEN}; see http://x/auth/reset-password?token=${TOKEN}&a=1 or ?callbackURL=%2Fauth%2Freset-password%3Ftoken%3D${TOKEN}`;
    const redacted = redactSecrets(text);
    expect(redacted).not.toContain(TOKEN);
    expect(redacted).toContain('"/membership/seat/[redacted]"');
    expect(redacted).toContain("reset-password?token=[redacted]&a=1");
  });
});

describe("redactHeaders", () => {
  it("redacts URL-bearing and credential headers and keeps the rest", () => {
    expect(
      redactHeaders({
        referer: `http://127.0.0.1:3000/auth/reset-password?token=${TOKEN}`,
        location: `/membership/renew/${TOKEN}`,
        cookie: "session=abc",
        "user-agent": "curl/8",
      }),
    ).toEqual({
      referer: "http://127.0.0.1:3000/auth/reset-password",
      location: "/membership/renew/[redacted]",
      cookie: "[Redacted]",
      "user-agent": "curl/8",
    });
  });
});

describe("the logger", () => {
  it("writes no token, whatever field or child logger it came through", () => {
    let written = "";
    const sink = new Writable({
      write(chunk, _encoding, done) {
        written += chunk;
        done();
      },
    });
    const logger = createLogger(sink);
    logger.level = "info";
    logger.child({ reqId: 1 }).warn({ path: `/invite/${TOKEN}` }, `no action at /invite/${TOKEN}`);
    logger.info({ err: new Error(`GET /api/auth/verify-email?token=${TOKEN}`) }, "failed");
    expect(written.split("\n").filter(Boolean)).toHaveLength(2);
    expect(written).not.toContain(TOKEN);
    expect(written).toContain("/invite/[redacted]");
  });
});
