import { describe, expect, it } from "vitest";
import stylesheet from "~/app.css?inline";
import { STYLESHEET_PLACEHOLDER } from "./inline-stylesheet";
import { spliceStylesheet } from "./inline-stylesheet.server";

describe("the inline stylesheet", () => {
  it("is put in place of the root's placeholder, the rest of the document unchanged", () => {
    const html = `<!DOCTYPE html><html><head><style data-href="/assets/app.css">${STYLESHEET_PLACEHOLDER}</style></head><body>é ✓</body></html>`;
    const spliced = spliceStylesheet(Buffer.from(html)).toString("utf8");
    expect(spliced).toBe(html.replace(STYLESHEET_PLACEHOLDER, stylesheet));
    expect(spliced).not.toContain(STYLESHEET_PLACEHOLDER);
  });

  it("leaves a document without the placeholder as it is", () => {
    const html = Buffer.from("<p>No stylesheet here</p>");
    expect(spliceStylesheet(html)).toBe(html);
  });
});
