// The orders' refusals: the kit's domain error under the name the orders' routes catch. Its own
// module so the order and payment machines (orders.server.ts, payments.server.ts) share it.
import { DomainError } from "~/lib/lifecycle.server";

export class OrderError extends DomainError {}
