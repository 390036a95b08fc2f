import { type KeyboardEvent, useState } from "react";

/**
 * A menu whose code loads when someone reaches for its button (decision 0095): pointing at,
 * touching or focusing the button fetches it; pressing it (or ArrowDown) asks for the menu, which
 * then renders already open. Spread `triggerProps` on the stand-in button; render the menu once
 * `wanted`.
 */
export function useMenuOnIntent(load: () => Promise<unknown>) {
  const [wanted, setWanted] = useState(false);
  const prefetch = () => {
    void load();
  };
  const triggerProps = {
    "aria-haspopup": "menu" as const,
    "aria-expanded": false,
    onPointerEnter: prefetch,
    onTouchStart: prefetch,
    onFocus: prefetch,
    onClick: () => setWanted(true),
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === "ArrowDown") {
        event.preventDefault();
        setWanted(true);
      }
    },
  };
  return { wanted, triggerProps };
}
