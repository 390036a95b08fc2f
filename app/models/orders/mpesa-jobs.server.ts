// The M-Pesa online jobs (issue 34): STK push queries, Paybill Transaction Status queries and the
// C2B URL registration. Registered by the wiring module (wiring.server.ts).
import { defineJob } from "~/models/jobs.server";
import { ORDER_JOBS } from "./job-kinds";
import { runPushQuery } from "./mpesa.server";
import { registerPaybillUrls, runStatusQuery } from "./mpesa-paybill.server";

export function registerMpesaJobs() {
  // A query that fails (Daraja away) is retried by the jobs' own backoff; many attempts, as a
  // paid push must end recorded.
  defineJob<{ pushId: string; round?: number }>(ORDER_JOBS.mpesaPushQuery, runPushQuery, {
    maxAttempts: 12,
  });
  defineJob<{ confirmationId: string; round?: number }>(
    ORDER_JOBS.mpesaStatusQuery,
    runStatusQuery,
    { maxAttempts: 12 },
  );
  defineJob(ORDER_JOBS.mpesaRegisterUrls, async () => {
    await registerPaybillUrls({ system: "mpesa-start-up" });
  });
}
