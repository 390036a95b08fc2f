import { useEffect, useRef } from "react";

/**
 * Calls `onDone` with the fetcher's answer once each submission has finished (busy, then idle
 * again), not on the first render: the dialogs close or keep their message from it.
 */
export function useFetcherDone<T>(
  fetcher: { state: string; data: T | undefined },
  onDone: (data: T | undefined) => void,
) {
  const busy = fetcher.state !== "idle";
  const wasBusy = useRef(false);
  const latest = useRef(onDone);
  latest.current = onDone;
  useEffect(() => {
    if (busy) {
      wasBusy.current = true;
      return;
    }
    if (!wasBusy.current) return;
    wasBusy.current = false;
    latest.current(fetcher.data);
  }, [busy, fetcher.data]);
}
