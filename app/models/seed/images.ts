// Demo pictures drawn locally (no downloads, decision 0034): SVG rendered to JPEG by sharp.
// Banners and logos are abstract shapes and lettering; portraits are monogram avatars, so the
// demo never shows a stranger's face or a real company's mark.
import sharp from "sharp";
import { escapeXml } from "~/lib/xml";

const FONT = "Inter, 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";

/** A small deterministic hash of a string (same input, same picture). */
function hash(text: string) {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

function initials(name: string) {
  return name
    .replace(/^(Dr|Prof|Mr|Ms|Mrs)\.?\s+/i, "")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w.charAt(0).toUpperCase())
    .join("");
}

/**
 * Event banner: the category's colour, layered shapes, the city's name. Drawn on a 1200×630
 * canvas, rendered at 800×420 (a third of the pixels to draw: the seed stays fast).
 */
export function bannerSvg({ title, color, city }: { title: string; color: string; city: string }) {
  const h = hash(title);
  const circles = Array.from({ length: 6 }, (_, i) => {
    const x = (h >> (i * 3)) % 1200;
    const y = ((h >> (i * 2)) * 7) % 630;
    const r = 60 + ((h >> i) % 220);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="#ffffff" opacity="${(0.05 + i * 0.02).toFixed(2)}"/>`;
  }).join("");
  const wave = 380 + (h % 120);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="420" viewBox="0 0 1200 630">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="#0f172a"/></linearGradient></defs>
<rect width="1200" height="630" fill="url(#g)"/>${circles}
<path d="M0 ${wave} C300 ${wave - 120} 600 ${wave + 120} 1200 ${wave - 60} L1200 630 L0 630 Z" fill="#ffffff" opacity="0.12"/>
<text x="60" y="570" font-family="${FONT}" font-size="56" font-weight="700" fill="#ffffff" opacity="0.9">${escapeXml(city)}</text>
</svg>`;
}

/** 256×256 monogram portrait in a colour picked from the name. */
export function portraitSvg(name: string) {
  const hue = hash(name) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
<rect width="256" height="256" fill="hsl(${hue} 55% 42%)"/>
<circle cx="128" cy="300" r="150" fill="hsl(${hue} 50% 30%)"/>
<text x="128" y="150" text-anchor="middle" font-family="${FONT}" font-size="96" font-weight="700" fill="#ffffff">${escapeXml(initials(name))}</text>
</svg>`;
}

/** 400×200 wordmark logo: a shape and the company's name. */
export function logoSvg(name: string) {
  const h = hash(name);
  const hue = h % 360;
  const words = name.split(/\s+/);
  const first = words.slice(0, 2).join(" ");
  const rest = words.slice(2).join(" ");
  const mark =
    h % 3 === 0
      ? `<circle cx="60" cy="100" r="36" fill="hsl(${hue} 65% 45%)"/>`
      : h % 3 === 1
        ? `<rect x="26" y="66" width="68" height="68" rx="14" fill="hsl(${hue} 65% 45%)"/>`
        : `<path d="M60 60 L100 136 L20 136 Z" fill="hsl(${hue} 65% 45%)"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200">
<rect width="400" height="200" fill="#ffffff"/>${mark}
<text x="115" y="${rest ? 98 : 112}" font-family="${FONT}" font-size="30" font-weight="700" fill="#0f172a">${escapeXml(first)}</text>
${rest ? `<text x="115" y="134" font-family="${FONT}" font-size="24" fill="#475569">${escapeXml(rest)}</text>` : ""}
</svg>`;
}

/** An SVG as JPEG bytes (~20 ms a banner; WebP's encoder takes 5–20 times longer per seed). */
export function svgToJpeg(svg: string) {
  return sharp(Buffer.from(svg)).jpeg({ quality: 82, mozjpeg: true }).toBuffer();
}
