import { renderInvoicePdf } from "~/lib/pdf/order-documents.server";
import { invoiceDocument } from "~/models/orders/queries.server";
import { requireVisibleOrder } from "~/routes/account/order-access.server";
import type { Route } from "./+types/order-invoice-pdf";
import { pdfResponse } from "./order-pdf.server";

// The invoice PDF: for the buyer and staff only (anyone else: 404).
export async function loader({ request, params }: Route.LoaderArgs) {
  const { detail } = await requireVisibleOrder(request, params.id);
  return pdfResponse(
    await renderInvoicePdf(invoiceDocument(detail)),
    `${detail.invoice.number}.pdf`,
  );
}
