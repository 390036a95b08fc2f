import { describe, expect, it } from "vitest";
import { contentChanged } from "~/lib/content-version.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { contentMemo } from "./content-memo.server";

describe("contentMemo", () => {
  useTestDatabase();

  /** A memo over a counter: each load answers the next number. */
  function counting(options?: Parameters<typeof contentMemo<number>>[0]) {
    let loads = 0;
    const memo = contentMemo<number>(options);
    const load = async () => ++loads;
    return { memo, load };
  }

  it("answers from memory until the content changes", async () => {
    const { memo, load } = counting();
    expect(await memo("k", load)).toBe(1);
    expect(await memo("k", load)).toBe(1);
    contentChanged();
    expect(await memo("k", load)).toBe(2);
  });

  it("reads again after ttlMs, or from the moment `until` names", async () => {
    const { memo, load } = counting({ ttlMs: 1_000 });
    const t = 1_000_000;
    expect(await memo("k", load, { now: t })).toBe(1);
    expect(await memo("k", load, { now: t + 999 })).toBe(1);
    expect(await memo("k", load, { now: t + 1_000 })).toBe(2);
    // The value says it stops being true at t + 1_500 (an event that ends then).
    const until = () => t + 1_500;
    expect(await memo("u", load, { now: t + 1_000, until })).toBe(3);
    expect(await memo("u", load, { now: t + 1_499, until })).toBe(3);
    expect(await memo("u", load, { now: t + 1_500, until })).toBe(4);
  });

  it("keeps at most `max` keys, dropping the least recently read", async () => {
    const { memo, load } = counting({ max: 2 });
    expect(await memo("a", load)).toBe(1);
    expect(await memo("b", load)).toBe(2);
    expect(await memo("a", load)).toBe(1); // a is now the most recent
    expect(await memo("c", load)).toBe(3); // b goes
    expect(await memo("a", load)).toBe(1);
    expect(await memo("b", load)).toBe(4);
  });

  it("keeps neither a failed read nor one `keep` refuses", async () => {
    const memo = contentMemo<string | null>();
    await expect(memo("k", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await memo("k", async () => "up")).toBe("up");
    const keep = (value: string | null) => value !== null;
    expect(await memo("missing", async () => null, { keep })).toBeNull();
    expect(await memo("missing", async () => "created since", { keep })).toBe("created since");
  });
});
