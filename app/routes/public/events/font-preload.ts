import interLatin from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";

/**
 * Preload of the site font's Latin face. Found only through the stylesheet, it arrives after the
 * first paint and reflows the text (Lighthouse counted CLS 0.056 on the home page).
 */
export const fontPreload = {
  rel: "preload",
  href: interLatin,
  as: "font",
  type: "font/woff2",
  crossOrigin: "anonymous",
} as const;
