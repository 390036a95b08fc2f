/**
 * Scripts start loading after the first contentful paint (decision 0012).
 *
 * React Router's `<Scripts>` writes a `<link rel="modulepreload">` per module (React hoists them
 * into `<head>`) and one inline module script that imports the route modules and the client
 * entry. A browser then fetches ~150 KB of JavaScript at high priority while the document and its
 * font are still on the way, which on a slow phone delays the first paint. This rewrite keeps the
 * same module list and the same inline module, but a small inline script starts both once the
 * page has painted (or, for a page that never paints, such as a background tab, shortly after
 * `load`). The server-rendered page is complete without JavaScript; hydration begins one frame
 * later than before.
 *
 * The rewrite is all or nothing: if the markup is not what React Router writes (a new version),
 * the document is left exactly as it was.
 */

import { Transform } from "node:stream";

const MODULE_SCRIPT_START = Buffer.from('type="module" async="">');
const SCRIPT_NONCE = Buffer.from('<script nonce="');
const SCRIPT_END = Buffer.from("</script>");
const MODULE_PRELOAD = Buffer.from('<link rel="modulepreload" href="');
const MODULE_SOURCE_ID = "kongamano-entry";
const DEFERRED_MODULE_TAG = `<script type="text/x-deferred-module" id="${MODULE_SOURCE_ID}">`;

/** The loader: plain ES5, run inline; `p` is the preload list. */
function loader(preloads: string[]) {
  return `(function(p){var d=document,n=d.currentScript.nonce,done=0;function go(){if(done)return;done=1;p.forEach(function(h){var l=d.createElement("link");l.rel="modulepreload";l.href=h;l.nonce=n;d.head.appendChild(l)});var s=d.createElement("script");s.type="module";s.nonce=n;s.textContent=d.getElementById("${MODULE_SOURCE_ID}").textContent;d.body.appendChild(s)}try{new PerformanceObserver(function(l){if(l.getEntriesByName("first-contentful-paint").length)setTimeout(go,0)}).observe({type:"paint",buffered:true})}catch(e){d.addEventListener("DOMContentLoaded",go)}addEventListener("load",function(){setTimeout(go,500)})})(${JSON.stringify(preloads).replace(/</g, "\\u003c")})`;
}

/** The text of the deferred entry module in a rewritten document (the loader runs it inline). */
export function deferredModuleSource(html: string): string | undefined {
  const from = html.indexOf(DEFERRED_MODULE_TAG);
  if (from === -1) return undefined;
  const end = html.indexOf("</script>", from);
  return end === -1 ? undefined : html.slice(from + DEFERRED_MODULE_TAG.length, end);
}

/**
 * The same rewrite on a streamed document: bytes are held back until React Router's module
 * script has gone by (it ends the shell, which React writes in one go), then passed through.
 */
export function deferScriptsStream(
  /** Also applied to the held-back part (the shell), e.g. the stylesheet's splice. */
  edit: (part: Buffer<ArrayBuffer>) => Buffer<ArrayBuffer> = (part) => part,
) {
  const held: Buffer[] = [];
  let heldBytes = 0;
  // The marker looked for next: the module script's start, then the end of that script.
  let marker: Buffer | undefined = MODULE_SCRIPT_START;
  let tail = Buffer.alloc(0); // the last bytes before this chunk, where a marker may begin
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!marker) return callback(null, chunk);
      held.push(chunk);
      heldBytes += chunk.length;
      let window = Buffer.concat([tail, chunk]);
      let found = window.indexOf(marker);
      if (found !== -1 && marker === MODULE_SCRIPT_START) {
        marker = SCRIPT_END;
        window = window.subarray(found + MODULE_SCRIPT_START.length);
        found = window.indexOf(marker);
      }
      if (found === -1) {
        tail = Buffer.from(window.subarray(Math.max(0, window.length - marker.length + 1)));
        return callback();
      }
      marker = undefined;
      callback(null, edit(deferScripts(Buffer.concat(held, heldBytes))));
      held.length = 0;
    },
    flush(callback) {
      if (!marker) return callback();
      callback(null, edit(deferScripts(Buffer.concat(held, heldBytes))));
    },
  });
}

/**
 * The document (or its first part, up to the module script) with script loading deferred.
 * It works on the UTF-8 bytes React wrote: the markers are ASCII, the rest is copied as is.
 */
export function deferScripts(html: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  const sourceStart = html.indexOf(MODULE_SCRIPT_START);
  if (sourceStart === -1) return html;
  const scriptStart = html.lastIndexOf(SCRIPT_NONCE, sourceStart);
  const sourceEnd = html.indexOf(SCRIPT_END, sourceStart);
  // `<script nonce="…" type="module" async="">`: nothing else may sit between the two markers.
  const nonceEnd = sourceStart - 2;
  if (
    scriptStart === -1 ||
    sourceEnd === -1 ||
    html.toString("latin1", nonceEnd, sourceStart) !== '" '
  ) {
    return html;
  }
  const nonce = html.toString("latin1", scriptStart + SCRIPT_NONCE.length, nonceEnd);
  if (nonce.includes('"')) return html;
  const parts: Buffer[] = [];
  const preloads: string[] = [];
  let copied = 0;
  for (
    let link = html.indexOf(MODULE_PRELOAD);
    link !== -1 && link < scriptStart;
    link = html.indexOf(MODULE_PRELOAD, link)
  ) {
    const hrefStart = link + MODULE_PRELOAD.length;
    const hrefEnd = html.indexOf('"', hrefStart);
    const linkEnd = html.indexOf("/>", hrefEnd);
    if (hrefEnd === -1 || linkEnd === -1 || html.indexOf(">", hrefEnd) !== linkEnd + 1) return html;
    preloads.push(html.toString("utf8", hrefStart, hrefEnd));
    parts.push(html.subarray(copied, link));
    copied = link = linkEnd + 2;
  }
  if (preloads.length === 0) return html;
  parts.push(
    html.subarray(copied, scriptStart),
    Buffer.from(DEFERRED_MODULE_TAG),
    html.subarray(sourceStart + MODULE_SCRIPT_START.length, sourceEnd),
    Buffer.from(`</script><script nonce="${nonce}">${loader(preloads)}</script>`),
    html.subarray(sourceEnd + SCRIPT_END.length),
  );
  return Buffer.concat(parts);
}
