import { describe, expect, it } from "vitest";
import { capitalise, eventsFilterHref, eventsSearchHref } from "./mega-menu";

describe("mega menu links", () => {
  it("trims the search term and ignores blank input", () => {
    expect(eventsSearchHref("  data governance ")).toBe("/events?search=data%20governance");
    expect(eventsSearchHref("a&b=c")).toBe("/events?search=a%26b%3Dc");
    expect(eventsSearchHref("")).toBeNull();
    expect(eventsSearchHref(" \t\n ")).toBeNull();
  });

  it("URL-encodes type and category names", () => {
    expect(eventsFilterHref("type", "trade show")).toBe("/events?type=trade%20show");
    expect(eventsFilterHref("category", "Cybersecurity & Privacy")).toBe(
      "/events?category=Cybersecurity%20%26%20Privacy",
    );
  });

  it("capitalises type names", () => {
    expect(capitalise("conference")).toBe("Conference");
    expect(capitalise("trade show")).toBe("Trade Show");
    expect(capitalise("Data Governance")).toBe("Data Governance");
  });
});
