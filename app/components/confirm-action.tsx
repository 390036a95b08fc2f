import { useEffect, useRef, useState } from "react";
import { Form } from "react-router";
import { Link } from "~/components/link";
import { Button, buttonVariants } from "~/components/ui/button";
import { cn } from "~/lib/utils";

/** The form field an irreversible action must carry: the server refuses it without (issue 30). */
export const CONFIRM_FIELD = "confirm";

/** Whether a submitted form carries the confirmation (read by every irreversible action). */
export function isConfirmed(form: FormData) {
  return form.get(CONFIRM_FIELD) === "yes";
}

/**
 * An irreversible action (cancel a registration, an order, a membership) asked twice: the first
 * button opens a panel that says what happens to the seats and the money, and only its own button
 * sends the confirmation. Without JavaScript the first button posts without it; the action then
 * answers with the panel open (`open`), so the same two steps work everywhere.
 */
export function ConfirmAction({
  trigger,
  triggerLabel,
  triggerVariant = "destructive",
  size,
  title,
  children,
  confirmLabel,
  keepLabel,
  keepHref,
  action,
  fields,
  open: openFromServer = false,
}: {
  trigger: React.ReactNode;
  /** Accessible name of the first button when its text alone is ambiguous (lists). */
  triggerLabel?: string;
  triggerVariant?: "destructive" | "outline" | "ghost";
  size?: "sm" | "default";
  title: string;
  /** What happens: the seats, the money, what cannot be undone. */
  children: React.ReactNode;
  confirmLabel: string;
  keepLabel: string;
  /** Where "keep" goes without JavaScript (the page itself, without the panel). */
  keepHref: string;
  action?: string;
  fields: Record<string, string>;
  open?: boolean;
}) {
  const [open, setOpen] = useState(openFromServer);
  const [opened, setOpened] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (open && opened) headingRef.current?.focus();
  }, [open, opened]);
  const hidden = Object.entries(fields).map(([name, value]) => (
    <input key={name} type="hidden" name={name} value={value} />
  ));
  if (!open) {
    return (
      <Form method="post" action={action}>
        {hidden}
        <Button
          type="submit"
          variant={triggerVariant}
          size={size}
          className={wraps(size)}
          aria-label={triggerLabel}
          onClick={(event) => {
            event.preventDefault();
            setOpen(true);
            setOpened(true);
          }}
        >
          {trigger}
        </Button>
      </Form>
    );
  }
  const headingId = `confirm-${Object.values(fields).join("-")}`;
  return (
    <section
      aria-labelledby={headingId}
      className="grid w-full gap-3 rounded-lg border-2 border-destructive/50 bg-red-50/50 p-4 text-sm"
    >
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className="text-base font-semibold">
        {title}
      </h3>
      {children}
      <div className="flex flex-wrap gap-2">
        <Form method="post" action={action}>
          {hidden}
          <input type="hidden" name={CONFIRM_FIELD} value="yes" />
          <Button type="submit" variant="destructive" size={size} className={wraps(size)}>
            {confirmLabel}
          </Button>
        </Form>
        <Link
          to={keepHref}
          replace
          preventScrollReset
          className={cn(buttonVariants({ variant: "outline", size }), wraps(size))}
          onClick={(event) => {
            event.preventDefault();
            setOpen(false);
          }}
        >
          {keepLabel}
        </Link>
      </div>
    </section>
  );
}

/** Long labels ("Cancel (access until 26 Nov 2027)") wrap on a 320 px screen instead of widening it. */
function wraps(size: "sm" | "default" | undefined) {
  return cn(
    "h-auto shrink whitespace-normal text-center",
    size === "sm" ? "min-h-9 py-1" : "min-h-10",
  );
}
