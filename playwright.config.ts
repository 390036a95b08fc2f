import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// E2E runs the production build on a fresh embedded database with demo content.
const port = Number(process.env.E2E_PORT ?? 4310);
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? port + 1);
// The Daraja stand-in (issue 34): the server runs with M-Pesa online against it, as README's
// "Try M-Pesa locally" does; pushes complete by themselves, the phone's last digits choose how.
const darajaPort = Number(process.env.E2E_DARAJA_PORT ?? port + 2);
// The PayPal stand-in (issue 31): PayPal is on against it; its approval page sends the buyer back
// and it posts the signed PAYMENT.CAPTURE.COMPLETED webhook to the site after each capture.
const paypalPort = Number(process.env.E2E_PAYPAL_PORT ?? port + 4);
// The Paystack stand-in (issue 31): cards are on against it; its checkout page sends the buyer back
// and it posts the signed charge.success webhook to the site after each payment.
const paystackPort = Number(process.env.E2E_PAYSTACK_PORT ?? port + 3);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "kongamano-e2e-"));
process.env.E2E_DATA_DIR = dataDir; // workers re-evaluate this file: keep one directory per run
process.env.E2E_SMTP_PORT = String(smtpPort);
export const baseURL = `http://localhost:${port}`;
/** The server's log, read by the global teardown: a run whose server answered a 5xx fails. */
export const serverLog = path.join(dataDir, "server.log");

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Spec files run side by side, each test with data of its own (decision 0079); the tests of
  // one file run in order unless the file says otherwise (the route sweep's roles do).
  fullyParallel: false,
  // Three on two cores: tests also wait (mail, job polls, payment stand-ins), and a third worker
  // fills those waits; two left the cores 12 % idle (decision 0128).
  workers: Number(process.env.E2E_WORKERS ?? 3),
  // One retry in CI: a test that needs it is reported as flaky, never silently passed.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  globalSetup: "./tests/e2e/global-setup.ts",
  use: {
    baseURL,
    // Recording a trace costs the run a fifth to a quarter of its time (decisions 0121, 0126): a
    // test is traced on its retry only (CI retries once; the failure's trace is the retry's).
    // Without CI there is no retry: `--trace on` (or `--retries 1`) records a failing spec.
    trace: "on-first-retry",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        // Chromium opens the address bar's suggestion popup as a hidden web page of its own in
        // every new window, headless too: a renderer per browser context that costs about
        // 0.4 CPU-s and the browser process 0.1 more (decision 0124). Chromium adds this list to
        // Playwright's own --disable-features.
        "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
      ],
    },
  },
  webServer: [
    {
      // Started first: the site registers its Paybill URLs with it at start-up. The stand-ins
      // run on node with tsx's loader, not `npx tsx`: npx's own start cost 0.3 s each.
      command: "exec node --import tsx scripts/daraja-standin/cli.ts",
      url: `http://127.0.0.1:${darajaPort}/oauth/v1/generate`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { NODE_ENV: "test", STANDIN_PORT: String(darajaPort), STANDIN_DELAY_MS: "1000" },
    },
    {
      command: "exec node --import tsx scripts/paypal-standin/cli.ts",
      url: `http://127.0.0.1:${paypalPort}/v1/oauth2/token`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        NODE_ENV: "test",
        STANDIN_PORT: String(paypalPort),
        STANDIN_DELAY_MS: "500",
        STANDIN_WEBHOOK_URL: `${baseURL}/api/payments/hooks/paypal/webhook`,
      },
    },
    {
      command: "exec node --import tsx scripts/paystack-standin/cli.ts",
      // Any answer will do (401 without the key): the stand-in is listening.
      url: `http://127.0.0.1:${paystackPort}/transaction/verify/ready`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        NODE_ENV: "test",
        STANDIN_PORT: String(paystackPort),
        STANDIN_WEBHOOK_URL: `${baseURL}/api/payments/hooks/paystack/webhook`,
      },
    },
    {
      command: `exec node server/index.js >> ${JSON.stringify(serverLog)}`,
      url: `${baseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore", // JSON lines in serverLog
      stderr: "pipe",
      env: {
        NODE_ENV: "production",
        PORT: String(port),
        BASE_URL: baseURL,
        DATA_DIR: dataDir,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        CONTACT_TO: "staff@kongamano.test",
        // Tests reach the server through loopback and name their client with X-Forwarded-For,
        // so rate limits per client can be exercised without tests throttling each other.
        TRUST_PROXY: "loopback",
        LOG_LEVEL: "warn",
        // Mail sent by a job (tickets, invoices, waitlist offers) goes out within half a second
        // instead of the next 5-second poll: journeys wait for it (decision 0088).
        JOBS_POLL_MS: "500",
        // The demo admin and editor sign in without an authenticator here; the default (staff
        // must enrol two-factor first) is tested against the production build in
        // auth-endpoints.test.ts.
        REQUIRE_ADMIN_MFA: "false",
        REQUIRE_EDITOR_MFA: "false",
        // The order journey pays a demo invoice in any currency by M-Pesa: foreign-currency invoices
        // offer M-Pesa only with a KES rate (decision 0083).
        KES_RATES: "USD=129.50,EUR=141,GBP=163.20",
        // M-Pesa online against the stand-in (its default credentials; cli.ts prints them).
        MPESA_BASE_URL: `http://127.0.0.1:${darajaPort}`,
        MPESA_CONSUMER_KEY: "standin-key",
        MPESA_CONSUMER_SECRET: "standin-secret",
        MPESA_PASSKEY: "standin-passkey",
        MPESA_INITIATOR_NAME: "standin-initiator",
        MPESA_SECURITY_CREDENTIAL: "standin-credential",
        // PayPal against its stand-in (its default credentials; cli.ts prints them).
        PAYPAL_BASE_URL: `http://127.0.0.1:${paypalPort}`,
        PAYPAL_CLIENT_ID: "standin-client-id",
        PAYPAL_CLIENT_SECRET: "standin-client-secret",
        PAYPAL_WEBHOOK_ID: "STANDINWEBHOOK1",
        // Cards against the Paystack stand-in (its default key; cli.ts prints it).
        PAYSTACK_BASE_URL: `http://127.0.0.1:${paystackPort}`,
        PAYSTACK_SECRET_KEY: "sk_test_standin",
        ...(process.env.BUILD_DIR ? { BUILD_DIR: process.env.BUILD_DIR } : {}),
      },
    },
  ],
});
