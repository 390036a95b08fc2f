import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../../tests/helpers/db";
import { hitRateLimit } from "./rate-limit.server";

describe("rate limit (database counters)", () => {
  useTestDatabase();

  it("allows max attempts per window, then refuses with a retry time", async () => {
    const limit = { max: 3, windowMs: 10_000 };
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hitRateLimit("test:client-a", limit));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3].retryAfterSeconds).toBeGreaterThan(0);
    expect(results[3].retryAfterSeconds).toBeLessThanOrEqual(10);
    // Another key has its own counter.
    expect((await hitRateLimit("test:client-b", limit)).allowed).toBe(true);
  });

  it("starts a new window once the old one has passed", async () => {
    const limit = { max: 1, windowMs: 200 };
    expect((await hitRateLimit("test:window", limit)).allowed).toBe(true);
    expect((await hitRateLimit("test:window", limit)).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 250));
    expect((await hitRateLimit("test:window", limit)).allowed).toBe(true);
  });
});
