import { Card } from "~/components/ui/card";
import { cn } from "~/lib/utils";

/** Card grids use 1, 2 or 3 columns by screen width (spec §2.15). */
export function EntityGrid({ className, ...props }: React.ComponentProps<"ul">) {
  return <ul className={cn("grid gap-4 sm:grid-cols-2 lg:grid-cols-3", className)} {...props} />;
}

/**
 * One item of an EntityGrid: optional media on top, a heading, badges, body and the actions
 * (edit link, delete dialog) at the bottom. `headingLevel` keeps the page's heading order.
 */
export function EntityCard({
  title,
  media,
  badges,
  actions,
  headingLevel = 2,
  className,
  children,
}: {
  title: React.ReactNode;
  media?: React.ReactNode;
  badges?: React.ReactNode;
  actions?: React.ReactNode;
  headingLevel?: 2 | 3;
  className?: string;
  children?: React.ReactNode;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <li className="flex">
      <Card className={cn("w-full overflow-hidden", className)}>
        {media}
        <div className="flex flex-1 flex-col gap-3 p-5">
          {badges ? <div className="flex flex-wrap items-center gap-2">{badges}</div> : null}
          <Heading className="text-lg leading-snug font-semibold break-words">{title}</Heading>
          {children ? (
            <div className="grid gap-1 text-sm text-muted-foreground">{children}</div>
          ) : null}
          {actions ? (
            <div className="mt-auto flex flex-wrap items-center gap-2 pt-2">{actions}</div>
          ) : null}
        </div>
      </Card>
    </li>
  );
}
