// The event page's data as the page shows it (server only: it formats with date-fns).
import { publicFeeTypeLabel, SPONSOR_TIERS, statusLabel } from "~/lib/constants";
import {
  durationInDays,
  formatDate,
  formatDateRange,
  formatMoney,
  formatTime,
  nairobiIso,
} from "~/lib/format";
import type { EventDetail } from "~/models/events.server";
import { eventJsonLd } from "./json-ld";

/** Sponsors grouped by tier, platinum first (empty tiers left out). */
export function groupSponsorsByTier<S extends { tier: string }>(list: S[]) {
  return SPONSOR_TIERS.map((tier) => ({
    tier,
    sponsors: list.filter((s) => s.tier === tier),
  })).filter((group) => group.sponsors.length > 0);
}

/** Agenda items (already in time order) grouped by their Nairobi calendar day. */
export function agendaByDay<T extends { startTime: Date | string }>(items: T[]) {
  const days: Array<{ date: string; items: T[] }> = [];
  for (const item of items) {
    const date = formatDate(item.startTime);
    const last = days[days.length - 1];
    if (last?.date === date) last.items.push(item);
    else days.push({ date, items: [item] });
  }
  return days;
}

/**
 * Everything the event page shows, with dates, times and money already formatted in Nairobi
 * time: the browser then needs no date library, and server and client render the same text.
 */
export function buildEventPageView(
  event: EventDetail,
  { now, origin }: { now: Date; origin: string },
) {
  const today = nairobiIso(now).slice(0, 10);
  const summary = event.description ?? event.theme ?? "";
  const dateLabel = formatDateRange(event.startDate, event.endDate);
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
    typeColor: event.typeColor,
    start: event.startDate.toISOString(),
    end: event.endDate.toISOString(),
    dateLabel,
    timeLabel: `${formatTime(event.startDate)} - ${formatTime(event.endDate)}`,
    durationDays: durationInDays(event.startDate, event.endDate),
    speakers: event.speakers,
    agendaDays: agendaByDay(event.agenda).map((day) => ({
      date: day.date,
      items: day.items.map((item) => ({
        id: item.id,
        title: item.title,
        description: item.description,
        timeLabel: item.endTime
          ? `${formatTime(item.startTime)} - ${formatTime(item.endTime)}`
          : formatTime(item.startTime),
      })),
    })),
    fees: event.fees.map((fee) => ({
      id: fee.id,
      label: publicFeeTypeLabel(fee.feeType),
      amountLabel: formatMoney(fee.amount, fee.currency),
      description: fee.description,
      availableUntilLabel: fee.availableUntil ? formatDate(fee.availableUntil) : null,
      closed: fee.availableUntil !== null && fee.availableUntil < today,
      maxQuantity: fee.maxQuantity,
    })),
    sponsorGroups: groupSponsorsByTier(event.sponsors).map((group) => ({
      tier: group.tier,
      heading: `${statusLabel(group.tier)} Sponsors`,
      sponsors: group.sponsors,
    })),
    metaDescription:
      description.length > 200 ? `${description.slice(0, 197).trimEnd()}...` : description,
    jsonLd: eventJsonLd(event, origin),
  };
}

export type EventPageView = ReturnType<typeof buildEventPageView>;
