import { cva, type VariantProps } from "class-variance-authority";
import { cn } from "~/lib/utils";

// Colours meet 4.5:1 contrast for their text.
export const badgeVariants = cva(
  "inline-flex w-fit items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-medium whitespace-nowrap",
  {
    variants: {
      variant: {
        default: "border-transparent bg-primary text-primary-foreground",
        secondary: "border-transparent bg-muted text-slate-700",
        outline: "border-border text-foreground",
        success: "border-transparent bg-green-100 text-green-800",
        warning: "border-transparent bg-yellow-100 text-yellow-900",
        info: "border-transparent bg-blue-100 text-blue-800",
        accent: "border-transparent bg-accent text-accent-foreground",
        destructive: "border-transparent bg-red-100 text-red-800",
        neutral: "border-transparent bg-slate-100 text-slate-700",
      },
    },
    defaultVariants: { variant: "default" },
  },
);

export function Badge({
  className,
  variant,
  ...props
}: React.ComponentProps<"span"> & VariantProps<typeof badgeVariants>) {
  return (
    <span data-slot="badge" className={cn(badgeVariants({ variant }), className)} {...props} />
  );
}
