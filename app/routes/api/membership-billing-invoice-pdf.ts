import { renderInvoicePdf } from "~/lib/pdf/order-documents.server";
import { invoiceDocument } from "~/models/orders/queries.server";
import { requireBillingOrder } from "~/routes/public/membership/billing-link.server";
import type { Route } from "./+types/membership-billing-invoice-pdf";
import { pdfResponse } from "./order-pdf.server";

// A membership invoice PDF behind the billing contact's signed link (decision 0094).
export async function loader({ params }: Route.LoaderArgs) {
  const { detail } = await requireBillingOrder(params.token);
  return pdfResponse(
    await renderInvoicePdf(invoiceDocument(detail)),
    `${detail.invoice.number}.pdf`,
  );
}
