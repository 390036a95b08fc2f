import { useEffect, useRef, useState } from "react";

const easeOut = (t: number) => 1 - (1 - t) ** 3;

/**
 * Same output as `formatCompact` in ~/lib/format (a test keeps them equal), repeated here so the
 * home page does not ship that module's date library to browsers.
 */
export function compact(n: number) {
  if (n < 1000) return String(n);
  const k = n / 1000;
  return `${Number.isInteger(k) ? k : k.toFixed(1)}k`;
}

/**
 * A figure that counts up from 0 over `durationMs` once it scrolls into view (spec §2.3, §9).
 * The final value is what the server renders, so visitors without JavaScript or who prefer
 * reduced motion simply see it. The box keeps the final value's width: nothing shifts.
 */
export function CountUp({
  value,
  suffix = "",
  durationMs = 2000,
}: {
  value: number;
  suffix?: string;
  durationMs?: number;
}) {
  const [shown, setShown] = useState(value);
  const ref = useRef<HTMLSpanElement>(null);
  const final = `${compact(value)}${suffix}`;

  useEffect(() => {
    const element = ref.current;
    if (!element || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    if (typeof IntersectionObserver === "undefined") return;
    let frame = 0;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        const started = performance.now();
        const tick = (now: number) => {
          const progress = Math.min(1, (now - started) / durationMs);
          setShown(Math.round(value * easeOut(progress)));
          if (progress < 1) frame = requestAnimationFrame(tick);
        };
        frame = requestAnimationFrame(tick);
      },
      { threshold: 0.4 },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [value, durationMs]);

  return (
    <span className="relative inline-block tabular-nums">
      {/* Reserves the final width; screen readers get the final value only. */}
      <span className="invisible" aria-hidden>
        {final}
      </span>
      <span ref={ref} data-slot="count-up" className="absolute inset-0 text-left" aria-hidden>
        {compact(shown)}
        {suffix}
      </span>
      <span className="sr-only">{final}</span>
    </span>
  );
}
