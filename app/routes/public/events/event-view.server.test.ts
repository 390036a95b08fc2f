import { describe, expect, it } from "vitest";
import { agendaByDay, buildEventPageView, groupSponsorsByTier } from "./event-view.server";

const SUMMIT: Parameters<typeof buildEventPageView>[0] = {
  id: "6f1c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f",
  slug: "summit",
  title: "Summit",
  description: null,
  location: "Nairobi, Kenya",
  startDate: new Date("2027-03-01T06:00:00Z"),
  endDate: new Date("2027-03-03T14:00:00Z"),
  timeZone: "Africa/Nairobi",
  theme: "Trust",
  eventType: "conference",
  category: null,
  industrySector: null,
  tags: null,
  featured: false,
  imageUrl: null,
  sequence: 0,
  capacity: null,
  cancelledAt: null,
  createdAt: new Date(),
  updatedAt: new Date(),
  typeColor: "#0B5FFF",
  speakers: [],
  agenda: [
    {
      id: "a",
      startTime: new Date("2027-03-01T06:00:00Z"),
      endTime: new Date("2027-03-01T07:30:00Z"),
      title: "Opening",
      description: null,
    },
  ],
  fees: [
    {
      id: "f1",
      feeType: "early_bird",
      amountMinor: 15000,
      currency: "USD",
      description: null,
      availableUntil: "2027-01-31",
      saleStartsAt: null,
      maxQuantity: null,
    },
    {
      id: "f2",
      feeType: "full_board",
      amountMinor: 125000,
      currency: "KES",
      description: null,
      availableUntil: null,
      saleStartsAt: new Date("2026-12-01T06:00:00Z"),
      maxQuantity: 40,
    },
  ],
  sponsors: [],
};

describe("event page grouping", () => {
  it("groups sponsors by tier, platinum to bronze, leaving out empty tiers", () => {
    const groups = groupSponsorsByTier([
      { name: "B", tier: "bronze" },
      { name: "P", tier: "platinum" },
      { name: "B2", tier: "bronze" },
    ]);
    expect(groups.map((g) => [g.tier, g.sponsors.map((s) => s.name)])).toEqual([
      ["platinum", ["P"]],
      ["bronze", ["B", "B2"]],
    ]);
  });

  it("groups the agenda by Nairobi day (21:30 UTC is already the next day there)", () => {
    const days = agendaByDay([
      { title: "Opening", startTime: "2027-03-01T06:00:00Z" },
      { title: "Dinner", startTime: "2027-03-01T17:00:00Z" },
      { title: "Night session", startTime: "2027-03-01T21:30:00Z" },
      { title: "Keynote", startTime: "2027-03-02T06:00:00Z" },
    ]);
    expect(days.map((d) => [d.date, d.items.map((i) => i.title)])).toEqual([
      ["Mar 1, 2027", ["Opening", "Dinner"]],
      ["Mar 2, 2027", ["Night session", "Keynote"]],
    ]);
  });

  it("formats the page in Nairobi time and marks fees whose date has passed", () => {
    const view = buildEventPageView(SUMMIT, {
      now: new Date("2027-02-01T12:00:00Z"),
      origin: "https://k.example",
    });
    expect(view.dateLabel).toBe("Mar 1, 2027 - Mar 3, 2027");
    expect(view.timeLabel).toBe("9:00 AM - 5:00 PM");
    expect(view.durationDays).toBe(3);
    expect(view.category).toBe("General");
    expect(view.agendaDays).toEqual([
      {
        date: "Mar 1, 2027",
        items: [expect.objectContaining({ timeLabel: "9:00 AM - 10:30 AM" })],
      },
    ]);
    expect(view.fees).toEqual([
      expect.objectContaining({
        label: "Early Bird",
        amountLabel: "USD 150.00",
        availableUntilLabel: "Jan 31, 2027",
        closed: true,
        maxQuantity: null,
      }),
      expect.objectContaining({ label: "Full Board", amountLabel: "KES 1,250.00", closed: false }),
    ]);
    expect(view.jsonLd.startDate).toBe("2027-03-01T09:00:00+03:00");
    expect(view.metaDescription).toBe("Mar 1, 2027 - Mar 3, 2027 · Nairobi, Kenya. Trust");
  });
});

