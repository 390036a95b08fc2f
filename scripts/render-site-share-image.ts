// npm run share-image — writes public/og-image.png: the site's 1200×630 share card (og:image of
// every page without a card of its own: home, about, contact, …), drawn by the same renderer as
// the event and paper cards (app/lib/og-image.server.ts, decision 0086). Run it again after
// changing SITE_CARD or the card's design, and commit the PNG.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { renderOgCard, SITE_CARD } from "../app/lib/og-image.server";

const out = path.resolve(import.meta.dirname, "../public/og-image.png");
const png = await renderOgCard(SITE_CARD);
writeFileSync(out, png);
console.log(`${png.length} bytes written to public/og-image.png`);
