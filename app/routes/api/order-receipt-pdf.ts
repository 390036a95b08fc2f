import { renderReceiptPdf } from "~/lib/pdf/order-documents.server";
import { receiptDocument } from "~/models/orders/queries.server";
import { requireVisibleOrder } from "~/routes/account/order-access.server";
import type { Route } from "./+types/order-receipt-pdf";
import { pdfResponse } from "./order-pdf.server";

// A receipt PDF of the order: for the buyer and staff only (anyone else: 404).
export async function loader({ request, params }: Route.LoaderArgs) {
  const { detail } = await requireVisibleOrder(request, params.id);
  const receipt = receiptDocument(detail, params.receiptId);
  if (!receipt) throw new Response("Not Found", { status: 404 });
  return pdfResponse(await renderReceiptPdf(receipt), `${receipt.receiptNumber}.pdf`);
}
