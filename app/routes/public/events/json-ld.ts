import { TZDate } from "@date-fns/tz";
import { EVENT_TIME_ZONE, ORGANISATION_NAME, publicFeeTypeLabel } from "~/lib/constants";
import { isoInZone, splitLocation } from "~/lib/format";
import { minorToDecimal } from "~/lib/money";

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
  /** IANA zone of the event; dates are written with its offset (Nairobi when absent). */
  timeZone?: string;
  imageUrl: string | null;
  /** The generated share card, used when there is no uploaded image. */
  ogImagePath?: string;
  speakers: Array<{ name: string; title: string | null; organization: string | null }>;
  /** Set when the event was called off: EventCancelled, and nothing is on sale. */
  cancelledAt?: Date | string | null;
  fees: Array<{
    feeType: string;
    /** The price in the currency's minor units. */
    amountMinor: number;
    currency: string;
    availableUntil: string | null;
    /** The fee's sale start (its offer's validFrom); unset: left out. */
    saleStartsAt?: Date | string | null;
    /**
     * Seats left of this ticket (its stock and the event's capacity both count); 0 reads
     * SoldOut. Null: no limit; absent: not known.
     */
    seatsLeft?: number | null;
  }>;
};

const SCHEMA = "https://schema.org/";

/** The last second of a 'yyyy-mm-dd' day in a zone, as ISO with that zone's offset. */
function endOfDayIso(day: string, timeZone: string) {
  const [y, m, d] = day.split("-").map(Number);
  return isoInZone(new TZDate(y, m - 1, d, 23, 59, 59, timeZone), timeZone);
}

/**
 * schema.org Event for an event page (search engines' rich results), decision 0084. A cancelled
 * event reads EventCancelled. Offers run from the fee's sale start (validFrom, when it has one)
 * until its last day or the event's end; they read SoldOut once that has passed, when no seat is
 * left (the ticket's stock or the event's capacity), or when the event is cancelled.
 */
export function eventJsonLd(event: JsonLdEvent, origin: string, now: Date = new Date()) {
  const url = `${origin}/events/${encodeURIComponent(event.slug)}`;
  const zone = event.timeZone ?? EVENT_TIME_ZONE;
  const ended = new Date(event.endDate).getTime() <= now.getTime();
  const cancelled = event.cancelledAt != null;
  const image = event.imageUrl ?? event.ogImagePath;
  const virtual = isVirtualLocation(event.location);
  const { city, country } = splitLocation(event.location);
  return {
    "@context": "https://schema.org",
    "@type": "Event",
    name: event.title,
    description: event.description ?? event.theme ?? event.title,
    url,
    startDate: isoInZone(event.startDate, zone),
    endDate: isoInZone(event.endDate, zone),
    // schema.org has no 'finished' status: a past event that took place stays EventScheduled.
    eventStatus: `${SCHEMA}${cancelled ? "EventCancelled" : "EventScheduled"}`,
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
    ...(image ? { image: [new URL(image, origin).toString()] } : {}),
    ...(event.fees.length > 0
      ? {
          offers: event.fees.map((fee) => {
            const validThrough = fee.availableUntil
              ? endOfDayIso(fee.availableUntil, zone)
              : isoInZone(event.endDate, zone);
            const closed =
              cancelled ||
              ended ||
              new Date(validThrough).getTime() < now.getTime() ||
              fee.seatsLeft === 0;
            // The sale start, never the row's creation time; left out when unset (or, for
            // data older than the form's rule, when it would fall after validThrough).
            const validFrom =
              fee.saleStartsAt &&
              new Date(fee.saleStartsAt).getTime() <= new Date(validThrough).getTime()
                ? isoInZone(fee.saleStartsAt, zone)
                : null;
            return {
              "@type": "Offer",
              name: publicFeeTypeLabel(fee.feeType),
              // Decimal text from integer minor units, exact ("1234.56"; "1500" for UGX).
              price: minorToDecimal(fee.amountMinor, fee.currency),
              priceCurrency: fee.currency,
              url,
              availability: `${SCHEMA}${closed ? "SoldOut" : "InStock"}`,
              ...(validFrom ? { validFrom } : {}),
              validThrough,
            };
          }),
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
