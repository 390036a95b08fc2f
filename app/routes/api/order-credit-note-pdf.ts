import { renderCreditNotePdf } from "~/lib/pdf/order-documents.server";
import { creditNoteDocument } from "~/models/orders/queries.server";
import { requireVisibleOrder } from "~/routes/account/order-access.server";
import type { Route } from "./+types/order-credit-note-pdf";
import { pdfResponse } from "./order-pdf.server";

// A credit note PDF of the order: same rule as its invoice, for the buyer and staff who may see
// the order (anyone else: 404).
export async function loader({ request, params }: Route.LoaderArgs) {
  const { detail } = await requireVisibleOrder(request, params.id);
  const note = creditNoteDocument(detail, params.refundId);
  if (!note) throw new Response("Not Found", { status: 404 });
  return pdfResponse(await renderCreditNotePdf(note), `${note.creditNoteNumber}.pdf`);
}
