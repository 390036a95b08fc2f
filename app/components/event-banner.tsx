/** Darker shade of a #rrggbb colour (for the generated banner's gradient). */
export function shade(hex: string, factor: number) {
  const match = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!match) return "#1e293b";
  const n = Number.parseInt(match[1], 16);
  const channel = (shift: number) => Math.round(((n >> shift) & 0xff) * factor);
  return `rgb(${channel(16)} ${channel(8)} ${channel(0)})`;
}

/** The generated banner's background: soft light discs over a gradient of the type colour. */
export function bannerBackground(color: string) {
  const disc = (at: string, radius: number, alpha: number) =>
    `radial-gradient(circle ${radius}px at ${at}, rgb(255 255 255 / ${alpha}) 98%, transparent 100%)`;
  return [
    disc("88% 10%", 90, 0.12),
    disc("12% 100%", 70, 0.08),
    disc("76% 88%", 34, 0.1),
    `linear-gradient(135deg, ${color}, ${shade(color, 0.55)})`,
  ].join(", ");
}

/**
 * The event's image, or a generated banner in its type's colour when there is none (design.md
 * §4b): pure CSS, no extra elements to hydrate. Its box has a fixed aspect ratio, so nothing
 * moves when the image arrives.
 */
export function EventBanner({
  imageUrl,
  color,
  aspect = "aspect-[40/21]",
}: {
  imageUrl: string | null;
  color: string;
  /** Tailwind aspect-ratio class; images are cropped to it. */
  aspect?: string;
}) {
  if (imageUrl) {
    return (
      <img
        src={imageUrl}
        alt=""
        width={1200}
        height={630}
        loading="lazy"
        decoding="async"
        className={`${aspect} w-full bg-muted object-cover`}
      />
    );
  }
  return (
    <div
      aria-hidden
      data-slot="event-banner"
      className={`${aspect} w-full`}
      style={{ backgroundImage: bannerBackground(color) }}
    />
  );
}
