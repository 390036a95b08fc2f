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
