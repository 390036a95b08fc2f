// Try M-Pesa locally: `npx tsx scripts/daraja-standin/cli.ts` (see README, "Try M-Pesa locally").
// Prints the MPESA_* variables to start the site with; pushes complete by themselves after a few
// seconds, their outcome chosen by the phone's last digits (standin.ts, autoCompleteMs).
import { startDarajaStandin } from "./standin";

if (process.env.NODE_ENV === "production") {
  console.error("The Daraja stand-in is a development tool; it does not run in production.");
  process.exit(1);
}
const port = Number(process.env.STANDIN_PORT ?? 4010);
const standin = await startDarajaStandin({
  port,
  autoCompleteMs: Number(process.env.STANDIN_DELAY_MS ?? 4000),
  log: (line) => console.log(line),
});
console.log(`Daraja stand-in on ${standin.url}. Start the site with:
  MPESA_BASE_URL=${standin.url} MPESA_CONSUMER_KEY=${standin.config.consumerKey} \\
  MPESA_CONSUMER_SECRET=${standin.config.consumerSecret} MPESA_PASSKEY=${standin.config.passkey} \\
  MPESA_INITIATOR_NAME=${standin.config.initiatorName} MPESA_SECURITY_CREDENTIAL=${standin.config.securityCredential} \\
  npm run dev
Phones ending 1032 cancel, 1037 time out, 0001 lack funds, 0404 lose the callback, 0202 get it twice.
Pay the Paybill: curl -X POST ${standin.url}/__paybill -d '{"amount":100,"msisdn":"254708374149","billRefNumber":"<account>"}'`);
process.on("SIGINT", () => void standin.close().then(() => process.exit(0)));
