import { useEffect, useRef, useState } from "react";

/** A sponsor's logo; hidden when it fails to load (spec §2.15), even before hydration. */
/** Decorative: the sponsor's name is always printed beside it. */
export function EventSponsorLogo({ src }: { src: string }) {
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    // An error that happened before React attached its handler is only visible this way.
    const img = ref.current;
    if (img?.complete && img.naturalWidth === 0) setFailed(true);
  }, []);
  if (failed) return null;
  return (
    <img
      ref={ref}
      src={src}
      alt=""
      width={160}
      height={64}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
      className="h-16 w-40 object-contain"
    />
  );
}
