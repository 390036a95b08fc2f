// The renewal page's M-Pesa push, for the page to follow by itself (issue 34); the signed renewal
// link is the credential, as for the page and its invoice PDF.
import { data } from "react-router";
import { getRenewalView } from "~/models/membership/queries.server";
import { verifyRenewalToken } from "~/models/membership/renewal-link.server";
import { latestPush } from "~/models/orders/mpesa.server";
import type { Route } from "./+types/membership-renewal-mpesa-status";

export async function loader({ params }: Route.LoaderArgs) {
  const check = verifyRenewalToken(params.token);
  if (!check.ok) throw data("Not Found", { status: 404 });
  const view = await getRenewalView(check.membershipId);
  const push = view?.open ? await latestPush(view.open.orderId) : null;
  return Response.json(
    { push },
    { headers: { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" } },
  );
}
