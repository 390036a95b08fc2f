import { ORGANISATION_NAME, publicFeeTypeLabel } from "~/lib/constants";
import { nairobiIso, splitLocation } from "~/lib/format";

/** Virtual events: the location mentions 'virtual' or 'online' (the listing's `format=virtual`). */
export function isVirtualLocation(location: string) {
  return /virtual|online/i.test(location);
}

export type JsonLdEvent = {
  slug: string;
  title: string;
  description: string | null;
  theme: string | null;
  location: string;
  startDate: Date | string;
  endDate: Date | string;
  imageUrl: string | null;
  speakers: Array<{ name: string; title: string | null; organization: string | null }>;
  fees: Array<{
    feeType: string;
    amount: number;
    currency: string;
    availableUntil: string | null;
  }>;
};

/** schema.org Event for an event page (search engines' rich results). */
export function eventJsonLd(event: JsonLdEvent, origin: string) {
  const url = `${origin}/events/${encodeURIComponent(event.slug)}`;
  const virtual = isVirtualLocation(event.location);
  const { city, country } = splitLocation(event.location);
  return {
    "@context": "https://schema.org",
    "@type": "Event",
    name: event.title,
    description: event.description ?? event.theme ?? event.title,
    url,
    startDate: nairobiIso(event.startDate),
    endDate: nairobiIso(event.endDate),
    eventStatus: "https://schema.org/EventScheduled",
    eventAttendanceMode: virtual
      ? "https://schema.org/OnlineEventAttendanceMode"
      : "https://schema.org/OfflineEventAttendanceMode",
    location: virtual
      ? { "@type": "VirtualLocation", url }
      : {
          "@type": "Place",
          name: event.location,
          address: {
            "@type": "PostalAddress",
            addressLocality: city,
            addressCountry: country,
          },
        },
    ...(event.imageUrl ? { image: [new URL(event.imageUrl, origin).toString()] } : {}),
    ...(event.fees.length > 0
      ? {
          offers: event.fees.map((fee) => ({
            "@type": "Offer",
            name: publicFeeTypeLabel(fee.feeType),
            price: fee.amount.toFixed(2),
            priceCurrency: fee.currency,
            url,
            availability: "https://schema.org/InStock",
            ...(fee.availableUntil ? { validThrough: `${fee.availableUntil}T23:59:59+03:00` } : {}),
          })),
        }
      : {}),
    ...(event.speakers.length > 0
      ? {
          performer: event.speakers.map((s) => ({
            "@type": "Person",
            name: s.name,
            ...(s.title ? { jobTitle: s.title } : {}),
            ...(s.organization
              ? { worksFor: { "@type": "Organization", name: s.organization } }
              : {}),
          })),
        }
      : {}),
    organizer: { "@type": "Organization", name: ORGANISATION_NAME, url: origin },
  };
}
