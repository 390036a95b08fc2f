// M-Pesa online's configuration (validated at start) and the Daraja client against the stand-in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "~/lib/env.server";
import { type DarajaStandin, startDarajaStandin } from "../../../scripts/daraja-standin/standin";
import { darajaClient, darajaTimestamp, forgetDarajaTokens, hookSegment } from "./daraja.server";

const base = {
  NODE_ENV: "test",
  DATA_DIR: "/tmp/kongamano-env-test",
  SESSION_SECRET: "x".repeat(40),
};

describe("M-Pesa configuration", () => {
  it("is off without the credentials and defaults to the sandbox and KES 250,000 per push", () => {
    const env = parseEnv(base);
    expect(env.MPESA_BASE_URL).toBe("https://sandbox.safaricom.co.ke");
    expect(env.MPESA_MAX_AMOUNT).toBe(250_000);
    expect(env.MPESA_CALLBACK_IPS).toEqual([]);
  });

  it("wants the key, secret and passkey together, and the initiator with its credential", () => {
    expect(() =>
      parseEnv({ ...base, MPESA_CONSUMER_KEY: "k", MPESA_CONSUMER_SECRET: "s" }),
    ).toThrow(/MPESA_PASSKEY is required with the other M-Pesa online variables/);
    expect(() => parseEnv({ ...base, MPESA_INITIATOR_NAME: "api" })).toThrow(
      /MPESA_SECURITY_CREDENTIAL is required/,
    );
    // The credential is never echoed.
    expect(() => parseEnv({ ...base, MPESA_SECURITY_CREDENTIAL: "s3cr3t-value" })).toThrow(
      /^(?!.*s3cr3t-value).*MPESA_INITIATOR_NAME/,
    );
  });

  it("refuses a BASE_URL with a word Daraja refuses in callback URLs, and addresses that are not IPs", () => {
    const online = {
      ...base,
      MPESA_CONSUMER_KEY: "k",
      MPESA_CONSUMER_SECRET: "s",
      MPESA_PASSKEY: "p",
    };
    expect(() => parseEnv({ ...online, BASE_URL: "https://mpesa.example.org" })).toThrow(
      /BASE_URL contains a word Daraja refuses/,
    );
    expect(() => parseEnv({ ...online, BASE_URL: "https://events.example.org" })).not.toThrow();
    expect(() => parseEnv({ ...base, MPESA_CALLBACK_IPS: "196.201.214.200, nope" })).toThrow(
      /MPESA_CALLBACK_IPS lists "nope"/,
    );
    expect(parseEnv({ ...base, MPESA_MAX_AMOUNT: "150000" }).MPESA_MAX_AMOUNT).toBe(150_000);
  });

  it("derives an unguessable hook segment from the secret, free of refused words", () => {
    const a = hookSegment("secret-one-secret-one-secret-one-1");
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(hookSegment("secret-two-secret-two-secret-two-2"));
    expect(a).toBe(hookSegment("secret-one-secret-one-secret-one-1"));
  });

  it("stamps requests in Nairobi time", () => {
    expect(darajaTimestamp(new Date("2027-03-14T21:30:05Z"))).toBe("20270315003005");
  });
});

describe("the Daraja client against the stand-in", () => {
  let standin: DarajaStandin;
  beforeAll(async () => {
    standin = await startDarajaStandin({ tokenSeconds: 3599 });
  });
  afterAll(() => standin.close());

  const config = () => ({
    baseUrl: standin.url,
    consumerKey: standin.config.consumerKey,
    consumerSecret: standin.config.consumerSecret,
    passkey: standin.config.passkey,
    shortcode: standin.config.shortcode,
    initiator: null,
  });

  it("keeps its token until a minute before it expires", async () => {
    forgetDarajaTokens();
    let now = Date.now();
    const client = darajaClient(config(), { now: () => now });
    const first = await client.token();
    now += 3_500_000; // 58 min 20 s: still good
    expect(await client.token()).toBe(first);
    now += 60_000; // less than a minute left: a new one
    expect(await client.token()).not.toBe(first);
    expect(standin.counts.tokens).toBe(2);
  });

  it("sends a push, and reads 'still processing' as pending, then the result", async () => {
    const client = darajaClient(config());
    const push = await client.stkPush({
      phone: "254712345678",
      amountKes: 100,
      accountReference: "2700004292",
      transactionDesc: "Kongamano",
      callbackUrl: "https://events.example.org/api/payments/hooks/abc/stk",
    });
    expect(await client.stkQuery(push.checkoutRequestId)).toEqual({ state: "pending" });
    await standin.complete(push.checkoutRequestId, "timeout", "lost");
    expect(await client.stkQuery(push.checkoutRequestId)).toMatchObject({
      state: "final",
      resultCode: 1037,
    });
  });

  it("is refused wrong credentials", async () => {
    forgetDarajaTokens();
    const client = darajaClient({ ...config(), consumerSecret: "wrong" });
    await expect(client.token()).rejects.toThrow(/refused the credentials/);
  });
});
