// The online providers' jobs (issue 31): refunds still on their way are asked about again, and a
// card payment a webhook named while Paystack was away is verified again.
// Registered by the wiring module (wiring.server.ts).
import { defineJob } from "~/models/jobs.server";
import { ORDER_JOBS } from "./job-kinds";
import { runPaystackVerify } from "./paystack.server";
import { runProviderRefundQuery } from "./provider-refunds.server";

export function registerProviderJobs() {
  // A provider away is retried by the jobs' own backoff.
  defineJob<{ requestId: string; round?: number }>(
    ORDER_JOBS.providerRefundQuery,
    runProviderRefundQuery,
    { maxAttempts: 12 },
  );
  defineJob<{ reference: string }>(ORDER_JOBS.paystackVerify, runPaystackVerify, {
    maxAttempts: 12,
  });
}
