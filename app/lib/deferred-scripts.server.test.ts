import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { deferScripts as deferScriptsInBytes, deferScriptsStream } from "./deferred-scripts.server";

const deferScripts = (html: string) => deferScriptsInBytes(Buffer.from(html)).toString();

// The shape React Router 7 writes: preloads hoisted into <head>, one inline module in <body>.
const documentHtml = [
  '<!DOCTYPE html><html><head><meta charSet="utf-8"/>',
  '<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="N0nce=="/>',
  '<link rel="modulepreload" href="/assets/root-B.js" nonce="N0nce=="/>',
  "<title>Événements</title></head><body><main>Nairobi — conférence</main>",
  '<script nonce="N0nce==">window.__reactRouterContext = {};</script>',
  '<script nonce="N0nce==" type="module" async="">;\nimport * as route0 from "/assets/root-B.js";\nimport("/assets/entry.client-A.js");</script>',
  '<script nonce="N0nce==">window.__reactRouterContext.streamController.close();</script>',
  "</body></html>",
].join("");

describe("deferred scripts", () => {
  it("moves the preloads and the inline module behind a loader carrying the nonce", () => {
    const out = deferScripts(documentHtml);
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out).not.toContain('type="module" async');
    // The module's text is kept verbatim, inert, for the loader to start.
    expect(out).toContain(
      '<script type="text/x-deferred-module" id="kongamano-entry">;\nimport * as route0 from "/assets/root-B.js";\nimport("/assets/entry.client-A.js");</script>',
    );
    expect(out).toContain('<script nonce="N0nce==">(function(p){');
    expect(out).toContain('["/assets/entry.client-A.js","/assets/root-B.js"]');
    expect(out).toContain("first-contentful-paint");
    // Everything else is untouched and in order.
    expect(out.startsWith('<!DOCTYPE html><html><head><meta charSet="utf-8"/><title>')).toBe(true);
    expect(out.indexOf("__reactRouterContext = {}")).toBeLessThan(out.indexOf("kongamano-entry"));
    expect(out.endsWith("streamController.close();</script></body></html>")).toBe(true);
    // The loader is valid JavaScript.
    const loader = out.match(/<script nonce="N0nce==">(\(function\(p\)[\s\S]*?)<\/script>/)?.[1];
    expect(() => new Function(loader ?? "syntax error (")).not.toThrow();
  });

  it("leaves a document it does not recognise exactly as it was", () => {
    const withoutModule = documentHtml.replace(' type="module" async=""', "");
    expect(deferScripts(withoutModule)).toBe(withoutModule);
    const withoutPreloads = documentHtml.replace(/<link rel="modulepreload"[^>]*\/>/g, "");
    expect(deferScripts(withoutPreloads)).toBe(withoutPreloads);
  });

  it("gives a streamed document, cut anywhere (even inside a character), the same result", async () => {
    const bytes = Buffer.from(documentHtml);
    for (const size of [1, 7, 64, bytes.length]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      const streamed = await text(Readable.from(chunks).pipe(deferScriptsStream()));
      expect(streamed, `chunks of ${size} bytes`).toBe(deferScripts(documentHtml));
    }
    // A stream that never carries the module is passed on whole.
    const plain = "<html><body>no scripts</body></html>";
    expect(await text(Readable.from([Buffer.from(plain)]).pipe(deferScriptsStream()))).toBe(plain);
  });
});
