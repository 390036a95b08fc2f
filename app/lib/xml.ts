// XML text escaping (feeds, sitemaps, SVG share images).

// Characters XML 1.0 forbids outright (C0 controls other than tab, newline, carriage return).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text or attribute value made safe for XML. */
export function escapeXml(value: string) {
  return value.replace(INVALID_XML_CHARS, "").replace(/[<>&"']/g, (c) => XML_ENTITIES[c]);
}
const XML_ENTITIES: Record<string, string> = {
  "<": "&lt;",
  ">": "&gt;",
  "&": "&amp;",
  '"': "&quot;",
  "'": "&apos;",
};
