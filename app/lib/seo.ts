import type { MetaDescriptor } from "react-router";

export const SITE_NAME = "Kongamano";

/** Share images are drawn 1200×630 (1.91:1, what Facebook, LinkedIn and X crop to). */
export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;

/**
 * An og:image with what a crawler needs to show it without fetching it first: its size, type
 * and a text alternative (decision 0086). Only images whose size we know are shared: the
 * generated cards and the site's own image, all PNG at 1200×630.
 */
export type ShareImage = { url: string; alt: string };

/**
 * The site's share image, for pages without one of their own (home, about, contact, …): drawn by
 * the share-card renderer (`npm run share-image`, scripts/render-site-share-image.ts).
 */
export const SITE_SHARE_IMAGE: ShareImage = {
  url: "/og-image.png",
  // The words on the card (ogCardAlt(SITE_CARD) in og-image.server.ts).
  alt: "Global information management network: Conferences, research papers and regional offices. For information-management professionals worldwide. Head office: Nairobi, Kenya",
};

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
  /** The page's share image; the site's when absent. */
  image?: ShareImage;
  type?: "website" | "article";
  noindex?: boolean;
}): MetaDescriptor[] {
  const url = `${origin}${path}`;
  const fullTitle = title === SITE_NAME ? title : `${title} | ${SITE_NAME}`;
  const share = image ?? SITE_SHARE_IMAGE;
  // `origin` is empty only when the loader failed (no data): the path is all there is then.
  const imageUrl = origin ? new URL(share.url, origin).toString() : share.url;
  return [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: type },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: imageUrl },
    { property: "og:image:type", content: "image/png" },
    { property: "og:image:width", content: String(SHARE_IMAGE_WIDTH) },
    { property: "og:image:height", content: String(SHARE_IMAGE_HEIGHT) },
    { property: "og:image:alt", content: share.alt },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: imageUrl },
    { name: "twitter:image:alt", content: share.alt },
    ...(noindex ? [{ name: "robots", content: "noindex" }] : []),
  ];
}

/** A JSON-LD block for `meta` (React Router renders it as <script type="application/ld+json">). */
export function jsonLd(data: Record<string, unknown>): MetaDescriptor {
  return { "script:ld+json": data };
}
