import { describe, expect, it } from "vitest";
import { orderBalance } from "./balance";

describe("what an order still asks for and the credit it holds", () => {
  const order = { totalMinor: 10_000, paidMinor: 0, refundedMinor: 0 };

  it("shows part payments as balance due and over-payments as credit", () => {
    expect(orderBalance({ ...order, state: "awaiting_payment", paidMinor: 4_000 })).toEqual({
      heldMinor: 4_000,
      dueMinor: 6_000,
      creditMinor: 0,
    });
    expect(orderBalance({ ...order, state: "paid", paidMinor: 12_500 })).toMatchObject({
      dueMinor: 0,
      creditMinor: 2_500,
    });
  });

  it("holds everything paid on a closed order as credit, less what was refunded", () => {
    for (const state of ["expired", "cancelled"] as const) {
      expect(orderBalance({ ...order, state, paidMinor: 10_000 })).toMatchObject({
        dueMinor: 0,
        creditMinor: 10_000,
      });
      expect(
        orderBalance({ ...order, state, paidMinor: 10_000, refundedMinor: 4_000 }).creditMinor,
      ).toBe(6_000);
    }
  });

  it("keeps a partly refunded paid order free of credit, and a refunded one empty", () => {
    expect(
      orderBalance({ ...order, state: "paid", paidMinor: 10_000, refundedMinor: 3_000 }),
    ).toEqual({ heldMinor: 7_000, dueMinor: 0, creditMinor: 0 });
    expect(
      orderBalance({ ...order, state: "refunded", paidMinor: 10_000, refundedMinor: 10_000 }),
    ).toEqual({ heldMinor: 0, dueMinor: 0, creditMinor: 0 });
  });
});
