/**
 * The share tags of every page (issue 29, decision 0086): each route's meta is computed from its
 * own loader's data as an anonymous visitor gets it (a database with one published event and one
 * paper). Every og:image a page names comes with its type, size and alt text (and the Twitter
 * card's alt), and every page a crawler may index has one.
 */
import path from "node:path";
import type { MetaDescriptor } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { events, papers } from "~/db/schema";
import { env } from "~/lib/env.server";
import { ogCardAlt, SITE_CARD } from "~/lib/og-image.server";
import { SITE_SHARE_IMAGE } from "~/lib/seo";
import routes from "~/routes";
import { useTestDatabase } from "../../tests/helpers/db";

type Entry = { path?: string; index?: boolean; file: string; children?: Entry[] };

/** Every route of app/routes.ts with its full path (layouts and prefixes joined). */
function flatten(entries: Entry[], parent = ""): Array<{ path: string; file: string }> {
  return entries.flatMap((entry) => {
    const full = entry.path ? `${parent}/${entry.path}`.replace(/\/+/g, "/") : parent || "/";
    return [{ path: full, file: entry.file }, ...flatten(entry.children ?? [], full)];
  });
}

const EVENT_SLUG = "nairobi-records-summit";
const PAPER_SLUG = "mobile-money-records";

/** A URL of the pattern (the event's and paper's slugs, a UUID for any other parameter). */
function concrete(pattern: string) {
  const params: Record<string, string> = {};
  const pathname = pattern.replace(/:([a-zA-Z]+)/g, (_, name: string) => {
    params[name] =
      name !== "slug"
        ? "00000000-0000-4000-8000-000000000000"
        : pattern.startsWith("/papers")
          ? PAPER_SLUG
          : EVENT_SLUG;
    return params[name];
  });
  return { pathname, params };
}

type Module = {
  loader?: (args: unknown) => Promise<unknown>;
  meta?: (args: unknown) => MetaDescriptor[];
};

/** The page's meta as React Router computes it after the loader ran (null: it redirected). */
async function metaOf(
  file: string,
  { pathname, params }: ReturnType<typeof concrete>,
): Promise<MetaDescriptor[] | null> {
  const module = (await import(path.resolve("app", file))) as Module;
  if (!module.meta) return [];
  const request = new Request(`${env().BASE_URL}${pathname}`);
  let loaderData: unknown;
  let error: unknown;
  try {
    const result = await module.loader?.({ request, params, context: {} });
    loaderData =
      result && typeof result === "object" && "data" in result && "init" in result
        ? result.data
        : result;
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) return null;
    error = thrown;
  }
  return module.meta({
    data: loaderData,
    loaderData,
    error,
    params,
    location: { pathname, search: "", hash: "", state: null, key: "default" },
    matches: [],
  });
}

const content = (meta: MetaDescriptor[], key: "property" | "name", value: string) =>
  meta
    .filter((m) => (m as Record<string, unknown>)[key] === value)
    .map((m) => String((m as { content: unknown }).content));

describe("share tags of every page", () => {
  const test = useTestDatabase();
  // Pattern -> meta of the page an anonymous visitor gets (pages that redirect are left out).
  const pages = new Map<string, MetaDescriptor[]>();

  beforeAll(async () => {
    await test.db.insert(events).values({
      title: "Nairobi Records Summit",
      slug: EVENT_SLUG,
      location: "Nairobi, Kenya",
      timeZone: "Africa/Nairobi",
      startDate: new Date("2027-03-02T06:00:00Z"),
      endDate: new Date("2027-03-03T14:00:00Z"),
      eventType: "conference",
      status: "published",
      // An uploaded picture of any size: the share image is still the 1200×630 card.
      imageUrl: "/uploads/events/picture.webp",
    });
    await test.db.insert(papers).values({
      title: "Mobile Money Records",
      slug: PAPER_SLUG,
      authors: ["Wanjirũ Kamau"],
      status: "published",
      publishedDate: "2026-05-04",
    });
    for (const route of flatten(routes as Entry[])) {
      if (route.path.includes("*")) continue;
      const meta = await metaOf(route.file, concrete(route.path));
      if (meta?.length) pages.set(route.path, meta);
    }
  });

  it("gives every og:image its type, 1200×630 size and alt text, the same on the Twitter card", () => {
    const withImage = [...pages].filter(([, meta]) => content(meta, "property", "og:image")[0]);
    expect(withImage.length).toBeGreaterThan(10);
    for (const [page, meta] of withImage) {
      const [image] = content(meta, "property", "og:image");
      const [alt] = content(meta, "property", "og:image:alt");
      expect({ page, image }).toEqual({ page, image: expect.stringMatching(/^https?:\/\//) });
      expect({ page, tags: content(meta, "property", "og:image:type") }).toEqual({
        page,
        tags: ["image/png"],
      });
      expect({ page, width: content(meta, "property", "og:image:width") }).toEqual({
        page,
        width: ["1200"],
      });
      expect({ page, height: content(meta, "property", "og:image:height") }).toEqual({
        page,
        height: ["630"],
      });
      expect(alt?.length, page).toBeGreaterThan(10);
      expect(content(meta, "name", "twitter:image"), page).toEqual([image]);
      expect(content(meta, "name", "twitter:image:alt"), page).toEqual([alt]);
      expect(content(meta, "name", "twitter:card"), page).toEqual(["summary_large_image"]);
    }
  });

  it("gives every page a crawler may index a share image: the site's, or the event's or paper's card", () => {
    const indexable = [...pages].filter(
      ([, meta]) => !content(meta, "name", "robots").some((r) => r.includes("noindex")),
    );
    const image = (page: string) => content(pages.get(page) ?? [], "property", "og:image")[0];
    // The static pages: home, listings, about, offices, contact, … (spec §2.1).
    const site = `${env().BASE_URL}${SITE_SHARE_IMAGE.url}`;
    for (const page of [
      "/",
      "/events",
      "/events/propose",
      "/papers",
      "/membership",
      "/about",
      "/offices",
      "/contact",
      "/advertising",
      "/privacy",
      "/terms",
      "/accessibility",
    ]) {
      expect({ page, image: image(page) }).toEqual({ page, image: site });
    }
    expect(image("/events/:slug")).toMatch(
      new RegExp(`^${env().BASE_URL}/events/${EVENT_SLUG}/og\\.png\\?v=[0-9a-f]{12}$`),
    );
    expect(content(pages.get("/events/:slug") ?? [], "property", "og:image:alt")[0]).toMatch(
      /^Conference: Nairobi Records Summit\. Mar 2/,
    );
    expect(image("/papers/:slug")).toMatch(
      new RegExp(`^${env().BASE_URL}/papers/${PAPER_SLUG}/og\\.png\\?v=[0-9a-f]{12}$`),
    );
    expect(content(pages.get("/papers/:slug") ?? [], "property", "og:image:alt")[0]).toBe(
      "Research paper: Mobile Money Records. Wanjirũ Kamau. Published May 4, 2026",
    );
    for (const [page, meta] of indexable) {
      expect({ page, image: content(meta, "property", "og:image")[0] }).toEqual({
        page,
        image: expect.any(String),
      });
    }
  });

  it("describes the site's image by the words drawn on it", () => {
    expect(SITE_SHARE_IMAGE.alt).toBe(ogCardAlt(SITE_CARD));
  });
});
