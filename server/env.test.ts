import { describe, expect, it } from "vitest";
import { parseEnv } from "~/lib/env.server";

describe("configuration", () => {
  it("names the variable and the problem in one line", () => {
    expect(() => parseEnv({ PORT: "eighty", DATA_DIR: "/tmp/x" })).toThrowError(
      /^Invalid configuration: PORT .*\(got "eighty"\)$/,
    );
    expect(() => parseEnv({ DATABASE_URL: "mysql://x", DATA_DIR: "/tmp/x" })).toThrowError(
      /DATABASE_URL must start with postgres/,
    );
  });

  it("requires SESSION_SECRET in production on PostgreSQL, without echoing secrets", () => {
    expect(() =>
      parseEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://h/db", DATA_DIR: "/tmp/x" }),
    ).toThrowError(/SESSION_SECRET is required in production/);
    expect(() => parseEnv({ SESSION_SECRET: "short", DATA_DIR: "/tmp/x" })).toThrowError(
      /^Invalid configuration: SESSION_SECRET must be at least 32 characters$/,
    );
  });

  it("turns cards and PayPal on only when configured, PayPal with all three or none (issue 31)", () => {
    const base = { DATA_DIR: "/tmp/kongamano-env-test" };
    const off = parseEnv(base);
    expect(off.PAYSTACK_BASE_URL).toBe("https://api.paystack.co");
    expect(off.PAYSTACK_SECRET_KEY).toBeUndefined();
    expect(off.PAYPAL_BASE_URL).toBe("https://api-m.sandbox.paypal.com");
    expect(() => parseEnv({ ...base, PAYSTACK_BASE_URL: "ftp://x" })).toThrowError(
      /^Invalid configuration: PAYSTACK_BASE_URL must be an http\(s\) URL/,
    );
    expect(() =>
      parseEnv({ ...base, PAYPAL_CLIENT_ID: "id", PAYPAL_CLIENT_SECRET: "s3cret" }),
    ).toThrowError(/^Invalid configuration: PAYPAL_WEBHOOK_ID is required with the other PayPal/);
    // A secret is never echoed back.
    expect(() => parseEnv({ ...base, PAYSTACK_SECRET_KEY: "   " })).toThrowError(
      /^Invalid configuration: PAYSTACK_SECRET_KEY [^"]*$/,
    );
  });

  it("defaults to port 3000 and derives BASE_URL from it", () => {
    const env = parseEnv({ DATA_DIR: "/tmp/kongamano-env-test" });
    expect(env.PORT).toBe(3000);
    expect(env.BASE_URL).toBe("http://localhost:3000");
    expect(env.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
  });
});
