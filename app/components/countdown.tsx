import { useEffect, useState } from "react";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function countdownParts(msLeft: number) {
  const ms = Math.max(0, msLeft);
  return {
    days: Math.floor(ms / DAY),
    hours: Math.floor((ms % DAY) / HOUR),
    minutes: Math.floor((ms % HOUR) / MINUTE),
    seconds: Math.floor((ms % MINUTE) / SECOND),
  };
}

/**
 * Days, hours, minutes and seconds until the start, ticking every second; 'Happening Now' once it
 * has started (spec §4). The first render uses the server's clock (`renderedAt`) so the HTML and
 * the hydrated page agree; the live clock takes over right after.
 */
export function Countdown({
  start,
  end,
  renderedAt,
}: {
  start: Date | string;
  end: Date | string;
  renderedAt: number;
}) {
  const [now, setNow] = useState(renderedAt);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), SECOND);
    return () => clearInterval(timer);
  }, []);

  const startMs = new Date(start).getTime();
  const endMs = new Date(end).getTime();
  if (now >= endMs) {
    return <p className="text-center font-medium text-muted-foreground">This event has ended.</p>;
  }
  if (now >= startMs) {
    return (
      <p className="flex items-center justify-center gap-2 text-lg font-semibold text-success">
        <span aria-hidden className="size-2.5 animate-pulse rounded-full bg-success" />
        Happening Now
      </p>
    );
  }
  const parts = countdownParts(startMs - now);
  const units = [
    ["Days", parts.days],
    ["Hours", parts.hours],
    ["Minutes", parts.minutes],
    ["Seconds", parts.seconds],
  ] as const;
  return (
    // role=timer is not announced on every tick (implicit aria-live="off").
    <div role="timer" aria-label="Time until the event starts" className="grid grid-cols-4 gap-2">
      {units.map(([label, n]) => (
        <div key={label} className="rounded-lg bg-accent px-1 py-2 text-center">
          <div className="text-2xl font-bold tabular-nums text-accent-foreground">
            {String(n).padStart(2, "0")}
          </div>
          <div className="text-xs font-medium text-slate-700">{label}</div>
        </div>
      ))}
    </div>
  );
}
