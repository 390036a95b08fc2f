import { requireRole } from "~/lib/permissions.server";
import { getStorage } from "~/lib/storage.server";
import { getPaymentProofKey } from "~/models/orders/queries.server";
import type { Route } from "./+types/payment-proof";

// A payment's proof file, for the staff who may see the payment (editors: event orders only).
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireRole(request, "editor");
  const key = await getPaymentProofKey(params.paymentId, user.role);
  const object = key ? await getStorage().get(key) : null;
  if (!object) throw new Response("Not Found", { status: 404 });
  return new Response(object.body, {
    headers: {
      "Content-Type": object.contentType,
      "Content-Length": String(object.size),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": "attachment",
    },
  });
}