describe("an event in its own time zone", () => {
  it("shows Toronto times with their label, and JSON-LD with Toronto's offset", () => {
    const view = buildEventPageView(
      {
        ...SUMMIT,
        location: "Toronto, Canada",
        timeZone: "America/Toronto",
        startDate: new Date("2027-01-12T14:00:00Z"),
        endDate: new Date("2027-01-12T22:00:00Z"),
        agenda: [
          {
            id: "a",
            startTime: new Date("2027-01-12T14:00:00Z"),
            endTime: null,
            title: "Opening",
            description: null,
          },
        ],
      },
      { now: new Date("2027-01-01T12:00:00Z"), origin: "https://k.example" },
    );
    expect(view.timeLabel).toBe("9:00 AM - 5:00 PM");
    expect(view.zoneLabel).toBe("EST (GMT-5, Toronto time)");
    expect(view.dateLabel).toBe("Jan 12, 2027");
    expect(view.agendaDays[0].items[0].timeLabel).toBe("9:00 AM");
    expect(view.jsonLd.startDate).toBe("2027-01-12T09:00:00-05:00");
    expect(view.jsonLd.endDate).toBe("2027-01-12T17:00:00-05:00");
  });

  it("gives a page without an image a generated share image; past offers are not on sale", () => {
    const past = buildEventPageView(SUMMIT, {
      now: new Date("2027-04-01T12:00:00Z"),
      origin: "https://k.example",
    });
    expect(past.shareImage.url).toMatch(/^\/events\/summit\/og\.png\?v=[0-9a-f]{12}$/);
    expect(past.jsonLd.image).toEqual([`https://k.example${past.shareImage.url}`]);
    expect(past.jsonLd.eventStatus).toBe("https://schema.org/EventScheduled");
    expect(past.jsonLd.offers?.map((o) => o.availability)).toEqual([
      "https://schema.org/SoldOut",
      "https://schema.org/SoldOut",
    ]);
    const before = buildEventPageView(SUMMIT, {
      now: new Date("2027-02-01T12:00:00Z"),
      origin: "https://k.example",
    });
    // The early-bird fee closed on 31 Jan; the full-board fee sells from its sale start until the
    // event ends. A fee without a sale start has no validFrom (never the row's creation time).
    expect(before.jsonLd.offers).toEqual([
      expect.objectContaining({
        availability: "https://schema.org/SoldOut",
        validThrough: "2027-01-31T23:59:59+03:00",
      }),
      expect.objectContaining({
        availability: "https://schema.org/InStock",
        validFrom: "2026-12-01T09:00:00+03:00",
        validThrough: "2027-03-03T17:00:00+03:00",
      }),
    ]);
    expect(before.jsonLd.offers?.[0]).not.toHaveProperty("validFrom");
  });
});

describe("what the Registration panel offers", () => {
  const seats = (f1: number | null, f2: number | null, free: number | null = null) => ({
    byFee: new Map([
      ["f1", f1],
      ["f2", f2],
    ]),
    free,
  });
  const during = { now: new Date("2027-01-15T12:00:00Z"), origin: "https://k.example" };

  it("sells while a ticket has seats; a ticket whose stock is gone reads Sold out and SoldOut", () => {
    const view = buildEventPageView(SUMMIT, { ...during, seats: seats(0, 12) });
    expect(view.callToAction).toBe("register");
    expect(view.fees.map((f) => f.soldOut)).toEqual([true, false]);
    expect(view.jsonLd.offers?.map((o) => o.availability)).toEqual([
      "https://schema.org/SoldOut",
      "https://schema.org/InStock",
    ]);
  });

  it("offers the waitlist, not 'Register Now', when no ticket on sale has a seat left", () => {
    const view = buildEventPageView(SUMMIT, { ...during, seats: seats(0, 0) });
    expect(view.callToAction).toBe("waitlist");
    expect(view.jsonLd.eventStatus).toBe("https://schema.org/EventScheduled");
    expect(view.jsonLd.offers?.map((o) => o.availability)).toEqual([
      "https://schema.org/SoldOut",
      "https://schema.org/SoldOut",
    ]);
    // An event without fees is sold out when its capacity is taken.
    const free = buildEventPageView({ ...SUMMIT, fees: [] }, { ...during, seats: seats(0, 0, 0) });
    expect(free.callToAction).toBe("waitlist");
    const open = buildEventPageView({ ...SUMMIT, fees: [] }, { ...during, seats: seats(0, 0, 3) });
    expect(open.callToAction).toBe("register");
  });

  it("shows tickets before their sale start with 'On sale from …' and nothing to register for yet", () => {
    const view = buildEventPageView(
      {
        ...SUMMIT,
        fees: SUMMIT.fees.map((fee, i) => ({
          ...fee,
          // The dearer ticket goes on sale first: the panel names the earliest sale start.
          saleStartsAt: new Date(i === 0 ? "2027-02-01T07:00:00Z" : "2027-01-20T07:00:00Z"),
        })),
      },
      { ...during, seats: seats(10, 10) },
    );
    expect(view.fees.map((f) => [f.onSaleNow, f.onSaleFromLabel])).toEqual([
      [false, "On sale from Feb 1, 2027, 10:00 AM (Africa/Nairobi)"],
      [false, "On sale from Jan 20, 2027, 10:00 AM (Africa/Nairobi)"],
    ]);
    expect(view.callToAction).toBe("not-yet");
    expect(view.nextSaleLabel).toBe("On sale from Jan 20, 2027, 10:00 AM (Africa/Nairobi)");
    // The early bird's sale would start after its last day: no validFrom past validThrough.
    expect(view.jsonLd.offers?.[0]).not.toHaveProperty("validFrom");
    expect(view.jsonLd.offers?.[1]).toMatchObject({
      validFrom: "2027-01-20T10:00:00+03:00",
      availability: "https://schema.org/InStock",
    });
  });

  it("a cancelled event: EventCancelled, nothing on sale, no call to register", () => {
    const view = buildEventPageView(
      { ...SUMMIT, cancelledAt: new Date("2027-01-10T08:00:00Z") },
      { ...during, seats: seats(10, 10) },
    );
    expect(view.callToAction).toBeNull();
    expect(view.jsonLd.eventStatus).toBe("https://schema.org/EventCancelled");
    expect(view.jsonLd.offers?.map((o) => o.availability)).toEqual([
      "https://schema.org/SoldOut",
      "https://schema.org/SoldOut",
    ]);
  });
});
