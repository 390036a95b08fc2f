import { describe, expect, it } from "vitest";
import { isoInZone } from "~/lib/format";
import { eventJsonLd, isVirtualLocation } from "./json-ld";

const event = {
  slug: "data-summit",
  title: "Data Summit",
  description: "Two days of talks.",
  theme: null,
  location: "KICC, Nairobi, Kenya",
  startDate: new Date("2027-03-01T06:00:00Z"),
  endDate: "2027-03-02T15:00:00.000Z",
  imageUrl: "/uploads/events/a.webp",
  speakers: [{ name: "Amina Odhiambo", title: "Chief Data Officer", organization: "Acme" }],
  fees: [
    { feeType: "early_bird", amountMinor: 15000, currency: "USD", availableUntil: "2027-01-31" },
    { feeType: "conference_only", amountMinor: 29950, currency: "USD", availableUntil: null },
  ],
};

describe("eventJsonLd", () => {
  it("describes a schema.org Event with offsets, a Place, offers, performers and the organiser", () => {
    const ld = eventJsonLd(event, "https://k.example");
    expect(ld["@type"]).toBe("Event");
    expect(ld.startDate).toBe("2027-03-01T09:00:00+03:00");
    expect(ld.endDate).toBe("2027-03-02T18:00:00+03:00");
    expect(ld.url).toBe("https://k.example/events/data-summit");
    expect(ld.eventAttendanceMode).toBe("https://schema.org/OfflineEventAttendanceMode");
    expect(ld.location).toEqual({
      "@type": "Place",
      name: "KICC, Nairobi, Kenya",
      address: { "@type": "PostalAddress", addressLocality: "KICC", addressCountry: "Kenya" },
    });
    expect(ld.image).toEqual(["https://k.example/uploads/events/a.webp"]);
    expect(ld.offers).toEqual([
      expect.objectContaining({
        "@type": "Offer",
        name: "Early Bird",
        price: "150.00",
        priceCurrency: "USD",
        validThrough: "2027-01-31T23:59:59+03:00",
      }),
      expect.objectContaining({ name: "Conference Only", price: "299.50" }),
    ]);
    expect(ld.performer).toEqual([
      {
        "@type": "Person",
        name: "Amina Odhiambo",
        jobTitle: "Chief Data Officer",
        worksFor: { "@type": "Organization", name: "Acme" },
      },
    ]);
    expect(ld.organizer).toEqual({
      "@type": "Organization",
      name: "Kongamano",
      url: "https://k.example",
    });
    // It survives the trip through JSON (what the page embeds).
    expect(JSON.parse(JSON.stringify(ld))).toEqual(ld);
  });

  it("writes each offer's price as exact decimal text in its currency's decimals", () => {
    const fees = [
      { feeType: "full_board", amountMinor: 9_999_999_999, currency: "KES", availableUntil: null },
      { feeType: "student", amountMinor: 29, currency: "EUR", availableUntil: null },
      { feeType: "member", amountMinor: 0, currency: "GBP", availableUntil: null },
      { feeType: "group", amountMinor: 1_500_000, currency: "UGX", availableUntil: null },
    ];
    const ld = eventJsonLd({ ...event, fees }, "https://k.example");
    expect((ld.offers as { price: string; priceCurrency: string }[]).map((o) => o.price)).toEqual([
      "99999999.99",
      "0.29",
      "0.00",
      "1500000",
    ]);
  });

  it("uses a VirtualLocation for online events and leaves out empty lists", () => {
    const ld = eventJsonLd(
      { ...event, location: "Online (Zoom)", speakers: [], fees: [], imageUrl: null },
      "https://k.example",
    );
    expect(ld.location).toEqual({
      "@type": "VirtualLocation",
      url: "https://k.example/events/data-summit",
    });
    expect(ld.eventAttendanceMode).toBe("https://schema.org/OnlineEventAttendanceMode");
    expect(ld).not.toHaveProperty("offers");
    expect(ld).not.toHaveProperty("performer");
    expect(ld).not.toHaveProperty("image");
  });
});

describe("eventJsonLd tells the truth about status and sales (decision 0084)", () => {
  const now = new Date("2027-01-15T12:00:00Z");
  const offers = (ld: ReturnType<typeof eventJsonLd>) =>
    (ld.offers ?? []) as Array<{ availability: string; validFrom?: string; validThrough: string }>;

  it("a cancelled event is EventCancelled and none of its offers is in stock", () => {
    const ld = eventJsonLd(
      { ...event, cancelledAt: "2027-01-10T08:00:00Z" },
      "https://k.example",
      now,
    );
    expect(ld.eventStatus).toBe("https://schema.org/EventCancelled");
    expect(offers(ld).map((o) => o.availability)).toEqual([
      "https://schema.org/SoldOut",
      "https://schema.org/SoldOut",
    ]);
    expect(eventJsonLd(event, "https://k.example", now).eventStatus).toBe(
      "https://schema.org/EventScheduled",
    );
  });

  it("an offer with no seat left (stock or capacity) is SoldOut; unlimited or unknown is InStock", () => {
    const fees = [
      { ...event.fees[1], seatsLeft: 0 },
      { ...event.fees[1], seatsLeft: 3 },
      { ...event.fees[1], seatsLeft: null },
      { ...event.fees[1] },
    ];
    expect(
      offers(eventJsonLd({ ...event, fees }, "https://k.example", now)).map((o) => o.availability),
    ).toEqual([
      "https://schema.org/SoldOut",
      "https://schema.org/InStock",
      "https://schema.org/InStock",
      "https://schema.org/InStock",
    ]);
  });

  it("validFrom is the sale start in the event's zone, left out when unset, never after validThrough", () => {
    const fees = [
      { ...event.fees[0], saleStartsAt: new Date("2026-12-01T06:00:00Z") },
      { ...event.fees[0], saleStartsAt: null },
      { ...event.fees[0], saleStartsAt: new Date("2027-02-01T06:00:00Z") },
    ];
    const list = offers(eventJsonLd({ ...event, fees }, "https://k.example", now));
    expect(list[0].validFrom).toBe("2026-12-01T09:00:00+03:00");
    expect(list[1]).not.toHaveProperty("validFrom");
    expect(list[2]).not.toHaveProperty("validFrom");
    for (const offer of list) {
      if (offer.validFrom)
        expect(Date.parse(offer.validFrom)).toBeLessThanOrEqual(Date.parse(offer.validThrough));
    }
  });
});

describe("helpers", () => {
  it("recognises virtual locations case-insensitively", () => {
    expect(isVirtualLocation("VIRTUAL summit")).toBe(true);
    expect(isVirtualLocation("Nairobi (online stream)")).toBe(true);
    expect(isVirtualLocation("Nairobi, Kenya")).toBe(false);
  });
  it("writes Nairobi time with its +03:00 offset", () => {
    expect(isoInZone("2026-12-31T22:30:00Z")).toBe("2027-01-01T01:30:00+03:00");
  });
});
