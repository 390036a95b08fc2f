/**
 * Toasts without putting sonner (8 KB brotli) in a page's first load. The library is fetched
 * on first use, and the root mounts its Toaster only once a toast is wanted (a toast from the
 * server, a signed-in visitor, or a call here): a visitor who never sees a toast never loads it.
 * sonner shows toasts raised before its Toaster subscribed, so nothing raised early is lost.
 */
import { useSyncExternalStore } from "react";

type Kind = "success" | "error" | "info";

let toasterWanted = false;
const listeners = new Set<() => void>();

/** sonner, with the root's Toaster asked to mount (use this rather than `import("sonner")`). */
export function loadToasts() {
  if (!toasterWanted) {
    toasterWanted = true;
    for (const listener of listeners) listener();
  }
  return import("sonner");
}

/** True once something on the page has asked for toasts (for the root's Toaster). */
export function useToasterWanted() {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toasterWanted,
    () => false,
  );
}

export function notify(kind: Kind, title: string, options?: { description?: string }) {
  void loadToasts().then(({ toast }) => {
    const show = kind === "error" ? toast.error : kind === "success" ? toast.success : toast;
    show(title, options);
  });
}

type ToastOptions = { description?: string };

/**
 * sonner's `toast.success/error/info` for components, through notify: the back office raises
 * its toasts here, so no staff page loads sonner before it shows one (decision 0095).
 */
export const toast = {
  success: (title: string, options?: ToastOptions) => notify("success", title, options),
  error: (title: string, options?: ToastOptions) => notify("error", title, options),
  info: (title: string, options?: ToastOptions) => notify("info", title, options),
};
