import { Loader2 } from "~/components/icons";
import { cn } from "~/lib/utils";

/** Spinner with a visible text (spec §2.2: 'Loading events...', 'Verifying permissions...'). */
export function Spinner({ label, className }: { label?: string; className?: string }) {
  return (
    <div
      role="status"
      className={cn("flex items-center justify-center gap-2 py-8 text-muted-foreground", className)}
    >
      <Loader2 aria-hidden className="size-5 animate-spin" />
      <span>{label ?? "Loading..."}</span>
    </div>
  );
}
