import { afterEach, describe, expect, it, vi } from "vitest";
import { RenderGate } from "./render-gate";

afterEach(() => {
  vi.useRealTimers();
});

describe("render gate", () => {
  it("lets `limit` renders in at once and the rest in first come, first served", async () => {
    const gate = new RenderGate(2, 60_000);
    const order: string[] = [];
    const a = await gate.enter();
    const b = await gate.enter();
    const waiting = ["c", "d", "e"].map((name) =>
      gate.enter().then((leave) => {
        order.push(name);
        return leave;
      }),
    );
    await Promise.resolve();
    expect(gate.load).toEqual({ active: 2, waiting: 3 });
    expect(order).toEqual([]);

    a();
    const c = await waiting[0];
    expect(order).toEqual(["c"]);
    // The slot went to the one waiting longest, never to a newcomer: still two inside.
    expect(gate.load).toEqual({ active: 2, waiting: 2 });

    b();
    c();
    const [, d, e] = await Promise.all(waiting);
    expect(order).toEqual(["c", "d", "e"]);
    d();
    e();
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });

  it("counts a slot given back twice (finished, then closed) only once", async () => {
    const gate = new RenderGate(1, 60_000);
    const first = await gate.enter();
    const second = gate.enter();
    first();
    first();
    const leave = await second;
    expect(gate.load).toEqual({ active: 1, waiting: 0 });
    leave();
    leave();
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
    // Still exactly one place: the double release did not open a second one.
    const again = await gate.enter();
    const blocked = vi.fn();
    void gate.enter().then(blocked);
    await Promise.resolve();
    expect(blocked).not.toHaveBeenCalled();
    again();
  });

  it("takes a slot back from a render stuck longer than the hold limit, so the site never jams", async () => {
    vi.useFakeTimers();
    const gate = new RenderGate(1, 1000);
    const stuck = await gate.enter();
    let next: (() => void) | undefined;
    void gate.enter().then((leave) => {
      next = leave;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(next).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(next).toBeTypeOf("function");
    // The stuck render finishing later does not free a slot it no longer holds.
    stuck();
    expect(gate.load).toEqual({ active: 1, waiting: 0 });
    next?.();
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });
});
