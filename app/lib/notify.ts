/**
 * Shows a toast without putting sonner (9 KB gzip) in a page's first load: the library is
 * fetched on first use. The Toaster itself is mounted lazily by the root route.
 */
type Kind = "success" | "error" | "info";

export function notify(kind: Kind, title: string, options?: { description?: string }) {
  void import("sonner").then(({ toast }) => {
    const show = kind === "error" ? toast.error : kind === "success" ? toast.success : toast;
    show(title, options);
  });
}
