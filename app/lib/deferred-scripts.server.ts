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
import { StringDecoder } from "node:string_decoder";

const MODULE_SCRIPT = /<script nonce="([^"]*)" type="module" async="">([\s\S]*?)<\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
const MODULE_SOURCE_ID = "kongamano-entry";

/** The loader: plain ES5, run inline; `p` is the preload list. */
function loader(preloads: string[]) {
  return `(function(p){var d=document,n=d.currentScript.nonce,done=0;function go(){if(done)return;done=1;p.forEach(function(h){var l=d.createElement("link");l.rel="modulepreload";l.href=h;l.nonce=n;d.head.appendChild(l)});var s=d.createElement("script");s.type="module";s.nonce=n;s.textContent=d.getElementById("${MODULE_SOURCE_ID}").textContent;d.body.appendChild(s)}try{new PerformanceObserver(function(l){if(l.getEntriesByName("first-contentful-paint").length)setTimeout(go,0)}).observe({type:"paint",buffered:true})}catch(e){d.addEventListener("DOMContentLoaded",go)}addEventListener("load",function(){setTimeout(go,500)})})(${JSON.stringify(preloads).replace(/</g, "\\u003c")})`;
}

const MODULE_SCRIPT_START = 'type="module" async="">';

/**
 * The same rewrite on a streamed document: text is held back until React Router's module script
 * has gone by (it ends the shell, which React writes in one go), then passed through untouched.
 */
export function deferScriptsStream() {
  const decoder = new StringDecoder("utf8");
  let held = "";
  let searchFrom = 0;
  let passing = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (passing) return callback(null, chunk);
      held += decoder.write(chunk);
      const start = held.indexOf(MODULE_SCRIPT_START, searchFrom);
      if (start === -1 || !held.includes("</script>", start)) {
        // Look again from here next time: a marker may straddle two chunks.
        searchFrom = start === -1 ? Math.max(0, held.length - MODULE_SCRIPT_START.length) : start;
        return callback();
      }
      passing = true;
      const text = deferScripts(held);
      held = "";
      callback(null, Buffer.from(text));
    },
    flush(callback) {
      if (passing) return callback();
      callback(null, Buffer.from(deferScripts(held + decoder.end())));
    },
  });
}

/** The document (or its first part, up to the module script) with script loading deferred. */
export function deferScripts(html: string): string {
  const entry = MODULE_SCRIPT.exec(html);
  if (!entry) return html;
  const [script, nonce, source] = entry;
  const preloads: string[] = [];
  const before = html.slice(0, entry.index).replace(MODULE_PRELOAD, (_link, href: string) => {
    preloads.push(href);
    return "";
  });
  if (preloads.length === 0) return html;
  const after = html.slice(entry.index + script.length);
  return `${before}<script type="text/x-deferred-module" id="${MODULE_SOURCE_ID}">${source}</script><script nonce="${nonce}">${loader(preloads)}</script>${after}`;
}
