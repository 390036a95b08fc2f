import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { user } from "~/db/schema";
import { CLIENT_IP_HEADER, getAuth } from "~/lib/auth.server";
import { createOrder, recordPayment } from "~/models/orders/orders.server";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { pdfText } from "../../../tests/helpers/pdf-text";
import { loader as invoiceLoader } from "../api/order-invoice-pdf";
import { loader as receiptLoader } from "../api/order-receipt-pdf";
import { loader as orderLoader } from "./order";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

type Who = "buyer" | "other" | "editor" | "admin";

describe("who can open an order, its invoice and its receipts", () => {
  const database = useTestDatabase();
  const cookies = {} as Record<Who, string>;
  const ids = {} as Record<Who, string>;
  let orderId = "";
  let receiptId = "";
  let invoiceNumber = "";

  beforeAll(async () => {
    let ip = 1;
    for (const who of ["buyer", "other", "editor", "admin"] as const) {
      const email = `${who}.orders@example.test`;
      const headers = new Headers({ [CLIENT_IP_HEADER]: `203.0.113.${ip++}` });
      await getAuth().api.signUpEmail({
        body: { email, password: "Orders-Test-Pass-1", name: `Orders ${who}` },
        headers,
      });
      const role = who === "editor" || who === "admin" ? who : "user";
      const [row] = await database.db
        .update(user)
        .set({ role, emailVerified: true })
        .where(sql`${user.email} = ${email}`)
        .returning({ id: user.id });
      ids[who] = row.id;
      const signedIn = await getAuth().api.signInEmail({
        body: { email, password: "Orders-Test-Pass-1" },
        headers,
        returnHeaders: true,
      });
      cookies[who] = signedIn.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      // Staff open other people's orders only with two-factor enrolled (REQUIRE_*_MFA).
      if (role !== "user") {
        await database.db.update(user).set({ twoFactorEnabled: true }).where(eq(user.id, row.id));
      }
    }
    const created = await createOrder({
      buyer: { id: ids.buyer, name: "Orders buyer", email: "buyer.orders@example.test" },
      currency: "USD",
      holdMs: 3_600_000,
      lines: [
        {
          kind: "event_ticket",
          referenceId: "fee",
          description: "AI Ethics Forum — Early Bird",
          quantity: 1,
          unitAmountMinor: 150_00,
        },
      ],
    });
    orderId = created.order.id;
    invoiceNumber = created.invoiceNumber;
    const paid = await recordPayment(
      {
        method: "bank_transfer",
        reference: "FT2401ABC",
        amountMinor: 50_00,
        currency: "USD",
        paidAt: new Date(),
        invoiceNumber,
      },
      { id: ids.admin, role: "admin" },
    );
    if (paid.outcome !== "matched") throw new Error(paid.outcome);
    const [receipt] = await database.db
      .execute<{ id: string }>(sql`select id from receipts where payment_id = ${paid.paymentId}`)
      .then((r) => (r as unknown as { rows: { id: string }[] }).rows);
    receiptId = receipt.id;
  });

  async function answer(
    loader: (args: never) => unknown,
    path: string,
    params: Record<string, string>,
    who: Who | "anonymous",
  ) {
    const headers = new Headers();
    if (who !== "anonymous") headers.set("cookie", cookies[who]);
    const request = new Request(`http://localhost:3000${path}`, { headers });
    try {
      const result = await loader({ request, params, context: {} } as never);
      return result instanceof Response ? result : { status: 200, body: result };
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      const init = (thrown as { init?: ResponseInit }).init;
      if (init) return { status: init.status ?? 500, headers: new Headers(init.headers) };
      throw thrown;
    }
  }

  it("shows the order to its buyer and to staff, with what is due", async () => {
    for (const who of ["buyer", "editor", "admin"] as const) {
      const result = (await answer(
        orderLoader as never,
        `/orders/${orderId}`,
        { id: orderId },
        who,
      )) as {
        status: number;
        body: {
          invoiceNumber: string;
          due: string;
          paid: string;
          instructions: { title: string }[];
        };
      };
      expect(result.status, who).toBe(200);
      expect(result.body).toMatchObject({ invoiceNumber, paid: "USD 50.00", due: "USD 100.00" });
      // A USD order and no KES rate set: M-Pesa (shillings) cannot pay it, the bank can.
      expect(result.body.instructions.map((i) => i.title)).toEqual(["Bank transfer"]);
    }
  });

  it("sends staff who have not enrolled two-factor to enrol before showing someone's order", async () => {
    await database.db
      .update(user)
      .set({ twoFactorEnabled: false })
      .where(sql`${user.id} = ${ids.editor}`);
    try {
      const page = await answer(
        orderLoader as never,
        `/orders/${orderId}`,
        { id: orderId },
        "editor",
      );
      const invoice = await answer(invoiceLoader as never, "/x", { id: orderId }, "editor");
      expect([page.status, invoice.status]).toEqual([302, 302]);
      expect((page as Response).headers.get("location")).toBe("/profile#two-factor");
    } finally {
      await database.db
        .update(user)
        .set({ twoFactorEnabled: true })
        .where(sql`${user.id} = ${ids.editor}`);
    }
  });

  it("answers 404 to another signed-in person, for the page and both PDFs", async () => {
    const page = await answer(orderLoader as never, `/orders/${orderId}`, { id: orderId }, "other");
    const invoice = await answer(invoiceLoader as never, "/x", { id: orderId }, "other");
    const receipt = await answer(receiptLoader as never, "/x", { id: orderId, receiptId }, "other");
    expect([page.status, invoice.status, receipt.status]).toEqual([404, 404, 404]);
  });

  it("sends an anonymous visitor to sign in and back", async () => {
    const page = (await answer(
      orderLoader as never,
      `/orders/${orderId}`,
      { id: orderId },
      "anonymous",
    )) as Response;
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(
      `/auth?redirectTo=${encodeURIComponent(`/orders/${orderId}`)}`,
    );
    const pdf = (await answer(
      invoiceLoader as never,
      `/orders/${orderId}/invoice.pdf`,
      { id: orderId },
      "anonymous",
    )) as Response;
    expect(pdf.status).toBe(302);
  });

  it("serves the buyer the invoice and receipt PDFs as private downloads", async () => {
    const invoice = (await answer(
      invoiceLoader as never,
      "/x",
      { id: orderId },
      "buyer",
    )) as Response;
    expect(invoice.headers.get("content-type")).toBe("application/pdf");
    expect(invoice.headers.get("cache-control")).toBe("private, no-store");
    const invoiceText = await pdfText(Buffer.from(await invoice.arrayBuffer()));
    expect(invoiceText).toContain(`Invoice ${invoiceNumber}`);
    expect(invoiceText).toContain("Balance due: USD 100.00");
    const receipt = (await answer(
      receiptLoader as never,
      "/x",
      { id: orderId, receiptId },
      "buyer",
    )) as Response;
    const receiptText = await pdfText(Buffer.from(await receipt.arrayBuffer()));
    expect(receiptText).toContain("Payment reference: FT2401ABC");
    expect(receiptText).toContain("Payment method: Bank transfer");
  });

  it("answers 404 for a receipt of another order and for a made-up order id", async () => {
    const wrongReceipt = await answer(
      receiptLoader as never,
      "/x",
      { id: orderId, receiptId: orderId },
      "admin",
    );
    const madeUp = await answer(
      orderLoader as never,
      "/x",
      { id: "00000000-0000-4000-8000-000000000000" },
      "admin",
    );
    expect([wrongReceipt.status, madeUp.status]).toEqual([404, 404]);
  });
});
