import { data } from "react-router";
import { requireRole, requireUser } from "~/lib/permissions.server";
import { getOrderForViewer } from "~/models/orders/queries.server";

/** The order for its buyer or staff; anyone else gets the same 404 as a made-up id. */
export async function requireVisibleOrder(request: Request, orderId: string) {
  const viewer = await requireUser(request);
  const detail = await getOrderForViewer(orderId, viewer);
  if (!detail) throw data({ message: "Order not found" }, { status: 404 });
  // Someone else's order is a back-office view: the staff gate (two-factor first) applies.
  if (detail.order.buyerId !== viewer.id) await requireRole(request, "editor");
  return { viewer, detail };
}
