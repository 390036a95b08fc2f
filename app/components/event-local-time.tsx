import { useEffect, useState } from "react";

/** A zone's UTC offset in minutes at an instant (e.g. -300 for Toronto in winter). */
function offsetMinutes(date: Date, timeZone?: string) {
  const wall = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    hourCycle: "h23",
  })
    .formatToParts(date)
    .reduce<Record<string, number>>((acc, part) => {
      if (part.type !== "literal") acc[part.type] = Number(part.value);
      return acc;
    }, {});
  const utc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  return Math.round((utc - Math.floor(date.getTime() / 60_000) * 60_000) / 60_000);
}

/** 'h:mm AM', with the day in front when it is not the same day as in the event's zone. */
function localTime(date: Date, eventZone: string) {
  const time = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit" });
  const day = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric" });
  const eventDay = new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    timeZone: eventZone,
  });
  const sameDay = day.format(date) === eventDay.format(date);
  return sameDay ? time.format(date) : `${day.format(date)}, ${time.format(date)}`;
}

/**
 * The event's times in the visitor's own zone, beside the event's local times, when the zones
 * differ. Rendered after hydration only (the server cannot know the zone) into a line whose
 * height is reserved from the start, so its appearance moves nothing.
 */
export function EventLocalTime({
  start,
  end,
  timeZone,
}: {
  start: string;
  end: string;
  timeZone: string;
}) {
  const [text, setText] = useState("");
  useEffect(() => {
    const from = new Date(start);
    const to = new Date(end);
    if (
      offsetMinutes(from) === offsetMinutes(from, timeZone) &&
      offsetMinutes(to) === offsetMinutes(to, timeZone)
    ) {
      return;
    }
    const zone = new Intl.DateTimeFormat("en-US", { timeZoneName: "short" })
      .formatToParts(from)
      .find((part) => part.type === "timeZoneName")?.value;
    setText(
      `Your time: ${localTime(from, timeZone)} - ${localTime(to, timeZone)} ${zone ?? ""}`.trim(),
    );
  }, [start, end, timeZone]);
  return (
    <span
      data-testid="event-local-time"
      className="block min-h-5 text-sm font-normal text-muted-foreground"
    >
      {text}
    </span>
  );
}
