import { type ComponentType, lazy, memo, type ReactNode, Suspense, useEffect, useRef } from "react";

/*
 * A server-rendered form whose code (Conform, the form component) the browser fetches when a
 * person starts to use it, not in the page's first load (decision 0065). Until then the
 * server's HTML stays as it is (React keeps a Suspense boundary's server markup until its
 * code arrives): the fields take input, links and the submit button work as plain HTML, and
 * the server validates what is sent. Pointing at, touching, focusing or typing in the region
 * starts the fetch; for a mouse or keyboard that is well before the first click or key
 * reaches a field. Rendered after hydration (a client-side navigation, another tab) or with
 * an action's answer to show, the code is fetched at once.
 */

/** Events that show someone is about to use the form. */
const INTENT_EVENTS = ["pointerover", "pointerdown", "touchstart", "focusin", "keydown", "input"];

const hydrated = () =>
  typeof document !== "undefined" && document.documentElement.hasAttribute("data-hydrated");

/**
 * `eager` is the server's copy (`import.meta.env.SSR ? await import(…) : null`, which the client
 * build drops): the server renders the form in place, inside the same boundary.
 */
/**
 * The fallback shows only when React renders the form in the browser without the server's
 * markup: created after hydration, or an update reached the boundary before its code did. There
 * is nothing to keep then, so the code is fetched at once.
 */
function Fetching({ start, children }: { start: () => void; children: ReactNode }) {
  useEffect(start, [start]);
  return children;
}

export function lazyOnInteraction<P extends object>(
  eager: ComponentType<P> | null | undefined,
  load: () => Promise<ComponentType<P>>,
) {
  let begin: () => void = () => {};
  const requested = new Promise<void>((resolve) => {
    begin = resolve;
  });
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    begin();
  };
  // memo: a parent's re-render with the same props is not an update of the boundary (React
  // would give up the server markup of a boundary updated before its code arrived).
  const Lazy: ComponentType<P> =
    eager ??
    memo(
      lazy(async () => {
        await requested;
        return { default: await load() };
      }),
    );
  // This module was loaded after hydration (a client-side navigation): nothing to keep.
  if (hydrated()) start();

  /**
   * The form in a region that starts the fetch; `now` fetches at once (e.g. the page shows an
   * action's answer, which the form's code turns into a toast).
   */
  // biome-ignore lint/correctness/noComponentHookFactories: called once per form, at module scope
  function InteractiveForm({
    now = false,
    fallback,
    ...props
  }: P & { now?: boolean; fallback: ReactNode }) {
    const region = useRef<HTMLDivElement>(null);
    useEffect(() => {
      const element = region.current;
      if (now || !element) {
        start();
        return;
      }
      for (const type of INTENT_EVENTS) element.addEventListener(type, start, { passive: true });
      return () => {
        for (const type of INTENT_EVENTS) element.removeEventListener(type, start);
      };
    }, [now]);
    return (
      <div ref={region} className="contents">
        <Suspense fallback={<Fetching start={start}>{fallback}</Fetching>}>
          <Lazy {...(props as unknown as P)} />
        </Suspense>
      </div>
    );
  }
  return InteractiveForm;
}
