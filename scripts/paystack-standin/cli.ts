// Try cards locally: `npx tsx scripts/paystack-standin/cli.ts` (see README, "Try cards locally").
// Prints the PAYSTACK_* variables to start the site with. Its checkout page pays with the test
// card 4084 0840 8408 4081 and declines 4084 0800 0000 5408; the signed webhook goes to
// STANDIN_WEBHOOK_URL (default the site's on port 3000).
import { startPaystackStandin } from "./standin";

if (process.env.NODE_ENV === "production") {
  console.error("The Paystack stand-in is a development tool; it does not run in production.");
  process.exit(1);
}
const port = Number(process.env.STANDIN_PORT ?? 4020);
const standin = await startPaystackStandin({
  port,
  webhookUrl:
    process.env.STANDIN_WEBHOOK_URL ?? "http://localhost:3000/api/payments/hooks/paystack/webhook",
  refundPendingMs: Number(process.env.STANDIN_REFUND_PENDING_MS ?? 0) || undefined,
  log: (line) => console.log(line),
});
console.log(`Paystack stand-in on ${standin.url}. Start the site with:
  PAYSTACK_BASE_URL=${standin.url} PAYSTACK_SECRET_KEY=${standin.secretKey} npm run dev`);
process.on("SIGINT", () => void standin.close().then(() => process.exit(0)));
process.on("SIGTERM", () => void standin.close().then(() => process.exit(0)));
