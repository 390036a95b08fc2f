// Share images (OpenGraph / Twitter cards, JSON-LD `image`): a 1200×630 PNG drawn from an SVG by
// sharp (librsvg), for pages without an uploaded image. Decision 0031.
import { createHash } from "node:crypto";
import sharp from "sharp";
import { SHARE_IMAGE_HEIGHT, SHARE_IMAGE_WIDTH, type ShareImage } from "./seo";
import { escapeXml } from "./xml";

export const OG_WIDTH = SHARE_IMAGE_WIDTH;
export const OG_HEIGHT = SHARE_IMAGE_HEIGHT;

/** What a card shows: a kicker ('Conference'), the title, and up to two detail lines. */
export type OgCard = { kicker: string; title: string; lines: string[]; color: string };

/** Short content hash: part of the image URL, so a changed card gets a new URL. */
export function ogCardVersion(card: OgCard) {
  return createHash("sha256").update(JSON.stringify(card)).digest("hex").slice(0, 12);
}

/** The card's text alternative (og:image:alt): what it says, in reading order. */
export function ogCardAlt(card: OgCard) {
  return [`${card.kicker}: ${card.title}`, ...card.lines.slice(0, 2)]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(". ");
}

/** A page's share image: the card's versioned URL and its text alternative. */
export function ogShareImage(card: OgCard, path: string): ShareImage {
  return { url: `${path}?v=${ogCardVersion(card)}`, alt: ogCardAlt(card) };
}

/**
 * The site's own card (public/og-image.png, for pages without a card of their own): drawn by
 * `npm run share-image`, so it looks like every other card.
 */
export const SITE_CARD: OgCard = {
  kicker: "Global information management network",
  title: "Conferences, research papers and regional offices",
  lines: ["For information-management professionals worldwide", "Head office: Nairobi, Kenya"],
  color: "#0B5FFF",
};

const HEX = /^#[0-9a-f]{6}$/i;

/** Words wrapped to lines of at most `width` characters; the last line ends in '…' if cut. */
export function wrapWords(text: string, width: number, maxLines: number) {
  const lines: string[] = [];
  let line = "";
  const words = text.split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const word = words[i].length > width ? `${words[i].slice(0, width - 1)}…` : words[i];
    const next = line ? `${line} ${word}` : word;
    if (next.length <= width) {
      line = next;
      continue;
    }
    lines.push(line);
    line = word;
    if (lines.length === maxLines) {
      const last = lines[maxLines - 1];
      lines[maxLines - 1] = `${last.length > width - 1 ? last.slice(0, width - 1) : last}…`;
      return lines;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The card as SVG (fonts: Inter when installed, else DejaVu/Liberation, else any sans-serif). */
export function ogCardSvg(card: OgCard) {
  const color = HEX.test(card.color) ? card.color : "#0B5FFF";
  // ~0.7em per character in a bold sans: 26 characters of 56px fit the 1040px text column.
  const title = wrapWords(card.title, 26, 3);
  const font = "Inter, 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";
  const titleTop = 250 - (title.length - 1) * 30;
  const tspans = title
    .map((line, i) => `<tspan x="80" y="${titleTop + i * 68}">${escapeXml(line)}</tspan>`)
    .join("");
  const details = card.lines
    .slice(0, 2)
    .map(
      (line, i) =>
        `<text x="80" y="${480 + i * 44}" font-family="${font}" font-size="30" fill="#e2e8f0">${escapeXml(wrapWords(line, 56, 1)[0] ?? "")}</text>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}" viewBox="0 0 ${OG_WIDTH} ${OG_HEIGHT}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="#0f172a"/></linearGradient></defs>
<rect width="100%" height="100%" fill="#0f172a"/>
<rect width="100%" height="100%" fill="url(#bg)" opacity="0.85"/>
<rect x="0" y="0" width="16" height="${OG_HEIGHT}" fill="${color}"/>
<circle cx="1080" cy="110" r="220" fill="#ffffff" opacity="0.06"/>
<text x="80" y="110" font-family="${font}" font-size="28" font-weight="700" letter-spacing="3" fill="#ffffff" opacity="0.9">${escapeXml(card.kicker.toUpperCase())}</text>
<text font-family="${font}" font-size="56" font-weight="700" fill="#ffffff">${tspans}</text>
${details}
<text x="1120" y="590" text-anchor="end" font-family="${font}" font-size="28" font-weight="700" fill="#ffffff">Kongamano</text>
</svg>`;
}

// Rendered cards by version: a few hundred KB at most (bounded, oldest dropped first).
const rendered = new Map<string, Promise<Buffer>>();
const MAX_CACHED = 200;

/** The card as PNG, rendered once per content version. */
export function renderOgCard(card: OgCard): Promise<Buffer> {
  const key = ogCardVersion(card);
  let png = rendered.get(key);
  if (!png) {
    png = sharp(Buffer.from(ogCardSvg(card)))
      .png({ compressionLevel: 9 })
      .toBuffer();
    png.catch(() => rendered.delete(key));
    if (rendered.size >= MAX_CACHED) rendered.delete(rendered.keys().next().value as string);
    rendered.set(key, png);
  }
  return png;
}

/**
 * The PNG response: a URL carrying the current version is immutable (a change makes a new URL);
 * any other is cached briefly, so an old link still gets today's card.
 */
export async function ogImageResponse(card: OgCard, request: Request) {
  const png = await renderOgCard(card);
  const current = new URL(request.url).searchParams.get("v") === ogCardVersion(card);
  return new Response(new Uint8Array(png), {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(png.byteLength),
      "Cache-Control": current
        ? "public, max-age=31536000, immutable"
        : "public, max-age=300, stale-while-revalidate=3600",
    },
  });
}
