import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { parseKesRates } from "./exchange-rates";

/** Words Daraja refuses in callback, confirmation, validation and result URLs. */
export const DARAJA_FORBIDDEN_URL_WORDS = /m-?pesa|safaricom|exec|cmd|sql|query/i;

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"])
  .transform((v) => ["true", "1", "yes", "on"].includes(v));

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    BASE_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
      .optional(),
    MAIL_FROM: z.string().min(3).default("Kongamano <no-reply@kongamano.org>"),
    CONTACT_TO: z.email({ error: "must be an e-mail address" }).default("info@kongamano.org"),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, "must start with redis:// or rediss://")
      .optional(),
    S3_ENDPOINT: z.url({ error: "must be a URL" }).optional(),
    S3_REGION: z.string().default("us-east-1"),
    S3_BUCKET: z.string().optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_PUBLIC_URL: z.url({ error: "must be a URL" }).optional(),
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    /** Comma-separated proxy addresses/CIDRs whose X-Forwarded-For we believe; empty = none. */
    TRUST_PROXY: z.string().default(""),
    /** Admins must enrol two-factor before the back office opens (on unless turned off). */
    REQUIRE_ADMIN_MFA: booleanFlag.default(true),
    /** Editors too: they handle money and attendee data (on unless turned off). */
    REQUIRE_EDITOR_MFA: booleanFlag.default(true),
    /** better-auth's impersonation endpoints for admins, audited (off unless turned on). */
    ALLOW_IMPERSONATION: booleanFlag.default(false),
    SEED_DEMO: booleanFlag.optional(),
    /** In-memory cache of anonymous public pages (on unless disabled). */
    PAGE_CACHE: booleanFlag.default(true),
    /** GET renders React Router works on at once; more wait their turn (decision 0068). */
    RENDER_CONCURRENCY: z.coerce.number().int().min(0).default(6),
    /** Registrations worked on at once per event; more wait in the waiting room (decision 0114). */
    REGISTRATION_QUEUE_THRESHOLD: z.coerce
      .number({ error: "must be a whole number from 1 to 10000" })
      .int("must be a whole number from 1 to 10000")
      .min(1, "must be a whole number from 1 to 10000")
      .max(10_000, "must be a whole number from 1 to 10000")
      .default(20),
    /**
     * How long a booking post waits in line on the server before the visitor is shown the
     * waiting page (milliseconds; 0 shows it at once). Short waits then cost no page and no
     * round trip, and a called place is taken up at once instead of at the page's next check.
     */
    REGISTRATION_QUEUE_HOLD_MS: z.coerce
      .number({ error: "must be a whole number of milliseconds from 0 to 20000" })
      .int("must be a whole number of milliseconds from 0 to 20000")
      .min(0, "must be a whole number of milliseconds from 0 to 20000")
      .max(20_000, "must be a whole number of milliseconds from 0 to 20000")
      .default(5_000),
    LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
      .default("info"),
    /** M-Pesa Paybill number printed on invoices (a labelled demo number when unset). */
    MPESA_PAYBILL: z
      .string()
      .regex(/^\d{5,7}$/, "must be a 5 to 7 digit Paybill number")
      .optional(),
    /**
     * M-Pesa online (issue 34, decision 0096): Daraja's base URL (the sandbox unless set), and the
     * app's consumer key, secret and Lipa na M-Pesa passkey. With all three set, STK Push and the
     * Paybill confirmations are on; without them the site gives offline instructions only.
     */
    MPESA_BASE_URL: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .default("https://sandbox.safaricom.co.ke"),
    MPESA_CONSUMER_KEY: z.string().trim().min(1).optional(),
    MPESA_CONSUMER_SECRET: z.string().trim().min(1).optional(),
    MPESA_PASSKEY: z.string().trim().min(1).optional(),
    /** The Transaction Status API's initiator, to confirm Paybill payments (both or neither). */
    MPESA_INITIATOR_NAME: z.string().trim().min(1).optional(),
    MPESA_SECURITY_CREDENTIAL: z.string().trim().min(1).optional(),
    /** Most shillings one STK push may ask for; more is paid in parts. */
    MPESA_MAX_AMOUNT: z.coerce.number().int().min(1).max(10_000_000).default(250_000),
    /** Optional allow-list of addresses (comma-separated) the Daraja callbacks may come from. */
    MPESA_CALLBACK_IPS: z
      .string()
      .default("")
      .transform((text) =>
        text
          .split(",")
          .map((a) => a.trim())
          .filter(Boolean),
      ),
    /**
     * Cards through Paystack (issue 31, decision 0099): the API base (live unless set; tests point
     * it at the stand-in) and the secret key, which also signs the webhooks. "Pay by card" is on
     * only with the key.
     */
    PAYSTACK_BASE_URL: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .default("https://api.paystack.co"),
    PAYSTACK_SECRET_KEY: z.string().trim().min(1).optional(),
    /**
     * PayPal (issue 31): the REST API base (the sandbox unless set; production
     * https://api-m.paypal.com), the app's client id and secret, and the webhook id PayPal's
     * verify-webhook-signature call needs. "Pay with PayPal" is on only with all three.
     */
    PAYPAL_BASE_URL: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .default("https://api-m.sandbox.paypal.com"),
    PAYPAL_CLIENT_ID: z.string().trim().min(1).optional(),
    PAYPAL_CLIENT_SECRET: z.string().trim().min(1).optional(),
    PAYPAL_WEBHOOK_ID: z.string().trim().min(1).optional(),
    /** Bank transfer details printed on invoices, one line per ';' (labelled demo when unset). */
    BANK_DETAILS: z.string().min(10).optional(),
    /** The seller's registered name on every document (labelled demo when unset). */
    SELLER_LEGAL_NAME: z.string().trim().min(2).max(200).optional(),
    /** The seller's KRA PIN on every document (a labelled demo PIN when unset). */
    SELLER_KRA_PIN: z
      .string()
      .trim()
      .regex(/^[A-Z]\d{9}[A-Z]$/, "must be a KRA PIN such as P051234567X")
      .optional(),
    /** VAT percentage included in prices ("16"); unset: documents say "Not VAT-registered". */
    VAT_RATE: z
      .string()
      .trim()
      .regex(
        /^(?!0+(\.0+)?$)\d{1,2}(\.\d{1,2})?$/,
        "must be a percentage above 0 and below 100, such as 16",
      )
      .optional(),
    /**
     * KES per unit of each foreign currency M-Pesa may pay in ("USD=129.50,EUR=141"); a currency
     * without a rate is paid by bank transfer only (decision 0083).
     */
    KES_RATES: z
      .string()
      .optional()
      .transform((text, ctx) => {
        try {
          return parseKesRates(text);
        } catch (error) {
          ctx.addIssue({ code: "custom", message: (error as Error).message });
          return z.NEVER;
        }
      }),
    /** How long an unpaid order holds what it bought before it expires. */
    ORDER_HOLD_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(72),
    /** Run scheduled jobs in this process (on unless turned off, e.g. for a web-only instance). */
    JOBS_WORKER: booleanFlag.default(true),
    /** How often the job worker looks for due jobs. */
    JOBS_POLL_MS: z.coerce.number().int().min(50).default(5000),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(7000),
    /** After SIGTERM, keep accepting (readiness failing) this long before closing the listener. */
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).default(1500),
  })
  .superRefine((env, ctx) => {
    const production = env.NODE_ENV === "production" && env.DATABASE_URL;
    if (production && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: "is required in production (set it to 32+ random characters)",
      });
    }
    const daraja = [env.MPESA_CONSUMER_KEY, env.MPESA_CONSUMER_SECRET, env.MPESA_PASSKEY];
    if (daraja.some(Boolean) && !daraja.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: [
          ["MPESA_CONSUMER_KEY", "MPESA_CONSUMER_SECRET", "MPESA_PASSKEY"][
            daraja.findIndex((v) => !v)
          ],
        ],
        message:
          "is required with the other M-Pesa online variables (MPESA_CONSUMER_KEY, MPESA_CONSUMER_SECRET, MPESA_PASSKEY: all three or none)",
      });
    }
    if (Boolean(env.MPESA_INITIATOR_NAME) !== Boolean(env.MPESA_SECURITY_CREDENTIAL)) {
      ctx.addIssue({
        code: "custom",
        path: [env.MPESA_INITIATOR_NAME ? "MPESA_SECURITY_CREDENTIAL" : "MPESA_INITIATOR_NAME"],
        message:
          "is required with the other (MPESA_INITIATOR_NAME and MPESA_SECURITY_CREDENTIAL: both or neither)",
      });
    }
    if (daraja.every(Boolean) && env.BASE_URL && DARAJA_FORBIDDEN_URL_WORDS.test(env.BASE_URL)) {
      ctx.addIssue({
        code: "custom",
        path: ["BASE_URL"],
        message:
          'contains a word Daraja refuses in callback URLs ("mpesa", "m-pesa", "safaricom", "exec", "cmd", "sql", "query"); M-Pesa online needs another address',
      });
    }
    const paypal = [env.PAYPAL_CLIENT_ID, env.PAYPAL_CLIENT_SECRET, env.PAYPAL_WEBHOOK_ID];
    if (paypal.some(Boolean) && !paypal.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: [
          ["PAYPAL_CLIENT_ID", "PAYPAL_CLIENT_SECRET", "PAYPAL_WEBHOOK_ID"][
            paypal.findIndex((v) => !v)
          ],
        ],
        message:
          "is required with the other PayPal variables (PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID: all three or none)",
      });
    }
    for (const address of env.MPESA_CALLBACK_IPS) {
      if (!isIP(address)) {
        ctx.addIssue({
          code: "custom",
          path: ["MPESA_CALLBACK_IPS"],
          message: `lists "${address}", which is not an IP address (comma-separated addresses)`,
        });
      }
    }
    if (env.S3_BUCKET && !(env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["S3_ACCESS_KEY_ID"],
        message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required when S3_BUCKET is set",
      });
    }
  });

export type Env = z.infer<typeof EnvSchema> & {
  BASE_URL: string;
  SESSION_SECRET: string;
};

export class EnvError extends Error {}

/** Parses the environment; throws an EnvError whose message is one line naming the variable. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ""),
  );
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue.path[0] ?? "environment");
    const value = cleaned[name];
    throw new EnvError(
      `Invalid configuration: ${name} ${issue.message}${value !== undefined && !/SECRET|PASSWORD|KEY|CREDENTIAL/.test(name) ? ` (got "${value}")` : ""}`,
    );
  }
  const env = result.data;
  return {
    ...env,
    BASE_URL: (env.BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
    SESSION_SECRET: env.SESSION_SECRET ?? embeddedSecret(env.DATA_DIR),
  };
}

/** Embedded mode: a secret generated on first start and kept in DATA_DIR. */
function embeddedSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      return readFileSync(file, "utf8").trim(); // another process wrote it first
    }
  }
}

let current: Env | undefined;

/** The validated environment of this process (parsed once, on first use). */
export function env(): Env {
  current ??= parseEnv();
  return current;
}

/** Tests and the server entry set the environment explicitly. */
export function setEnv(next: Env) {
  current = next;
}
