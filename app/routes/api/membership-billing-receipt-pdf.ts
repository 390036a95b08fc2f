import { renderReceiptPdf } from "~/lib/pdf/order-documents.server";
import { receiptDocument } from "~/models/orders/queries.server";
import { requireBillingOrder } from "~/routes/public/membership/billing-link.server";
import type { Route } from "./+types/membership-billing-receipt-pdf";
import { pdfResponse } from "./order-pdf.server";

// A receipt PDF of a membership invoice behind the billing contact's signed link (decision 0094).
export async function loader({ params }: Route.LoaderArgs) {
  const { detail } = await requireBillingOrder(params.token);
  const receipt = receiptDocument(detail, params.receiptId);
  if (!receipt) throw new Response("Not Found", { status: 404 });
  return pdfResponse(await renderReceiptPdf(receipt), `${receipt.receiptNumber}.pdf`);
}
