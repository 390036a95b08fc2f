import { describe, expect, it } from "vitest";
import { unseenItems } from "./append-page";

const item = (id: string) => ({ id, title: `Event ${id}` });

describe("unseenItems", () => {
  it("leaves out an item the shown pages already hold (the list moved on between fetches)", () => {
    const shown = ["a", "b", "c"].map(item);
    // One event was published since: the last card shown comes back as the next page's first.
    const nextPage = ["c", "d", "e"].map(item);
    expect(unseenItems(shown, nextPage).map((e) => e.id)).toEqual(["d", "e"]);
  });

  it("keeps a page of new items whole and in its order", () => {
    expect(unseenItems(["a", "b"].map(item), ["d", "c"].map(item)).map((e) => e.id)).toEqual([
      "d",
      "c",
    ]);
  });
});
