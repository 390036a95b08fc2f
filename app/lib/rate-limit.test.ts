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
    const limit = { max: 1, windowMs: 60_000 };
    const start = Date.parse("2027-03-10T09:00:00Z");
    expect((await hitRateLimit("test:window", limit, start)).allowed).toBe(true);
    const refused = await hitRateLimit("test:window", limit, start + 59_000);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    // A minute later, a fresh window: counted from 1 again, and it lasts its whole minute.
    expect(await hitRateLimit("test:window", limit, start + 60_001)).toMatchObject({
      allowed: true,
      count: 1,
    });
    expect((await hitRateLimit("test:window", limit, start + 61_000)).allowed).toBe(false);
  });
});
