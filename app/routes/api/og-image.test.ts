import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { events, papers } from "~/db/schema";
import { ogCardVersion } from "~/lib/og-image.server";
import { getPublishedEventBySlug } from "~/models/events/queries.server";
import { eventOgCard } from "~/routes/public/events/event-view.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { loader as eventOgImage } from "./event-og-image";
import { loader as paperOgImage } from "./paper-og-image";

function get(path: string) {
  return new Request(`http://localhost:3000${path}`);
}

describe("generated share images", () => {
  const test = useTestDatabase();

  it("answers an event's card as a cached 1200×630 PNG; a changed event gets a new URL", async () => {
    await test.db.insert(events).values({
      title: "Toronto Records Workshop",
      slug: "toronto-records-workshop",
      location: "Toronto, Canada",
      timeZone: "America/Toronto",
      startDate: new Date("2027-01-12T14:00:00Z"),
      endDate: new Date("2027-01-12T22:00:00Z"),
      eventType: "workshop",
      status: "published",
    });
    const event = await getPublishedEventBySlug("toronto-records-workshop");
    const version = ogCardVersion(eventOgCard(event!));
    const response = (await eventOgImage({
      request: get(`/events/toronto-records-workshop/og.png?v=${version}`),
      params: { slug: "toronto-records-workshop" },
    } as never)) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/png");
    expect(response.headers.get("Cache-Control")).toContain("immutable");
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1200, 630]);
    expect(eventOgCard(event!).lines[0]).toBe("Jan 12, 2027 · 9:00 AM EST");

    // An old version's URL still answers, briefly cached; the title's change makes a new version.
    const stale = (await eventOgImage({
      request: get("/events/toronto-records-workshop/og.png?v=0123456789ab"),
      params: { slug: "toronto-records-workshop" },
    } as never)) as Response;
    expect(stale.headers.get("Cache-Control")).toMatch(/max-age=300/);
    expect(ogCardVersion({ ...eventOgCard(event!), title: "Renamed" })).not.toBe(version);
  });

  it("answers a paper's card, and 404 for an unknown or unpublished one (to visitors)", async () => {
    await test.db.insert(papers).values([
      {
        title: "Mobile Money and African SMEs",
        slug: "mobile-money",
        authors: ["Wanjiru Kamau"],
        status: "published",
        publishedDate: "2026-05-04",
      },
      { title: "Draft Notes", slug: "draft-notes", authors: ["A. N. Other"], status: "draft" },
    ]);
    const ok = (await paperOgImage({
      request: get("/papers/mobile-money/og.png"),
      params: { slug: "mobile-money" },
    } as never)) as Response;
    expect(ok.status).toBe(200);
    const meta = await sharp(Buffer.from(await ok.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 630]);
    for (const slug of ["draft-notes", "nothing-here"]) {
      await expect(
        paperOgImage({ request: get(`/papers/${slug}/og.png`), params: { slug } } as never),
      ).rejects.toMatchObject({ status: 404 });
    }
  });
});
