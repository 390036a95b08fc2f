import { ChevronDown } from "~/components/icons";
import { cn } from "~/lib/utils";
import { inputClass } from "./input";

/** A styled native <select>: works without JavaScript and in forms. Never give an option value "". */
export function NativeSelect({ className, children, ...props }: React.ComponentProps<"select">) {
  return (
    <div className="relative">
      <select
        data-slot="select"
        className={cn(inputClass, "appearance-none pr-9", className)}
        {...props}
      >
        {children}
      </select>
      <ChevronDown
        aria-hidden
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
    </div>
  );
}
