import { lazy, Suspense, useRef, useState } from "react";
import { MessageCircle, X } from "~/components/icons";
import { cn } from "~/lib/utils";

// The panel (and its canned replies) loads on first use: pages do not ship it up front.
const loadChatPanel = () => import("./chat-panel");
const ChatPanel = lazy(loadChatPanel);

/** Floating assistant chat (spec §1, §5, §9): a button that opens the chat panel. */
/**
 * The chat assistant's button: floating at the bottom corner, or `docked` in the page's flow after
 * the footer on screens whose controls it must not cover (the check-in door). Either way it stays
 * where help is on every page (WCAG 3.2.6).
 */
export function ChatWidget({ docked = false }: { docked?: boolean }) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const prefetch = () => {
    void loadChatPanel();
  };
  return (
    <>
      {wanted ? (
        <Suspense fallback={null}>
          <ChatPanel
            open={open}
            onClose={() => {
              setOpen(false);
              buttonRef.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
      <button
        ref={buttonRef}
        type="button"
        className={cn(
          "z-40 inline-flex size-14 items-center justify-center rounded-full bg-primary text-primary-foreground shadow-lg transition-colors hover:bg-primary-700",
          docked ? "mx-4 mb-4 self-end sm:mx-6" : "fixed right-4 bottom-4 sm:right-6 sm:bottom-6",
        )}
        aria-label={open ? "Close chat assistant" : "Open chat assistant"}
        aria-expanded={open}
        onPointerEnter={prefetch}
        onTouchStart={prefetch}
        onFocus={prefetch}
        onClick={() => {
          setWanted(true);
          setOpen((o) => !o);
        }}
      >
        {open ? (
          <X aria-hidden className="size-6" />
        ) : (
          <MessageCircle aria-hidden className="size-6" />
        )}
      </button>
    </>
  );
}
