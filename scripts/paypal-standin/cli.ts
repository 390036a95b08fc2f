// Try PayPal locally: `npx tsx scripts/paypal-standin/cli.ts` (see README, "Try PayPal locally").
// Prints the PAYPAL_* variables to start the site with. "Pay with PayPal" then opens the
// stand-in's approval page; after a capture it sends the signed PAYMENT.CAPTURE.COMPLETED webhook
// to the site (STANDIN_WEBHOOK_URL, default BASE_URL's /api/payments/hooks/paypal/webhook).
import { startPaypalStandin } from "./standin";

if (process.env.NODE_ENV === "production") {
  console.error("The PayPal stand-in is a development tool; it does not run in production.");
  process.exit(1);
}
const port = Number(process.env.STANDIN_PORT ?? 4020);
const site = (process.env.BASE_URL ?? "http://localhost:3000").replace(/\/$/, "");
const standin = await startPaypalStandin({
  port,
  webhookUrl: process.env.STANDIN_WEBHOOK_URL ?? `${site}/api/payments/hooks/paypal/webhook`,
  webhookDelayMs: Number(process.env.STANDIN_DELAY_MS ?? 1000),
  log: (line) => console.log(line),
});
console.log(`PayPal stand-in on ${standin.url}. Start the site with:
  PAYPAL_BASE_URL=${standin.url} PAYPAL_CLIENT_ID=${standin.config.clientId} \\
  PAYPAL_CLIENT_SECRET=${standin.config.clientSecret} PAYPAL_WEBHOOK_ID=${standin.config.webhookId} \\
  npm run dev`);
process.on("SIGINT", () => void standin.close().then(() => process.exit(0)));
