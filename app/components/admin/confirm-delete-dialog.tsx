import { useState } from "react";
import { useFetcher } from "react-router";
import { Trash2 } from "~/components/icons";
import { Button } from "~/components/ui/button";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "~/components/ui/dialog";
import { toast } from "~/lib/notify";
import { useFetcherDone } from "~/lib/use-fetcher-done";

/** What a delete action may answer besides a redirect: a failure shown as a toast. */
export type DeleteActionFailure = { error: { title: string; description?: string } };

function failureOf(value: unknown): DeleteActionFailure["error"] | null {
  if (value && typeof value === "object" && "error" in value) {
    const error = (value as DeleteActionFailure).error;
    if (error && typeof error.title === "string") return error;
  }
  return null;
}

/**
 * A delete button that asks first (spec §2.15). Confirming POSTs `fields` to `action` (default:
 * the current route). The action should answer `redirectWithToast(...)` on success and
 * `data({ error: { title, description } }, { status })` on failure (shown as a toast here).
 */
export function ConfirmDeleteDialog({
  itemName,
  title = "Are you sure?",
  description,
  fields,
  action,
  triggerLabel = "Delete",
  confirmLabel = "Delete",
}: {
  /** Names the item in the trigger's accessible name: "Delete <itemName>". */
  itemName: string;
  title?: string;
  description?: React.ReactNode;
  fields: Record<string, string>;
  action?: string;
  triggerLabel?: string;
  confirmLabel?: string;
}) {
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher();
  const busy = fetcher.state !== "idle";

  useFetcherDone(fetcher, (answer) => {
    setOpen(false);
    const failure = failureOf(answer);
    if (failure) toast.error(failure.title, { description: failure.description });
  });

  return (
    <AlertDialog open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="text-destructive hover:text-destructive"
          aria-label={`${triggerLabel} ${itemName}`}
        >
          <Trash2 aria-hidden />
          {triggerLabel}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>{title}</AlertDialogTitle>
        <AlertDialogDescription>
          {description ?? (
            <>
              This will permanently delete <strong>{itemName}</strong>. This action cannot be
              undone.
            </>
          )}
        </AlertDialogDescription>
        <fetcher.Form method="post" action={action}>
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <AlertDialogFooter>
            <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
            <Button type="submit" variant="destructive" disabled={busy}>
              {busy ? "Deleting..." : confirmLabel}
            </Button>
          </AlertDialogFooter>
        </fetcher.Form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
