// What the invoice PDF prints under each line comes from the database: a ticket's event dates
// (through its fee), a membership term's dates once the term is dated (issue 29).
import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { memberships, membershipTerms, user } from "~/db/schema";
import { renderInvoicePdf } from "~/lib/pdf/order-documents.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { pdfText } from "../../../tests/helpers/pdf-text";
import { insertEvent, insertFee } from "../registrations/test-fixtures";
import { createOrder } from "./orders.server";
import { getOrderForSystem, invoiceDocument } from "./queries.server";

describe("invoice lines with their dates", () => {
  const database = useTestDatabase();
  const buyer = { id: randomUUID(), name: "Wanjirũ Mũthoni", email: "wanjiru.lines@example.test" };

  beforeAll(async () => {
    await database.db.insert(user).values({ ...buyer, role: "user" });
  });

  async function invoiceText(orderId: string) {
    const detail = await getOrderForSystem(orderId);
    if (!detail) throw new Error("order not found");
    return {
      document: invoiceDocument(detail),
      text: await pdfText(await renderInvoicePdf(invoiceDocument(detail))),
    };
  }

  it("prints a ticket's event dates in the event's time zone", async () => {
    const event = await insertEvent(database.db, {
      // Evenings in New York: already the next day in Nairobi.
      startDate: new Date("2027-03-03T23:30:00Z"),
      endDate: new Date("2027-03-05T23:30:00Z"),
      timeZone: "America/New_York",
    });
    const fee = await insertFee(database.db, event.id, { currency: "KES", amountMinor: 5_000_00 });
    const { order } = await createOrder({
      buyer,
      currency: "KES",
      holdMs: 3_600_000,
      lines: [
        {
          kind: "event_ticket",
          referenceId: fee.id,
          description: `${event.title} — Conference Only`,
          quantity: 1,
          unitAmountMinor: 5_000_00,
        },
        // A line whose reference is not a fee id (older data) prints without dates.
        {
          kind: "event_ticket",
          referenceId: "workshop",
          description: "Workshop",
          quantity: 1,
          unitAmountMinor: 1_000_00,
        },
      ],
    });
    const { document, text } = await invoiceText(order.id);
    const zones = Object.fromEntries(
      document.lines.map((line) => [line.description, line.event?.timeZone ?? null]),
    );
    expect(zones).toEqual({
      [`${event.title} — Conference Only`]: "America/New_York",
      Workshop: null,
    });
    expect(text).toContain("Event date: Mar 3, 2027 - Mar 5, 2027");
    expect(text.match(/Event date:/g)).toHaveLength(1);
  });

  it("prints a membership term's dates once dated, and says when they are set before", async () => {
    const termId = randomUUID();
    const { order } = await createOrder({
      buyer,
      currency: "KES",
      holdMs: 3_600_000,
      lines: [
        {
          kind: "membership_term",
          referenceId: termId,
          description: "Professional membership — 12 months",
          quantity: 1,
          unitAmountMinor: 15_000_00,
        },
      ],
    });
    const [membership] = await database.db
      .insert(memberships)
      .values({
        userId: buyer.id,
        plan: "professional",
        state: "awaiting_payment",
        memberName: buyer.name,
        cardCode: randomBytes(12).toString("base64url"),
      })
      .returning();
    await database.db.insert(membershipTerms).values({
      id: termId,
      membershipId: membership.id,
      kind: "join",
      plan: "professional",
      orderId: order.id,
    });
    expect((await invoiceText(order.id)).text).toContain("Term: dated when payment is received");

    await database.db
      .update(membershipTerms)
      .set({ startsAt: new Date("2027-02-01T08:00:00Z"), endsAt: new Date("2028-02-01T08:00:00Z") })
      .where(eq(membershipTerms.id, termId));
    const { text } = await invoiceText(order.id);
    expect(text).toContain("Term: Feb 1, 2027 - Feb 1, 2028");
    expect(text).not.toContain("Event date");
  });
});
