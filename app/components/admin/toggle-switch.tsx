import { cn } from "~/lib/utils";

/**
 * An on/off switch built on a native checkbox (role="switch"): it submits "on" with the form
 * even without JavaScript, unlike a button-based switch.
 */
export function ToggleSwitch({
  className,
  ...props
}: Omit<React.ComponentProps<"input">, "type" | "role">) {
  return (
    <span className={cn("relative inline-flex h-6 w-11 shrink-0", className)}>
      <input
        type="checkbox"
        // biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox exposes its checked state
        role="switch"
        className="peer absolute inset-0 z-10 m-0 size-full cursor-pointer appearance-none rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        {...props}
      />
      <span
        aria-hidden
        data-slot="switch-track"
        className="pointer-events-none absolute inset-0 rounded-full bg-slate-400 transition-colors peer-checked:bg-primary"
      />
      <span
        aria-hidden
        data-slot="switch-thumb"
        className="pointer-events-none absolute top-0.5 left-0.5 size-5 rounded-full bg-white shadow transition-transform peer-checked:translate-x-5"
      />
    </span>
  );
}
