import type { MetaDescriptor } from "react-router";

export const SITE_NAME = "Kongamano";

/**
 * Title, description, canonical URL, OpenGraph and Twitter tags for a page.
 * `origin` is BASE_URL (from the loader, `env().BASE_URL`), never the request's Host: pages are
 * cached for everyone, so a forged Host must not end up in their canonical links.
 */
export function pageMeta({
  title,
  description,
  origin,
  path,
  image,
  type = "website",
  noindex = false,
}: {
  title: string;
  description: string;
  origin: string;
  path: string;
  image?: string | null;
  type?: "website" | "article";
  noindex?: boolean;
}): MetaDescriptor[] {
  const url = `${origin}${path}`;
  const fullTitle = title === SITE_NAME ? title : `${title} | ${SITE_NAME}`;
  const absoluteImage = image ? new URL(image, origin).toString() : undefined;
  return [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: type },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    ...(absoluteImage ? [{ property: "og:image", content: absoluteImage }] : []),
    { name: "twitter:card", content: absoluteImage ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    ...(absoluteImage ? [{ name: "twitter:image", content: absoluteImage }] : []),
    ...(noindex ? [{ name: "robots", content: "noindex" }] : []),
  ];
}

/** A JSON-LD block for `meta` (React Router renders it as <script type="application/ld+json">). */
export function jsonLd(data: Record<string, unknown>): MetaDescriptor {
  return { "script:ld+json": data };
}
