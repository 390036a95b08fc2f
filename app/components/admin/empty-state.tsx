import type { IconComponent } from "~/components/icons";
import { cn } from "~/lib/utils";

/** A designed empty list: a title, a hint and an optional action. */
export function EmptyState({
  title,
  hint,
  icon: Icon,
  action,
  className,
}: {
  title: string;
  hint?: React.ReactNode;
  icon?: IconComponent;
  action?: React.ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        "flex flex-col items-center gap-2 rounded-xl border border-dashed border-border px-6 py-12 text-center",
        className,
      )}
    >
      {Icon ? <Icon aria-hidden className="mb-2 size-10 text-slate-400" /> : null}
      <h2 className="text-lg font-semibold">{title}</h2>
      {hint ? <p className="max-w-md text-sm text-muted-foreground">{hint}</p> : null}
      {action ? <div className="mt-3">{action}</div> : null}
    </div>
  );
}
