import { cn } from "~/lib/utils";

/**
 * A table that may be wider than a narrow screen scrolls on its own, not the page (WCAG 1.4.10
 * allows two-dimensional scrolling for data tables), and takes keyboard focus so it can be
 * scrolled without a pointer (WCAG 2.1.1; axe scrollable-region-focusable). Its width comes
 * from where it sits, never from the table (`contain: inline-size`): a wide table cannot widen
 * the grid or card around it, and so the page, on a 390 px phone; and it is the containing
 * block of what is absolutely positioned in the table (screen-reader-only text), which would
 * otherwise escape the scrolling and widen the page (decision 0095).
 */
export function TableScroll({
  label,
  className,
  children,
}: {
  /** Names the region for screen readers; usually the table's caption. */
  label: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <section
      className={cn(
        "relative overflow-x-auto rounded-md contain-inline-size focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
        className,
      )}
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
      tabIndex={0}
    >
      {children}
    </section>
  );
}
