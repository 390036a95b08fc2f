import { lazy, Suspense, useRef, useState } from "react";
import { MessageCircle, X } from "~/components/icons";

// The panel (and its canned replies) loads on first use: pages do not ship it up front.
const loadChatPanel = () => import("./chat-panel");
const ChatPanel = lazy(loadChatPanel);

/** Floating assistant chat (spec §1, §5, §9): a button that opens the chat panel. */
export function ChatWidget() {
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
        className="fixed right-4 bottom-4 z-40 inline-flex size-14 items-center justify-center rounded-full bg-primary text-primary-foreground shadow-lg transition-colors hover:bg-primary-700 sm:right-6 sm:bottom-6"
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
