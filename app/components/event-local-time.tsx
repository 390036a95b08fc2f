import { useEffect, useState } from "react";

const NAIROBI_OFFSET_MINUTES = 180;

/** The visitor's UTC offset in minutes at a given instant (e.g. 60 for CET in winter). */
function localOffsetMinutes(date: Date) {
  return -date.getTimezoneOffset();
}

/** 'h:mm AM', with the day in front when it is not the same day as in Nairobi. */
function localTime(date: Date) {
  const time = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit" });
  const day = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric" });
  const nairobiDay = new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "Africa/Nairobi",
  });
  const sameDay = day.format(date) === nairobiDay.format(date);
  return sameDay ? time.format(date) : `${day.format(date)}, ${time.format(date)}`;
}

/**
 * The event's times in the visitor's own zone, beside the Nairobi times, when the zones differ.
 * Rendered after hydration only (the server cannot know the zone) into a line whose height is
 * reserved from the start, so its appearance moves nothing.
 */
export function EventLocalTime({ start, end }: { start: string; end: string }) {
  const [text, setText] = useState("");
  useEffect(() => {
    const from = new Date(start);
    const to = new Date(end);
    if (
      localOffsetMinutes(from) === NAIROBI_OFFSET_MINUTES &&
      localOffsetMinutes(to) === NAIROBI_OFFSET_MINUTES
    ) {
      return;
    }
    const zone = new Intl.DateTimeFormat("en-US", { timeZoneName: "short" })
      .formatToParts(from)
      .find((part) => part.type === "timeZoneName")?.value;
    setText(`Your time: ${localTime(from)} - ${localTime(to)} ${zone ?? ""}`.trim());
  }, [start, end]);
  return (
    <span
      data-testid="event-local-time"
      className="block min-h-5 text-sm font-normal text-muted-foreground"
    >
      {text}
    </span>
  );
}
