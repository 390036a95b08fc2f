import { describe, expect, it } from "vitest";
import {
  cacheHeadersFor,
  contactHref,
  PRIVATE_CACHE_CONTROL,
  PUBLIC_CACHE_CONTROL,
  sitePageHeaders,
  telHref,
} from "./site-content";

describe("page caching headers", () => {
  it("lets shared caches keep anonymous pages only", () => {
    expect(new Headers(cacheHeadersFor(false)).get("Cache-Control")).toBe(PUBLIC_CACHE_CONTROL);
    expect(new Headers(cacheHeadersFor(true)).get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
  });

  it("turns private when the response sets a cookie, and lets an action's headers win", () => {
    const loaderHeaders = new Headers(cacheHeadersFor(false));
    const plain = sitePageHeaders({ parentHeaders: new Headers(), loaderHeaders });
    expect(plain.get("Cache-Control")).toBe(PUBLIC_CACHE_CONTROL);
    expect(plain.get("Vary")).toBe("Cookie");

    const parentHeaders = new Headers({ "Set-Cookie": "kongamano_toast=; Max-Age=0" });
    const withCookie = sitePageHeaders({ parentHeaders, loaderHeaders });
    expect(withCookie.get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
    expect(withCookie.get("Set-Cookie")).toContain("kongamano_toast");

    const afterAction = sitePageHeaders({
      parentHeaders: new Headers(),
      loaderHeaders,
      actionHeaders: new Headers({ "Cache-Control": PRIVATE_CACHE_CONTROL }),
    });
    expect(afterAction.get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
  });
});

describe("links", () => {
  it("builds contact links with a topic and the form anchor", () => {
    expect(contactHref("demo")).toBe("/contact?topic=demo#contact-form");
    expect(contactHref("registration", { event: "A & B" })).toBe(
      "/contact?topic=registration&event=A+%26+B#contact-form",
    );
    expect(telHref("+254 20 765 4321")).toBe("tel:+254207654321");
  });
});
