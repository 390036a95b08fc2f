import * as lucide from "lucide-react";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import * as icons from "./index";

describe("icons", () => {
  it("render the same markup as lucide-react, for every generated icon", () => {
    const generated = Object.entries(icons).filter(([, value]) => typeof value === "function");
    expect(generated.length).toBeGreaterThan(50);
    for (const [name, Icon] of generated) {
      const reference = (lucide as unknown as Record<string, typeof Icon>)[name];
      const props = { className: "size-4 text-primary" };
      expect(renderToStaticMarkup(createElement(Icon, props)), name).toBe(
        renderToStaticMarkup(createElement(reference, props)),
      );
    }
  });

  it("are hidden from assistive technology unless they are given a name", () => {
    expect(renderToStaticMarkup(<icons.MapPin />)).toContain('aria-hidden="true"');
    const labelled = renderToStaticMarkup(<icons.Loader2 aria-label="Loading" role="img" />);
    expect(labelled).not.toContain("aria-hidden");
    expect(labelled).toContain('aria-label="Loading"');
  });
});
