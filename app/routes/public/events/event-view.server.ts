// The event page's data as the page shows it (server only: it formats with date-fns).
import { publicFeeTypeLabel, SPONSOR_TIERS, statusLabel } from "~/lib/constants";
import {
  durationInDays,
  formatDate,
  formatDateRange,
  formatTime,
  isoInZone,
  zoneLabel,
} from "~/lib/format";
import { formatMinor } from "~/lib/money";
import { type OgCard, ogShareImage } from "~/lib/og-image.server";
import { onSaleFromLabel, saleNotStarted } from "~/models/events/fee-sale";
import type { EventDetail } from "~/models/events/queries.server";
import { eventJsonLd } from "./json-ld";

/** Seats left per ticket (getSeatsLeft); without it nothing is known to be sold out. */
export type SeatsLeft = { byFee: Map<string, number | null>; free: number | null };

/** Sponsors grouped by tier, platinum first (empty tiers left out). */
export function groupSponsorsByTier<S extends { tier: string }>(list: S[]) {
  return SPONSOR_TIERS.map((tier) => ({
    tier,
    sponsors: list.filter((s) => s.tier === tier),
  })).filter((group) => group.sponsors.length > 0);
}

/** Agenda items (already in time order) grouped by their calendar day in the event's zone. */
export function agendaByDay<T extends { startTime: Date | string }>(items: T[], timeZone?: string) {
  const days: Array<{ date: string; items: T[] }> = [];
  for (const item of items) {
    const date = formatDate(item.startTime, timeZone);
    const last = days[days.length - 1];
    if (last?.date === date) last.items.push(item);
    else days.push({ date, items: [item] });
  }
  return days;
}

/** The event's share card: type, title, dates with its zone, place, in the type's colour. */
export function eventOgCard(event: EventDetail): OgCard {
  const dates = formatDateRange(event.startDate, event.endDate, event.timeZone);
  return {
    kicker: statusLabel(event.eventType),
    title: event.title,
    lines: [
      `${dates} · ${formatTime(event.startDate, event.timeZone)} ${zoneLabel(event.startDate, event.timeZone).split(" (")[0]}`,
      event.location,
    ],
    color: event.typeColor,
  };
}

/** The event's generated share image: its path, versioned by its content, and its alt text. */
export function eventShareImage(event: EventDetail) {
  return ogShareImage(eventOgCard(event), `/events/${encodeURIComponent(event.slug)}/og.png`);
}

/**
 * Everything the event page shows, with dates, times and money already formatted in the event's
 * own zone: the browser then needs no date library, and server and client render the same text.
 */
export function buildEventPageView(
  event: EventDetail,
  { now, origin, seats }: { now: Date; origin: string; seats?: SeatsLeft },
) {
  const zone = event.timeZone;
  const today = isoInZone(now, zone).slice(0, 10);
  const registrationOpen = event.startDate > now && event.cancelledAt === null;
  const fees = event.fees.map((fee) => {
    const seatsLeft = seats ? (seats.byFee.get(fee.id) ?? null) : undefined;
    const notYet = saleNotStarted(fee.saleStartsAt, now);
    const closed = fee.availableUntil !== null && fee.availableUntil < today;
    return {
      id: fee.id,
      label: publicFeeTypeLabel(fee.feeType),
      amountLabel: formatMinor(fee.amountMinor, fee.currency),
      description: fee.description,
      availableUntilLabel: fee.availableUntil
        ? formatDate(`${fee.availableUntil}T12:00:00Z`, "UTC")
        : null,
      closed,
      /** "On sale from …" while the sale has not started (the ticket cannot be chosen yet). */
      onSaleFromLabel: fee.saleStartsAt && notYet ? onSaleFromLabel(fee.saleStartsAt, zone) : null,
      onSaleNow: !closed && !notYet,
      soldOut: seatsLeft === 0,
      maxQuantity: fee.maxQuantity,
      // For the JSON-LD offers.
      seatsLeft,
    };
  });
  const onSale = fees.filter((fee) => fee.onSaleNow);
  // What the Registration panel offers: a sold-out event (every ticket on sale has no seat
  // left, or, without fees, the capacity is taken) offers its waitlist, not 'Register Now'.
  const soldOut =
    seats !== undefined &&
    (event.fees.length === 0
      ? seats.free === 0
      : onSale.length > 0 && onSale.every((f) => f.soldOut));
  // The earliest sale still to come (fees are listed cheapest first, not by sale start).
  const upcomingSale = event.fees
    .map((fee, i) => ({ at: fee.saleStartsAt, view: fees[i] }))
    .filter((entry) => entry.view.onSaleFromLabel)
    .sort((a, b) => (a.at?.getTime() ?? 0) - (b.at?.getTime() ?? 0))[0]?.view;
  const callToAction: "register" | "waitlist" | "not-yet" | null = !registrationOpen
    ? null
    : soldOut
      ? "waitlist"
      : event.fees.length > 0 && onSale.length === 0 && upcomingSale
        ? "not-yet"
        : "register";
  const summary = event.description ?? event.theme ?? "";
  const dateLabel = formatDateRange(event.startDate, event.endDate, zone);
  const time = (d: Date) => formatTime(d, zone);
  const shareImage = eventShareImage(event);
  const ogImagePath = shareImage.url;
  const description = `${dateLabel} · ${event.location}. ${summary}`.trim();
  return {
    slug: event.slug,
    title: event.title,
    theme: event.theme,
    description: event.description,
    location: event.location,
    eventType: event.eventType,
    category: event.category ?? "General",
    industrySector: event.industrySector,
    tags: event.tags ?? [],
    featured: event.featured,
    imageUrl: event.imageUrl,
    // Always the card (1200×630, size known), never the upload (any size within it): decision 0086.
    shareImage,
    typeColor: event.typeColor,
    start: event.startDate.toISOString(),
    end: event.endDate.toISOString(),
    dateLabel,
    timeZone: zone,
    timeLabel: `${time(event.startDate)} - ${time(event.endDate)}`,
    zoneLabel: zoneLabel(event.startDate, zone),
    durationDays: durationInDays(event.startDate, event.endDate, zone),
    speakers: event.speakers,
    agendaDays: agendaByDay(event.agenda, zone).map((day) => ({
      date: day.date,
      items: day.items.map((item) => ({
        id: item.id,
        title: item.title,
        description: item.description,
        timeLabel: item.endTime
          ? `${time(item.startTime)} - ${time(item.endTime)}`
          : time(item.startTime),
      })),
    })),
    fees: fees.map(({ seatsLeft, ...fee }) => fee),
    // Registration (issue 15): open until the start unless the event is called off.
    past: event.endDate <= now,
    cancelled: event.cancelledAt !== null,
    registrationOpen,
    callToAction,
    /** The earliest sale start, while no ticket is on sale yet ("On sale from …"). */
    nextSaleLabel: callToAction === "not-yet" ? (upcomingSale?.onSaleFromLabel ?? null) : null,
    sponsorGroups: groupSponsorsByTier(event.sponsors).map((group) => ({
      tier: group.tier,
      heading: `${statusLabel(group.tier)} Sponsors`,
      sponsors: group.sponsors,
    })),
    metaDescription:
      description.length > 200 ? `${description.slice(0, 197).trimEnd()}...` : description,
    jsonLd: eventJsonLd(
      {
        ...event,
        ogImagePath,
        fees: event.fees.map((fee, i) => ({ ...fee, seatsLeft: fees[i].seatsLeft })),
      },
      origin,
      now,
    ),
  };
}

export type EventPageView = ReturnType<typeof buildEventPageView>;
