// The state of an order's latest M-Pesa push, for its page to follow by itself (issue 34): the
// buyer and staff only, as the order page; never cached.

import { latestPush } from "~/models/orders/mpesa.server";
import { requireVisibleOrder } from "~/routes/account/order-access.server";
import type { Route } from "./+types/order-mpesa-status";

export async function loader({ request, params }: Route.LoaderArgs) {
  const { detail } = await requireVisibleOrder(request, params.id);
  const push = await latestPush(detail.order.id);
  return Response.json(
    { push, state: detail.order.state, dueMinor: detail.dueMinor },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}
