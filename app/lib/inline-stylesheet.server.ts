import stylesheet from "~/app.css?inline";
import { STYLESHEET_PLACEHOLDER } from "./inline-stylesheet";

const placeholder = Buffer.from(STYLESHEET_PLACEHOLDER);
const bytes = Buffer.from(stylesheet);

/**
 * The document with the built stylesheet in place of the root's placeholder (decisions 0010
 * and 0066): one copy of bytes encoded at start-up instead of React writing the text again
 * into every page. The placeholder sits in `<head>`, so it is found within the first bytes.
 */
export function spliceStylesheet(html: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  const at = html.indexOf(placeholder);
  if (at === -1) return html;
  return Buffer.concat([html.subarray(0, at), bytes, html.subarray(at + placeholder.length)]);
}
