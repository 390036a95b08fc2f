import { useEffect, useId, useRef, useState } from "react";
import { Bot, Send, X } from "~/components/icons";
import { Link } from "~/components/link";
import {
  CHAT_REPLY_DELAY_MS,
  CHAT_WELCOME,
  type ChatReply,
  chatReplyFor,
} from "~/lib/chat-replies";
import { cn } from "~/lib/utils";

type Message = { id: number; from: "bot" | "user"; reply: ChatReply };

/** The assistant chat panel: canned keyword replies after 1000 ms, no server call (spec §9). */
export default function ChatPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [messages, setMessages] = useState<Message[]>([
    { id: 0, from: "bot", reply: { text: CHAT_WELCOME } },
  ]);
  const [draft, setDraft] = useState("");
  const [pending, setPending] = useState(0);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const nextId = useRef(1);
  const inputRef = useRef<HTMLInputElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const inputId = useId();

  useEffect(() => {
    const pendingTimers = timers.current;
    return () => {
      for (const timer of pendingTimers) clearTimeout(timer);
    };
  }, []);
  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever a message arrives
  useEffect(() => {
    logRef.current?.scrollTo({ top: logRef.current.scrollHeight });
  }, [messages, pending]);

  const send = () => {
    const text = draft.trim();
    if (!text) return; // spec §5: nothing happens on empty input
    setMessages((list) => [...list, { id: nextId.current++, from: "user", reply: { text } }]);
    setDraft("");
    setPending((n) => n + 1);
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setPending((n) => n - 1);
      setMessages((list) => [
        ...list,
        { id: nextId.current++, from: "bot", reply: chatReplyFor(text) },
      ]);
    }, CHAT_REPLY_DELAY_MS);
    timers.current.add(timer);
  };

  return (
    <section
      hidden={!open}
      aria-labelledby={titleId}
      data-testid="chat-panel"
      className="fixed right-4 bottom-20 z-40 flex h-96 max-h-[calc(100vh-7rem)] w-96 max-w-[calc(100vw-2rem)] flex-col overflow-hidden rounded-xl border border-border bg-background shadow-2xl sm:right-6 sm:bottom-24"
      onKeyDown={(event) => {
        if (event.key === "Escape") onClose();
      }}
    >
      <header className="flex items-center gap-2 bg-primary px-4 py-3 text-primary-foreground">
        <Bot aria-hidden className="size-5" />
        <h2 id={titleId} className="flex-1 text-sm font-semibold">
          Kongamano Assistant
        </h2>
        <button
          type="button"
          onClick={onClose}
          className="rounded-md p-1 hover:bg-white/15"
          aria-label="Close chat"
        >
          <X aria-hidden className="size-4" />
        </button>
      </header>
      <div
        ref={logRef}
        role="log"
        aria-live="polite"
        aria-label="Conversation"
        className="flex-1 space-y-3 overflow-y-auto p-4"
      >
        {messages.map((m) => (
          <div
            key={m.id}
            className={cn("flex", m.from === "user" ? "justify-end" : "justify-start")}
          >
            <div
              data-from={m.from}
              className={cn(
                "max-w-[85%] rounded-2xl px-3 py-2 text-sm whitespace-pre-line",
                m.from === "user"
                  ? "rounded-br-sm bg-primary text-primary-foreground"
                  : "rounded-bl-sm bg-muted text-foreground",
              )}
            >
              <span className="sr-only">{m.from === "user" ? "You: " : "Assistant: "}</span>
              {m.reply.text}
              {m.reply.link ? (
                <Link
                  to={m.reply.link.href}
                  className="mt-1 block font-medium text-primary-700 underline underline-offset-2"
                >
                  {m.reply.link.label}
                </Link>
              ) : null}
            </div>
          </div>
        ))}
        {pending > 0 ? (
          <p className="text-xs text-muted-foreground" aria-live="off">
            Assistant is typing...
          </p>
        ) : null}
      </div>
      <form
        className="flex gap-2 border-t border-border p-3"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <label htmlFor={inputId} className="sr-only">
          Type your message
        </label>
        <input
          ref={inputRef}
          id={inputId}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder="Type your message..."
          autoComplete="off"
          className="h-10 min-w-0 flex-1 rounded-md border border-input bg-background px-3 text-sm"
        />
        <button
          type="submit"
          disabled={!draft.trim()}
          className="inline-flex h-10 items-center gap-1 rounded-md bg-primary px-3 text-sm font-medium text-primary-foreground hover:bg-primary-700 disabled:opacity-50"
        >
          <Send aria-hidden className="size-4" />
          Send
        </button>
      </form>
    </section>
  );
}
