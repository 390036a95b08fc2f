import { data } from "react-router";
import { renderInvoicePdf } from "~/lib/pdf/order-documents.server";
import { getRenewalView } from "~/models/membership/queries.server";
import { verifyRenewalToken } from "~/models/membership/renewal-link.server";
import { getOrderForSystem, invoiceDocument } from "~/models/orders/queries.server";
import type { Route } from "./+types/membership-renewal-invoice-pdf";
import { pdfResponse } from "./order-pdf.server";

// The renewal invoice PDF behind a one-click renewal link (the signed token is the credential).
export async function loader({ params }: Route.LoaderArgs) {
  const check = verifyRenewalToken(params.token);
  if (!check.ok) throw data({ message: "This renewal link is not valid." }, { status: 404 });
  const view = await getRenewalView(check.membershipId);
  const detail = view?.open ? await getOrderForSystem(view.open.orderId) : null;
  if (!detail) throw data({ message: "No renewal invoice is open." }, { status: 404 });
  return pdfResponse(
    await renderInvoicePdf(invoiceDocument(detail)),
    `${detail.invoice.number}.pdf`,
  );
}
