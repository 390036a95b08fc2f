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
 *
 * Accessibility (issue 19, decision 0062): with reduced motion the seconds are dropped and the
 * figures change once a minute; a Pause button stops the updates (WCAG 2.2.2); the timer is
 * never a live region, so screen readers do not announce each tick.
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
  const [calm, setCalm] = useState(false);
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    const query = window.matchMedia("(prefers-reduced-motion: reduce)");
    const onChange = () => setCalm(query.matches);
    onChange();
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  useEffect(() => {
    if (paused) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), calm ? MINUTE : SECOND);
    return () => clearInterval(timer);
  }, [calm, paused]);

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
  const units: [string, number][] = [
    ["Days", parts.days],
    ["Hours", parts.hours],
    ["Minutes", parts.minutes],
  ];
  if (!calm) units.push(["Seconds", parts.seconds]);
  return (
    <div className="grid gap-2">
      {/* role=timer is not announced on every tick (implicit aria-live="off"). */}
      <div
        role="timer"
        aria-label="Time until the event starts"
        data-reduced-motion={calm || undefined}
        className="grid grid-cols-[repeat(auto-fit,minmax(4rem,1fr))] gap-2"
      >
        {units.map(([label, n]) => (
          <div key={label} className="rounded-lg bg-accent px-1 py-2 text-center">
            <div className="text-2xl font-bold tabular-nums text-accent-foreground">
              {String(n).padStart(2, "0")}
            </div>
            <div className="text-xs font-medium text-slate-700">{label}</div>
          </div>
        ))}
      </div>
      <button
        type="button"
        aria-pressed={paused}
        onClick={() => setPaused((p) => !p)}
        className="mx-auto min-h-6 rounded px-2 text-xs font-medium text-slate-700 underline underline-offset-4 hover:text-foreground"
      >
        Pause countdown
      </button>
    </div>
  );
}
